/**
 * The local server (127.0.0.1 only): the web build, `/config.json`, `/api/*` as API Gateway serves
 * it in AWS (route list from schema/routes.ts, local-only routes included, JWT authorizer, route
 * throttling, payload format 2.0 events to the same handler modules the Lambdas run), and two
 * local-only pages: `POST /local/confirm-signup`, that confirms a just-created account (DESIGN §1
 * "Local decisions"), and `POST /local/reset-code`, that gives the password reset code (no email is
 * sent locally): JSON only (a cross-site page cannot send that without a preflight, which is not
 * answered) and refused to any Origin but the app's own; `/local/mailbox/consent`, the local
 * mailbox's stand-in for Google's consent screen (lib/local/mailboxConsent.ts); and `/local/billing/…`,
 * the billing twin's stand-ins for Stripe Checkout and the Customer Portal (lib/local/billingPages.ts);
 * and `/local/audio/…`, the local AudioStore's stand-ins for S3's presigned POST and GET (lib/local/audioFiles.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import type { ServerConfig } from '../../lambdas/composition/config';
import { LOCAL_CONFIRM_SIGNUP_PATH, LOCAL_RESET_CODE_PATH } from '../../schema/localPaths';
import { findRoute, handlerGroups, lambdaLimits, type HandlerGroup } from '../../schema/routes';
import { runtimeConfigSchema, type RuntimeConfig } from '../../schema/api/runtimeConfig';
import { gatewayMessages, localServerMessages } from '../../schema/api/serverMessages';
import { buildApiEvent, internalServerError, isTextContentType, makeLambdaContext, toHttpResponse, type ApiGatewayEvent, type HttpResponse } from './event';
import { LocalStackError } from './errors';
import type { BillingTwin } from '../../lambdas/adapters/local-billing/twin';
import { BILLING_PAGES_PREFIX, handleBillingPages } from './billingPages';
import { handleMailboxConsent, MAILBOX_CONSENT_PATH } from './mailboxConsent';
import { handleAudioFile, handleAudioUpload, LOCAL_AUDIO_FILE_PATH, LOCAL_AUDIO_UPLOAD_PATH } from './audioFiles';
import type { LocalAudioStore } from '../../lambdas/adapters/local-audio/localAudioStore';
import type { Authorizer } from './jwt';
import { LOOPBACK } from './net';
import { fromRoot } from './paths';
import { localSecurityHeaders } from '../securityHeaders';
import { makeStaticHandler } from './static';
import { makeRouteThrottle } from './throttle';

export type LambdaHandler = (event: ApiGatewayEvent, context: Context) => Promise<unknown>;

/** Lambda's synchronous invocation payload limit (6 MB); API Gateway answers 413 above it. */
export const BODY_LIMIT_BYTES = 6 * 1024 * 1024;
/** API Gateway HTTP API's integration timeout. */
export const INTEGRATION_TIMEOUT_MS = 30_000;

export interface LocalServerOptions {
  /** 0 = any free port; ignored when `reserved` is given. */
  port: number;
  /** A port already bound by reserveLocalServer (its origin had to be known before the engines started). */
  reserved?: ReservedServer;
  webDist: string;
  runtimeConfig: RuntimeConfig;
  authorize: Authorizer;
  /** Confirms an UNCONFIRMED account by email (cognito-local AdminConfirmSignUp). */
  confirmSignUp: (email: string) => Promise<'confirmed' | 'already-confirmed' | 'not-found'>;
  /** The password reset code cognito-local keeps for an email (pendingResetCode); absent, `/local/reset-code` answers 404. */
  resetCode?: (email: string) => Promise<string | null>;
  region: string;
  /** Loads a handler group's handler, e.g. importHandler(group, config) for the stack's configuration. */
  loadHandler: (group: HandlerGroup) => Promise<LambdaHandler>;
  /** The local billing twin behind the `/local/billing/` pages; absent, those pages answer 404. */
  billingTwin?: BillingTwin;
  /** The local AudioStore behind `/local/audio/…` (the browser's track uploads, signed GETs); absent, those answer 404. */
  audioFiles?: LocalAudioStore;
  bodyLimitBytes?: number;
  integrationTimeoutMs?: number;
  /** One line per API request; omitted = silent. */
  accessLog?: (line: string) => void;
  now?: () => number;
}

export interface LocalServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** Builds a handler group's handler over its own adapters for a configuration (the module's `handlerFor`). */
export type HandlerFactory = (config: ServerConfig) => LambdaHandler;

/** Imports `lambdas/http/<group>.ts` (the module the Lambda bundles) and returns its `handlerFor`. */
export async function importHandlerFactory(group: HandlerGroup): Promise<HandlerFactory> {
  const module = (await import(pathToFileURL(fromRoot(handlerGroups[group].entry)).href)) as { handlerFor?: unknown };
  if (typeof module.handlerFor !== 'function') throw new Error(`${handlerGroups[group].entry} does not export handlerFor`);
  return module.handlerFor as HandlerFactory;
}

/** The group's handler for `config`, as its Lambda builds it from the environment (without reading it). */
export async function importHandler(group: HandlerGroup, config: ServerConfig): Promise<LambdaHandler> {
  return (await importHandlerFactory(group))(config);
}

const ALLOWED_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The origins of the web app served on `port`: the only pages allowed to call the local-only endpoints and cognito-local. */
export const appOrigins = (port: number) => [`http://${LOOPBACK}:${port}`, `http://localhost:${port}`];

/** The media type of a Content-Type header, lower case, without parameters. */
const mediaType = (header: string | undefined) => ((header ?? '').split(';')[0] ?? '').trim().toLowerCase();

export interface ReservedServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });

async function listenLoopback(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new LocalStackError(`Port ${port} (the app) is already in use. Stop what uses it, or choose another port: PORT=3100 npm start.`));
      } else reject(error);
    };
    server.once('error', onError);
    server.listen({ port, host: LOOPBACK, exclusive: true }, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the local server has no port');
  return address.port;
}

/**
 * Binds the app's port on 127.0.0.1 before the engines start, so the app's origin is known to
 * cognito-local (which refuses every other browser origin). Answers 503 until startLocalServer
 * takes the server over.
 */
export async function reserveLocalServer(port: number): Promise<ReservedServer> {
  const server = createServer((req, res) => {
    req.resume();
    writeJson(res, 503, { message: localServerMessages.starting }, { 'retry-after': '1' });
  });
  const bound = await listenLoopback(server, port);
  return { server, port: bound, url: `http://${LOOPBACK}:${bound}`, close: () => closeServer(server) };
}

/** API Gateway's request id form, e.g. `JKJaXmPLvHcESHA=`. */
const newRequestId = () => randomBytes(10).toString('base64');

function writeJson(res: ServerResponse, statusCode: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(statusCode, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/**
 * Reads the body unless it exceeds `limit` bytes (counted as the event will carry it). A body over
 * the limit is still received to its end (and dropped), so the client gets the 413 instead of a
 * connection reset in the middle of its upload.
 */
function readBody(req: IncomingMessage, limit: number, base64: boolean): Promise<Buffer | 'too-large'> {
  const encodedSize = (bytes: number) => (base64 ? Math.ceil(bytes / 3) * 4 : bytes);
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && encodedSize(declared) > limit;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (encodedSize(size) > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function writeResponse(res: ServerResponse, response: HttpResponse, requestId: string, method: string) {
  const headers: Record<string, string | string[]> = { ...response.headers, 'apigw-requestid': requestId };
  if (response.cookies.length > 0) headers['set-cookie'] = response.cookies;
  delete headers['transfer-encoding'];
  headers['content-length'] = String(response.body.length);
  res.writeHead(response.statusCode, headers);
  res.end(method === 'HEAD' ? undefined : response.body);
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const runtimeConfig = runtimeConfigSchema.parse(options.runtimeConfig);
  // The headers CloudFront adds in AWS, its CSP naming this stack's cognito-local: the app runs under the same policy here.
  const securityHeaders = localSecurityHeaders(runtimeConfig.userPoolEndpoint);
  const serveStatic = makeStaticHandler(options.webDist, securityHeaders);
  const throttle = makeRouteThrottle(options.now);
  const bodyLimit = options.bodyLimitBytes ?? BODY_LIMIT_BYTES;
  const timeoutMs = options.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS;
  const load = options.loadHandler;
  const handlers = new Map<HandlerGroup, Promise<LambdaHandler>>();
  const handlerFor = (group: HandlerGroup) => {
    let handler = handlers.get(group);
    if (!handler) {
      handler = load(group);
      handler.catch(() => handlers.delete(group));
      handlers.set(group, handler);
    }
    return handler;
  };
  let port = options.reserved?.port ?? options.port;
  const ownOrigins = () => new Set(appOrigins(port));

  async function handleApi(req: IncomingMessage, res: ServerResponse, rawUrl: string) {
    const started = Date.now();
    const method = req.method ?? 'GET';
    const requestId = newRequestId();
    const rawPath = rawUrl.split('?')[0] ?? rawUrl;
    const finish = (response: HttpResponse) => {
      writeResponse(res, response, requestId, method);
      options.accessLog?.(`${method} ${rawPath} ${response.statusCode} ${Date.now() - started} ms`);
    };
    const api = (statusCode: number, message: string, headers: Record<string, string> = {}): HttpResponse => ({
      statusCode,
      headers: { 'content-type': 'application/json', ...headers },
      cookies: [],
      body: Buffer.from(JSON.stringify({ message })),
    });

    const match = findRoute(method, rawPath);
    if (!match) {
      req.resume();
      finish(api(404, gatewayMessages.notFound));
      return;
    }
    const { route, params } = match;
    if (!throttle(route)) {
      req.resume();
      finish(api(429, gatewayMessages.tooManyRequests));
      return;
    }
    const body = await readBody(req, bodyLimit, !isTextContentType(req.headers['content-type']));
    if (body === 'too-large') {
      finish(api(413, gatewayMessages.payloadTooLarge));
      return;
    }
    let claims: Record<string, unknown> | undefined;
    if (route.access !== 'public') {
      const result = await options.authorize(req.headers.authorization);
      if (!result.ok) {
        const challenge =
          result.reason === 'missing' ? 'Bearer' : `Bearer error="invalid_token" error_description="${result.description.replace(/["\\]/g, '')}"`;
        finish(api(401, gatewayMessages.unauthorized, { 'www-authenticate': challenge }));
        return;
      }
      claims = result.claims;
    }
    const event = buildApiEvent({
      method,
      url: rawUrl,
      headers: req.headers,
      body,
      sourceIp: (req.socket.remoteAddress ?? LOOPBACK).replace(/^::ffff:/, ''),
      route,
      pathParameters: params,
      claims,
      requestId,
      now: new Date(options.now?.() ?? Date.now()),
      port,
    });
    // The same limits the Lambda gets in AWS (schema/routes.ts); API Gateway gives up at its own timeout.
    const limits = lambdaLimits(route.handler);
    const lambdaTimeoutMs = limits.timeoutSeconds * 1000;
    const context = makeLambdaContext({
      functionName: `trackpitch-${route.handler}`,
      awsRequestId: randomUUID(),
      region: options.region,
      timeoutMs: lambdaTimeoutMs,
      memoryLimitInMB: limits.memoryMb,
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      const handler = await handlerFor(route.handler);
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), Math.min(lambdaTimeoutMs, timeoutMs));
      });
      const result = await Promise.race([handler(event, context), timeout]);
      // A Lambda that runs out of time is an invocation error (500); an integration timeout is a 503.
      if (result === 'timeout') {
        finish(lambdaTimeoutMs < timeoutMs ? internalServerError() : api(503, gatewayMessages.serviceUnavailable));
        return;
      }
      finish(toHttpResponse(result));
    } catch (error) {
      // What API Gateway answers when the Lambda itself fails; the error goes to the console, as to CloudWatch.
      console.error(
        JSON.stringify({
          level: 'ERROR',
          message: 'Lambda invocation failed',
          routeKey: event.routeKey,
          requestId,
          error: (error as Error | undefined)?.stack ?? String(error),
        }),
      );
      finish(internalServerError());
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The email of a local-only account request (`POST {"email": "..."}`), or undefined once refused:
   * only the app itself (or a tool on this machine, which sends no Origin) may ask, in JSON only (a
   * cross-site page cannot send that without a CORS preflight, which is not answered).
   */
  async function readAccountEmail(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<string | undefined> {
    if (req.method !== 'POST') {
      req.resume();
      writeJson(res, 405, { message: 'Use POST with {"email": "..."}.' }, { ...headers, allow: 'POST' });
      return undefined;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !ownOrigins().has(origin)) {
      req.resume();
      writeJson(res, 403, { message: 'Only the Trackpitch app may ask for this.' }, headers);
      return undefined;
    }
    if (mediaType(req.headers['content-type']) !== 'application/json') {
      req.resume();
      writeJson(res, 415, { message: 'Send {"email": "you@example.com"} with Content-Type: application/json.' }, headers);
      return undefined;
    }
    const body = await readBody(req, 10 * 1024, false);
    if (body === 'too-large') {
      writeJson(res, 413, { message: 'The request is too large.' }, headers);
      return undefined;
    }
    let email: unknown;
    try {
      email = (JSON.parse(body.toString('utf8')) as { email?: unknown } | null)?.email;
    } catch {
      writeJson(res, 400, { message: 'The request body is not valid JSON: send {"email": "you@example.com"}.' }, headers);
      return undefined;
    }
    if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      writeJson(res, 400, { message: 'Please send the email address of the account: {"email": "you@example.com"}.' }, headers);
      return undefined;
    }
    return email.trim();
  }

  async function handleConfirmSignUp(req: IncomingMessage, res: ServerResponse) {
    const headers = { 'cache-control': 'no-store' };
    const email = await readAccountEmail(req, res, headers);
    if (email === undefined) return;
    try {
      const outcome = await options.confirmSignUp(email);
      if (outcome === 'not-found') {
        writeJson(res, 404, { message: localServerMessages.noAccount }, headers);
        return;
      }
      res.writeHead(204, headers).end();
    } catch (error) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'Local sign-up confirmation failed', error: String(error) }));
      writeJson(res, 500, { message: 'The local sign-up confirmation failed. Please try again.' }, headers);
    }
  }

  /** The password reset code cognito-local keeps for an email, `{"code": null}` when it has none (no email is sent locally). */
  async function handleResetCode(req: IncomingMessage, res: ServerResponse) {
    const headers = { 'cache-control': 'no-store' };
    const email = await readAccountEmail(req, res, headers);
    if (email === undefined) return;
    if (!options.resetCode) {
      writeJson(res, 404, { message: 'The local Cognito is not running on this server.' }, headers);
      return;
    }
    try {
      writeJson(res, 200, { code: await options.resetCode(email) }, headers);
    } catch (error) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'Reading the local reset code failed', error: String(error) }));
      writeJson(res, 500, { message: 'The local reset code could not be read. Please try again.' }, headers);
    }
  }

  const handleRequest = (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    if (!ALLOWED_HOSTS.has(host)) {
      // DNS-rebinding guard: only pages served from this machine's own names may call the local server.
      req.resume();
      writeJson(res, 403, { message: `Host "${host}" is not allowed; open http://127.0.0.1:${port}/` });
      return;
    }
    const rawUrl = req.url ?? '/';
    let pathname: string;
    try {
      pathname = new URL(rawUrl, 'http://127.0.0.1').pathname;
    } catch {
      req.resume();
      writeJson(res, 400, { message: 'Bad request' });
      return;
    }
    const work = (async () => {
      if (pathname === '/api' || pathname.startsWith('/api/')) return handleApi(req, res, rawUrl.startsWith('/') ? rawUrl : pathname);
      if (pathname === '/config.json') {
        req.resume();
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          writeJson(res, 405, { message: 'Method not allowed' }, { allow: 'GET, HEAD' });
          return;
        }
        writeJson(res, 200, runtimeConfig, { ...securityHeaders, 'cache-control': 'no-store' });
        return;
      }
      if (pathname === LOCAL_CONFIRM_SIGNUP_PATH) return handleConfirmSignUp(req, res);
      if (pathname === LOCAL_RESET_CODE_PATH) return handleResetCode(req, res);
      if (pathname === MAILBOX_CONSENT_PATH) return handleMailboxConsent(req, res, { appOrigins: [...ownOrigins()] });
      if (pathname === LOCAL_AUDIO_UPLOAD_PATH || pathname === LOCAL_AUDIO_FILE_PATH) {
        const clock = () => new Date(options.now?.() ?? Date.now());
        if (options.audioFiles) {
          return pathname === LOCAL_AUDIO_UPLOAD_PATH
            ? handleAudioUpload(req, res, options.audioFiles, clock)
            : handleAudioFile(req, res, options.audioFiles, clock);
        }
        req.resume();
        writeJson(res, 404, { message: 'The local audio store is not running on this server.' });
        return;
      }
      if (pathname.startsWith(BILLING_PAGES_PREFIX)) {
        if (options.billingTwin) return handleBillingPages(req, res, { twin: options.billingTwin, appOrigins: [...ownOrigins()] });
        req.resume();
        writeJson(res, 404, { message: 'The local billing pages are not running on this server.' });
        return;
      }
      req.resume();
      serveStatic(req, res, pathname);
    })();
    work.catch((error: unknown) => {
      console.error(JSON.stringify({ level: 'ERROR', message: 'Local server error', error: (error as Error | undefined)?.stack ?? String(error) }));
      if (!res.headersSent) writeJson(res, 500, { message: gatewayMessages.internalServerError });
      else res.destroy();
    });
  };

  let server: Server;
  if (options.reserved) {
    server = options.reserved.server;
    server.removeAllListeners('request');
    server.on('request', handleRequest);
  } else {
    server = createServer(handleRequest);
    port = await listenLoopback(server, options.port);
  }
  // An idle connection is kept longer than a client waits between two requests of one test or page: a
  // client that reuses a connection the server is closing that very moment gets ECONNRESET (Node's HTTP
  // clients, Playwright's request context among them, do not retry), as a browser test saw at 5 s.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return {
    url: `http://${LOOPBACK}:${port}`,
    port,
    server,
    close: () => closeServer(server),
  };
}
