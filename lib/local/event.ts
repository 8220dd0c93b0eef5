/**
 * HTTP ⇄ Lambda, as API Gateway HTTP API does it with payload format 2.0. Pure functions (no I/O),
 * so the mapping is unit-tested on its own:
 *  - buildApiEvent: request → APIGatewayProxyEventV2WithJWTAuthorizer
 *  - makeLambdaContext: a Lambda-like context
 *  - toHttpResponse: the handler's result → status, headers, cookies, body
 * References: "Working with AWS Lambda proxy integrations for HTTP APIs" (payload format 2.0,
 * response format 2.0) and "Controlling access to HTTP APIs with JWT authorizers".
 */
import type { APIGatewayEventRequestContextJWTAuthorizer, APIGatewayProxyEventV2WithJWTAuthorizer, Context } from 'aws-lambda';
import { routeKey, type RouteDefinition } from '../../schema/routes';
import { gatewayMessages } from '../../schema/api/serverMessages';

export type ApiGatewayEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type JwtClaims = APIGatewayEventRequestContextJWTAuthorizer['jwt']['claims'];

export interface RequestInput {
  method: string;
  /** Path and query as received, e.g. `/api/campaigns/abc?x=1`. */
  url: string;
  /** Header names in any case; repeated headers as arrays. */
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer | undefined;
  sourceIp: string;
  route: Pick<RouteDefinition, 'method' | 'path'>;
  pathParameters: Record<string, string>;
  /** The verified token's payload; undefined on public routes (no authorizer). */
  claims?: Record<string, unknown> | undefined;
  requestId: string;
  now: Date;
  /** Port the local server listens on, for x-forwarded-port. */
  port?: number;
}

/** Content types API Gateway passes as text; every other body is base64-encoded. */
export function isTextContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/javascript' ||
    type === 'application/x-www-form-urlencoded' ||
    type === 'application/graphql'
  );
}

/**
 * API Gateway hands every claim to the Lambda as a string: numbers and booleans as their text,
 * arrays as "[a b]" (space-separated in brackets), objects as JSON.
 */
export function stringifyClaims(payload: Record<string, unknown>): JwtClaims {
  const claims: JwtClaims = {};
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) claims[name] = `[${value.map(String).join(' ')}]`;
    else claims[name] = typeof value === 'string' ? value : JSON.stringify(value); // a number's or boolean's JSON is its text
  }
  return claims;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** `12/Mar/2020:19:03:58 +0000`, API Gateway's requestContext.time. */
export function apiGatewayTime(date: Date): string {
  return `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(
    date.getUTCMinutes(),
  )}:${pad(date.getUTCSeconds())} +0000`;
}

export function buildApiEvent(input: RequestInput): ApiGatewayEvent {
  const queryIndex = input.url.indexOf('?');
  const rawPath = queryIndex === -1 ? input.url : input.url.slice(0, queryIndex);
  const rawQueryString = queryIndex === -1 ? '' : (input.url.slice(queryIndex + 1).split('#')[0] ?? '');

  const headers: Record<string, string> = {};
  let cookieHeader: string | undefined;
  for (const [name, value] of Object.entries(input.headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (lower === 'cookie') {
      cookieHeader = Array.isArray(value) ? value.join('; ') : value;
      continue;
    }
    if (lower === 'connection' || lower === 'keep-alive') continue;
    const joined = Array.isArray(value) ? value.join(',') : value;
    headers[lower] = headers[lower] === undefined ? joined : `${headers[lower]},${joined}`;
  }
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${input.sourceIp}` : input.sourceIp;
  headers['x-forwarded-proto'] = 'http';
  if (input.port !== undefined) headers['x-forwarded-port'] = String(input.port);
  headers['x-amzn-trace-id'] ??= `Root=1-${Math.floor(input.now.getTime() / 1000).toString(16)}-${input.requestId
    .replace(/[^a-zA-Z0-9]/g, '')
    .padEnd(24, '0')
    .slice(0, 24)
    .toLowerCase()}`;

  const cookies = cookieHeader
    ?.split(';')
    .map((cookie) => cookie.trim())
    .filter(Boolean);

  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString !== '') {
    queryStringParameters = {};
    for (const [key, value] of new URLSearchParams(rawQueryString)) {
      queryStringParameters[key] = queryStringParameters[key] === undefined ? value : `${queryStringParameters[key]},${value}`;
    }
  }

  const domainName = (headers.host ?? '127.0.0.1').replace(/:\d+$/, '');
  const key = routeKey(input.route);
  const requestContext = {
    accountId: '000000000000',
    apiId: 'local',
    domainName,
    domainPrefix: domainName.split('.')[0] ?? domainName,
    http: {
      method: input.method.toUpperCase(),
      path: rawPath,
      protocol: 'HTTP/1.1',
      sourceIp: input.sourceIp,
      userAgent: headers['user-agent'] ?? '',
    },
    requestId: input.requestId,
    routeKey: key,
    stage: '$default',
    time: apiGatewayTime(input.now),
    timeEpoch: input.now.getTime(),
  } as ApiGatewayEvent['requestContext'];
  // Public routes carry no authorizer in API Gateway's event (the type insists on one).
  if (input.claims) {
    const scope = typeof input.claims.scope === 'string' ? input.claims.scope : undefined;
    requestContext.authorizer = {
      jwt: {
        claims: stringifyClaims(input.claims),
        scopes: scope ? scope.split(' ').filter(Boolean) : null,
      },
    };
  }

  const event: ApiGatewayEvent = {
    version: '2.0',
    routeKey: key,
    rawPath,
    rawQueryString,
    headers,
    requestContext,
    isBase64Encoded: false,
  };
  if (cookies && cookies.length > 0) event.cookies = cookies;
  if (queryStringParameters) event.queryStringParameters = queryStringParameters;
  if (Object.keys(input.pathParameters).length > 0) event.pathParameters = { ...input.pathParameters };
  if (input.body && input.body.length > 0) {
    const text = isTextContentType(headers['content-type']);
    event.body = text ? input.body.toString('utf8') : input.body.toString('base64');
    event.isBase64Encoded = !text;
  }
  return event;
}

export interface LambdaContextOptions {
  functionName: string;
  awsRequestId: string;
  region: string;
  timeoutMs: number;
  now?: () => number;
  memoryLimitInMB?: number;
}

export function makeLambdaContext(options: LambdaContextOptions): Context {
  const now = options.now ?? Date.now;
  const deadline = now() + options.timeoutMs;
  const day = new Date(now()).toISOString().slice(0, 10).replace(/-/g, '/');
  const unsupported = () => {
    throw new Error('Callback-style context methods are not supported: return a promise.');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: options.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${options.region}:000000000000:function:${options.functionName}`,
    memoryLimitInMB: String(options.memoryLimitInMB ?? 1024),
    awsRequestId: options.awsRequestId,
    logGroupName: `/aws/lambda/${options.functionName}`,
    logStreamName: `${day}/[$LATEST]${options.awsRequestId.replace(/-/g, '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - now()),
    // The old callback methods the Context type still declares: a handler that calls one is told so.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- declared, not used: the type requires them
    ...{ done: unsupported, fail: unsupported, succeed: unsupported },
  };
}

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  cookies: string[];
  body: Buffer;
}

const jsonResponse = (statusCode: number, value: unknown): HttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  cookies: [],
  body: Buffer.from((JSON.stringify(value) as string | undefined) ?? 'null'), // undefined for a function
});

/** A value a handler put in its result, as text: String() of whatever it is. */
const asText = (value: unknown) => String(value);

/**
 * What API Gateway makes of a handler's result (response format 2.0): a result with `statusCode` is
 * used as given (headers, cookies, body, base64); any other value is sent as a 200 JSON body.
 * A result API Gateway cannot use becomes its 500 `{"message":"Internal Server Error"}`.
 */
export function toHttpResponse(result: unknown): HttpResponse {
  if (result === null || typeof result !== 'object' || !('statusCode' in result)) {
    return jsonResponse(200, result ?? null);
  }
  const structured = result as {
    statusCode: unknown;
    headers?: Record<string, unknown>;
    cookies?: unknown;
    body?: unknown;
    isBase64Encoded?: unknown;
  };
  const statusCode = Number(structured.statusCode);
  if (!Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    return internalServerError();
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(structured.headers ?? {})) {
    if (value === undefined || value === null) continue;
    headers[name.toLowerCase()] = asText(value);
  }
  const cookies = Array.isArray(structured.cookies) ? structured.cookies.map(String) : [];
  const bodyText = structured.body === undefined || structured.body === null ? '' : asText(structured.body);
  const body = structured.isBase64Encoded === true ? Buffer.from(bodyText, 'base64') : Buffer.from(bodyText, 'utf8');
  return { statusCode, headers, cookies, body };
}

/** API Gateway's answer when the integration fails (the Lambda threw or returned garbage). */
export const internalServerError = (): HttpResponse => jsonResponse(500, { message: gatewayMessages.internalServerError });
