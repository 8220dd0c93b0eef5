/**
 * The thin HTTP layer every API handler shares: route by `event.routeKey`, read the caller from the
 * verified JWT claims, parse bodies with the schema, map domain errors to statuses, and turn crashes
 * into a 500 that carries the request id (logged as structured JSON, no stack trace to the client).
 */
import middy from '@middy/core';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import type { ApiError } from '../../schema/api/common';
import { describeIssue } from '../../schema/api/issues';
import { apiMessages } from '../../schema/api/serverMessages';
import {
  ADMIN_GROUP,
  routes,
  routeKey as keyOf,
  type AccessOf,
  type GroupRouteKey,
  type HandlerGroup,
  type PathParams,
  type RouteKey,
} from '../../schema/routes';
import { DomainError, type DomainErrorKind } from '../core/errors';
import type { Identity } from '../core/profile';

export type ApiEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type ApiResult = APIGatewayProxyStructuredResultV2;

/** What the handler of the route `K` gets. */
export interface ApiRequest<K extends RouteKey> {
  event: ApiEvent;
  /** The caller on user and admin routes, taken from the verified token only, never from the request; none on public routes. */
  identity: AccessOf<K> extends 'public' ? undefined : Identity;
  params: PathParams<K>;
  query: Record<string, string>;
  /** The parsed JSON body, or undefined when there is none. */
  body: unknown;
  /** The body's text exactly as sent (base64-decoded when API Gateway encoded it): what a webhook signature covers. */
  rawBody: string | undefined;
}

export type RouteHandler<K extends RouteKey> = (request: ApiRequest<K>) => Promise<ApiResult>;

/** A handler group's route map: one handler for each of its routes in schema/routes.ts, and no other key. */
export type RouteMap<G extends HandlerGroup> = { [K in GroupRouteKey<G>]: RouteHandler<K> };

/** A handler as httpApi calls it, before the route's access has been checked. */
type UncheckedRouteHandler = (request: {
  event: ApiEvent;
  identity: Identity | undefined;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  rawBody: string | undefined;
}) => Promise<ApiResult>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Optional machine-readable reason, returned as the error body's `code`. */
    readonly code?: string,
    /** Headers the answer carries (a 429's Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const statusOf: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  unavailable: 503,
};

export const logger = new Logger({ serviceName: 'trackpitch' });

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): ApiResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

/** The answer of a delete (or any write with nothing to return). */
export const noContent = (): ApiResult => ({ statusCode: 204, headers: { 'cache-control': 'no-store' } });

/**
 * An id of the path or of a body, when it has the shape ids of its kind have. One of another shape
 * cannot exist, so it is a 404 (with `notFound`, the answer a missing item gets) without any read.
 */
export function knownId(id: string | undefined, isValid: (id: string) => boolean, notFound: string): string {
  if (id === undefined || !isValid(id)) throw new HttpError(404, notFound);
  return id;
}

/**
 * API Gateway hands array claims to the Lambda as a string such as "[admins editors]"; the local
 * server does the same. Accept both forms.
 */
export function groupsFromClaim(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.map(String);
  if (typeof claim !== 'string' || claim.trim() === '') return [];
  return claim
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter(Boolean);
}

/** The authorizer API Gateway passes: absent on public routes, whatever the event's type says. */
type PassedAuthorizer = { jwt?: { claims?: Record<string, unknown> } } | undefined;

export function identityFromEvent(event: ApiEvent): Identity | undefined {
  const claims = (event.requestContext.authorizer as PassedAuthorizer)?.jwt?.claims;
  const sub = claims?.sub;
  if (typeof sub !== 'string' || sub === '') return undefined;
  return {
    userId: sub,
    email: typeof claims?.email === 'string' ? claims.email : '',
    name: typeof claims?.name === 'string' ? claims.name : undefined,
    groups: groupsFromClaim(claims?.['cognito:groups']),
  };
}

/** The body's text as the client sent it, base64-decoded when API Gateway encoded it; undefined when empty. */
function bodyText(event: ApiEvent): string | undefined {
  const body = event.body as string | null | undefined; // null from some clients, whatever the type says
  if (body === undefined || body === null || body === '') return undefined;
  return event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
}

function parseJsonBody(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
}

/** Parse with a zod schema; a failure becomes a 400 naming each field in plain words. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  return parseForm(schema, value);
}

/** A required field of a form, and the text a missing or blank value is answered with. */
export interface FormRule {
  path: readonly string[];
  message: string;
}

export interface FormTexts {
  /** Required fields, checked first, in order: the first missing or blank one answers. */
  required?: readonly FormRule[];
  /** The spec's own texts (§5, §8): a problem the schema words with one of them is answered with it alone. */
  specTexts?: ReadonlySet<string>;
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Parses a request body with one schema pass. A missing or blank required field, or a problem worded
 * with one of `specTexts`, is answered with that text alone; any other problem names its field.
 */
export function parseForm<S extends z.ZodType>(schema: S, body: unknown, { required = [], specTexts }: FormTexts = {}): z.output<S> {
  if (body === undefined) throw new HttpError(400, 'The request needs a JSON body.');
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const field of required) {
      const value = field.path.reduce<unknown>((at, name) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[name] : undefined), body);
      if (blank(value)) throw new HttpError(400, field.message);
    }
  }
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  const worded = specTexts && result.error.issues.find((issue) => specTexts.has(issue.message));
  throw new HttpError(400, worded ? worded.message : result.error.issues.map((issue) => describeIssue(issue)).join('; '));
}

const accessByRouteKey = new Map(routes.map((route) => [keyOf(route), route.access]));

/** The error `code` of a route of schema/routes.ts that its handler group's map has no entry for (a server bug). */
export const ROUTE_NOT_HANDLED = 'route_not_handled';

/**
 * Builds the Lambda handler of one handler group from its route map. The compiler holds the map to
 * the group's routes (RouteMap); the same checks hold at run time for callers it cannot see: a key
 * naming no route of the group could never be called (a typo, a renamed route) and is refused here,
 * and a route of the group missing from the map answers 500 `route_not_handled`.
 */
export function httpApi<G extends HandlerGroup>(group: G, routeMap: RouteMap<G>) {
  const unrouted = Object.keys(routeMap).filter((routeKey) => !routes.some((route) => route.handler === group && keyOf(route) === routeKey));
  if (unrouted.length > 0) throw new Error(`httpApi: no route in schema/routes.ts for ${unrouted.join(', ')} (handler group ${group})`);
  // Sound: a handler is called only once its route's access holds (an identity on every non-public route).
  const handlers = routeMap as unknown as Record<string, UncheckedRouteHandler>;
  const base = async (event: ApiEvent, context: Context): Promise<ApiResult> => {
    const handle = Object.hasOwn(handlers, event.routeKey) ? handlers[event.routeKey] : undefined;
    const access = accessByRouteKey.get(event.routeKey);
    if (!access) return json(404, { message: apiMessages.noRoute } satisfies ApiError);
    if (!handle) {
      // The route is deployed to this group but its map lacks it: our bug, not the caller's missing page.
      const requestId = context.awsRequestId || event.requestContext.requestId;
      logger.error('No handler for the route', { routeKey: event.routeKey, requestId, code: ROUTE_NOT_HANDLED });
      return json(500, { message: apiMessages.internalError, code: ROUTE_NOT_HANDLED, requestId } satisfies ApiError);
    }
    try {
      const identity = identityFromEvent(event);
      // API Gateway has already checked the token; this guards against a route deployed without it.
      if (access !== 'public' && !identity) throw new HttpError(401, 'Please sign in again.');
      if (access === 'admin' && !identity?.groups.includes(ADMIN_GROUP)) {
        throw new HttpError(403, 'You are not authorised to do this.');
      }
      const rawBody = bodyText(event);
      return await handle({
        event,
        identity: access === 'public' ? undefined : identity,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        query: (event.queryStringParameters ?? {}) as Record<string, string>,
        body: parseJsonBody(rawBody),
        rawBody,
      });
    } catch (error) {
      if (error instanceof HttpError || error instanceof DomainError) {
        const status = error instanceof HttpError ? error.statusCode : statusOf[error.kind];
        const body: ApiError = { message: error.message };
        if (error.code !== undefined) body.code = error.code;
        return json(status, body, error instanceof HttpError ? error.headers : {});
      }
      const requestId = context.awsRequestId || event.requestContext.requestId;
      logger.error('Unhandled error', { error: error as Error, routeKey: event.routeKey, requestId });
      return json(500, { message: apiMessages.internalError, requestId } satisfies ApiError);
    }
  };
  return middy(base).use(injectLambdaContext(logger, { resetKeys: true }));
}

/**
 * Defers building a handler (and so its adapters and config reads) to its first call, so tests can
 * import `makeHandler` from a handler module without a cloud environment.
 */
export function lazyHandler(build: () => (event: ApiEvent, context: Context) => Promise<ApiResult>) {
  let built: ((event: ApiEvent, context: Context) => Promise<ApiResult>) | undefined;
  return (event: ApiEvent, context: Context) => (built ??= build())(event, context);
}
