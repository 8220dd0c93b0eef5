/**
 * The local server around the handlers: routing (404), Lambda results and failures (500 with a
 * request id, never a stack), the event a handler receives, body limit (413), throttling (429),
 * the local sign-up confirmation, `/config.json`, the static web build and its SPA fallback.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminGetUserCommand, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHandler as makeProfileHandler } from '../../lambdas/http/profile';
import type { ProfileStore } from '../../lambdas/ports';
import { runtimeConfigSchema } from '../../schema/api/runtimeConfig';
import { lambdaLimits, routes, type RouteDefinition } from '../../schema/routes';
import type { ApiGatewayEvent } from '../../lib/local/event';
import type { LambdaHandler, LocalServer } from '../../lib/local/server';
import { FIXTURE_FILES } from './globalSetup';
import { adminTokens, call, cognito, createUser, rawRequest, signUp, stack, startServer } from './helpers';
import { anyString } from '../support/matchers';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A second local server serving only `handler`. */
async function serverWith(handler: LambdaHandler, extra: { now?: () => number; webDist?: string; integrationTimeoutMs?: number } = {}) {
  const server = await startServer({
    loadHandler: () => Promise.resolve(handler),
    ...(extra.webDist ? { webDist: extra.webDist } : {}),
    ...(extra.now ? { now: extra.now } : {}),
    ...(extra.integrationTimeoutMs ? { integrationTimeoutMs: extra.integrationTimeoutMs } : {}),
  });
  servers.push(server);
  return server;
}

const noStack = (text: string) => {
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toMatch(/\.ts:\d+/);
  expect(text).not.toContain('store is down');
};

describe('keep-alive', () => {
  /** GET `url` through `agent`: the status, and whether the request went over a connection used before. */
  const get = (agent: Agent, url: string) =>
    new Promise<{ status: number; reusedSocket: boolean }>((resolve, reject) => {
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket }));
      });
      req.on('error', reject).end();
    });

  it('keeps an idle connection past 5 s, so a client that reuses it 6 s later is answered on it (no ECONNRESET race)', async () => {
    const server = await serverWith(() => Promise.resolve({ statusCode: 200, body: '{}' }));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await get(agent, `${server.url}/api/health`)).toEqual({ status: 200, reusedSocket: false });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await get(agent, `${server.url}/api/health`)).toEqual({ status: 200, reusedSocket: true });
    } finally {
      agent.destroy();
    }
  });
});

describe('Lambda limits', () => {
  it("gives the handler its group's memory and timeout from schema/routes.ts, as the deployed Lambda", async () => {
    let seen: { memory: string; remainingMs: number } | undefined;
    const server = await serverWith((_event, context) => {
      seen = { memory: context.memoryLimitInMB, remainingMs: context.getRemainingTimeInMillis() };
      return Promise.resolve({ statusCode: 200, body: '{}' });
    });
    await fetch(`${server.url}/api/health`);
    const limits = lambdaLimits('health');
    expect(seen?.memory).toBe(String(limits.memoryMb));
    expect(seen!.remainingMs).toBeLessThanOrEqual(limits.timeoutSeconds * 1000);
    expect(seen!.remainingMs).toBeGreaterThan(limits.timeoutSeconds * 1000 - 2000);
  });

  it('answers 503 when the integration times out, as API Gateway', async () => {
    const server = await serverWith(() => new Promise(() => undefined), { integrationTimeoutMs: 300 });
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(503);
  });
});

describe('routing', () => {
  it('answers 404 {message} to an unknown /api path, as API Gateway', async () => {
    const response = await call('/api/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ message: 'Not Found' });
  });

  it('answers 404 to a known path with another method', async () => {
    const response = await call('/api/profile', { method: 'DELETE' });
    expect(response.status).toBe(404);
  });

  it('answers 404, not 500, to a path parameter with a malformed %-escape (raw paths)', async () => {
    for (const path of ['/api/%', '/api/profile%E0%A4%A']) {
      expect((await rawRequest(stack().appUrl, path)).status, path).toBe(404);
    }
    // The shipped route list has no path parameter yet: this file's server gets one for the test.
    const table = routes as RouteDefinition[];
    const route: RouteDefinition = { method: 'GET', path: '/api/test-items/{id}', handler: 'health', access: 'public' };
    table.push(route);
    try {
      const events: ApiGatewayEvent[] = [];
      const server = await serverWith((event) => {
        events.push(event);
        return Promise.resolve({ ok: true });
      });
      for (const path of ['/api/test-items/%', '/api/test-items/%E0%A4%A', '/api/test-items/%zz', '/api/test-items/abc%2', '/api/test-items/%C3']) {
        const response = await rawRequest(server.url, path);
        expect(response.status, path).toBe(404);
        expect(JSON.parse(response.text)).toEqual({ message: 'Not Found' });
      }
      expect(events).toHaveLength(0);
      const control = await rawRequest(server.url, '/api/test-items/caf%C3%A9%2F1');
      expect(control.status).toBe(200);
      expect(events[0]!.pathParameters).toEqual({ id: 'café/1' });
    } finally {
      table.splice(table.indexOf(route), 1);
    }
  });
});

describe('a handler crash', () => {
  const brokenStore: ProfileStore = {
    get: () => Promise.reject(new Error('store is down')),
    createIfMissing: () => Promise.reject(new Error('store is down')),
    update: () => Promise.reject(new Error('store is down')),
  };
  const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

  it('gives 500 with the request id and no stack trace (handler called with the local event)', async () => {
    const { buildApiEvent, makeLambdaContext } = await import('../../lib/local/event');
    const user = await createUser();
    const claims = JSON.parse(Buffer.from(user.idToken.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const event = buildApiEvent({
      method: 'GET',
      url: '/api/profile',
      headers: { host: '127.0.0.1:3000', authorization: `Bearer ${user.idToken}` },
      sourceIp: '127.0.0.1',
      route: { method: 'GET', path: '/api/profile' },
      pathParameters: {},
      claims,
      requestId: 'Req1234567890A=',
      now: new Date(),
    });
    const context = makeLambdaContext({ functionName: 'trackpitch-profile', awsRequestId: 'aws-req-1', region: 'us-east-1', timeoutMs: 10_000 });
    const result = (await makeProfileHandler({ profiles: brokenStore, clock })(event, context)) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(500);
    const body = JSON.parse(result.body) as { message: string; requestId: string };
    expect(body.requestId).toBe('aws-req-1');
    expect(body.message).toMatch(/went wrong/);
    noStack(result.body);
  });

  it('gives 500 with the request id through the local server', async () => {
    const server = await serverWith(makeProfileHandler({ profiles: brokenStore, clock }));
    const user = await createUser();
    const response = await fetch(`${server.url}/api/profile`, { headers: { authorization: `Bearer ${user.idToken}` } });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toMatchObject({ requestId: anyString(), message: anyString() });
    expect(response.headers.get('apigw-requestid')).toBeTruthy();
    noStack(text);
  });

  it("gives API Gateway's 500 when the Lambda itself throws", async () => {
    const server = await serverWith(() => Promise.reject(new Error('store is down')));
    const response = await fetch(`${server.url}/api/health`);
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ message: 'Internal Server Error' });
    noStack(text);
  });
});

describe('the event a handler receives', () => {
  it('is an API Gateway payload 2.0 event with the verified claims, and the structured result is written back', async () => {
    const events: ApiGatewayEvent[] = [];
    const server = await serverWith((event) => {
      events.push(event);
      return Promise.resolve({
        statusCode: 201,
        headers: { 'X-Custom': 'yes', 'content-type': 'text/plain' },
        cookies: ['a=1; Path=/; HttpOnly', 'b=2; Path=/'],
        body: Buffer.from('hello').toString('base64'),
        isBase64Encoded: true,
      });
    });
    const admin = await adminTokens();
    const response = await fetch(`${server.url}/api/admin/waitlist?status=pending&tag=a&tag=b`, {
      headers: { authorization: `Bearer ${admin.idToken}`, cookie: 'theme=dark; session=xyz', 'X-Mixed-Case': 'Value' },
    });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('hello');
    expect(response.headers.get('x-custom')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/']);

    const event = events[0]!;
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /api/admin/waitlist',
      rawPath: '/api/admin/waitlist',
      rawQueryString: 'status=pending&tag=a&tag=b',
      cookies: ['theme=dark', 'session=xyz'],
      queryStringParameters: { status: 'pending', tag: 'a,b' },
      isBase64Encoded: false,
    });
    expect(event.headers['x-mixed-case']).toBe('Value');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.requestContext).toMatchObject({
      routeKey: 'GET /api/admin/waitlist',
      stage: '$default',
      http: { method: 'GET', path: '/api/admin/waitlist', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' },
    });
    expect(event.requestContext.requestId).toBe(response.headers.get('apigw-requestid'));
    const claims = event.requestContext.authorizer.jwt.claims;
    expect(claims['cognito:groups']).toBe('[admins]');
    expect(claims.email).toBe(stack().admin.email);
    expect(typeof claims.exp).toBe('string');
    expect(event.requestContext.authorizer.jwt.scopes).toBeNull();
  });

  it('has no authorizer on a public route', async () => {
    const events: ApiGatewayEvent[] = [];
    const server = await serverWith((event) => {
      events.push(event);
      return Promise.resolve({ ok: true });
    });
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(events[0]!.requestContext.authorizer).toBeUndefined();
  });
});

describe('limits', () => {
  it('answers 413 to a body over the 6 MB Lambda payload limit', async () => {
    const response = await call('/api/profile', { method: 'PATCH', body: JSON.stringify({ bio: 'x'.repeat(6 * 1024 * 1024) }) });
    expect(response.status).toBe(413);
    expect(response.json).toEqual({ message: 'Request Entity Too Large' });
  });

  it("throttles a route to its burst, then refills at its rate (429 'Too Many Requests')", async () => {
    let now = 1_000_000;
    const server = await serverWith(() => Promise.resolve({ statusCode: 200, body: 'ok' }), { now: () => now });
    const hit = async () => (await fetch(`${server.url}/api/health`)).status;
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push(await hit());
    expect(statuses.slice(0, 40).every((status) => status === 200)).toBe(true); // burst 40
    expect(statuses.slice(40).every((status) => status === 429)).toBe(true);

    const refused = await fetch(`${server.url}/api/health`);
    expect(await refused.json()).toEqual({ message: 'Too Many Requests' });

    now += 1000; // rate 20 per second
    const after: number[] = [];
    for (let i = 0; i < 21; i++) after.push(await hit());
    expect(after.filter((status) => status === 200)).toHaveLength(20);
    expect(after[20]).toBe(429);
  });
});

describe('POST /local/confirm-signup', () => {
  it('confirms a just-signed-up account (204) so it can sign in, with its email verified', async () => {
    const user = await signUp({ name: 'New Account' });
    const before = await cognito()
      .send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: stack().userPoolClientId,
          AuthParameters: { USERNAME: user.email, PASSWORD: user.password },
        }),
      )
      .catch((error: unknown) => error);
    expect((before as Error).name).toBe('UserNotConfirmedException');

    const response = await call('/local/confirm-signup', { method: 'POST', body: { email: user.email } });
    expect(response.status).toBe(204);

    const { UserStatus, UserAttributes } = await cognito().send(new AdminGetUserCommand({ UserPoolId: stack().userPoolId, Username: user.email }));
    expect(UserStatus).toBe('CONFIRMED');
    expect(UserAttributes?.find((a) => a.Name === 'email_verified')?.Value).toBe('true');

    const again = await call('/local/confirm-signup', { method: 'POST', body: { email: user.email } });
    expect(again.status).toBe(204);
  });

  it('answers 400 to bad input and 404 to an unknown email', async () => {
    const malformed = await call('/local/confirm-signup', { method: 'POST', body: '{"email":' });
    expect(malformed.status).toBe(400);
    expect(malformed.json?.message).toMatch(/not valid JSON/);
    for (const body of [{}, { email: 42 }, { email: 'not-an-email' }]) {
      const response = await call('/local/confirm-signup', { method: 'POST', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json?.message).toMatch(/email address/);
    }
    const unknown = await call('/local/confirm-signup', { method: 'POST', body: { email: 'nobody-here@example.com' } });
    expect(unknown.status).toBe(404);
    const wrongMethod = await call('/local/confirm-signup');
    expect(wrongMethod.status).toBe(405);
  });

  it("refuses another page's origin (403) and anything but JSON (415), so a cross-site form cannot confirm accounts", async () => {
    const user = await signUp();
    for (const origin of ['https://evil.example', 'null', stack().appUrl.replace(/:\d+$/, ':1')]) {
      const response = await call('/local/confirm-signup', { method: 'POST', body: { email: user.email }, headers: { origin } });
      expect(response.status, origin).toBe(403);
    }
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const response = await call('/local/confirm-signup', { method: 'POST', body: JSON.stringify({ email: user.email }), headers: { 'content-type': type } });
      expect(response.status, type).toBe(415);
    }
    const untyped = await rawRequest(stack().appUrl, '/local/confirm-signup', { method: 'POST', body: JSON.stringify({ email: user.email }) });
    expect(untyped.status).toBe(415);
    const { UserStatus } = await cognito().send(new AdminGetUserCommand({ UserPoolId: stack().userPoolId, Username: user.email }));
    expect(UserStatus).toBe('UNCONFIRMED');

    // The app's own pages (either host name), as the browser sends them.
    const own = await call('/local/confirm-signup', {
      method: 'POST',
      body: { email: user.email },
      headers: { origin: stack().appUrl.replace('127.0.0.1', 'localhost'), 'content-type': 'application/json; charset=utf-8' },
    });
    expect(own.status).toBe(204);
    const after = await cognito().send(new AdminGetUserCommand({ UserPoolId: stack().userPoolId, Username: user.email }));
    expect(after.UserStatus).toBe('CONFIRMED');
    expect((await call('/local/confirm-signup', { method: 'POST', body: { email: user.email }, headers: { origin: stack().appUrl } })).status).toBe(204);
  });
});

describe('/config.json', () => {
  it('is the local runtime config with the cognito-local endpoint', async () => {
    const response = await call('/config.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const config = runtimeConfigSchema.parse(response.json);
    expect(config).toMatchObject({
      mode: 'local',
      region: 'us-east-1',
      userPoolId: stack().userPoolId,
      userPoolClientId: stack().userPoolClientId,
      userPoolEndpoint: stack().cognitoEndpoint,
    });
    expect(config.userPoolId).toMatch(/^us-east-1_[A-Za-z0-9]+$/);
  });
});

describe('the web build', () => {
  it('serves index.html for client-side routes (SPA fallback), revalidated', async () => {
    for (const path of ['/', '/auth', '/dashboard/contacts', '/dashboard/campaigns/01HXYZ']) {
      const response = await call(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.text).toBe(FIXTURE_FILES['index.html']);
    }
  });

  it('serves hashed assets cacheable for a year, gzip when asked', async () => {
    const response = await fetch(`${stack().appUrl}/assets/index-Ab12Cd34.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toBe(FIXTURE_FILES['assets/index-Ab12Cd34.js']);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 404, not the app shell, to a missing file', async () => {
    expect((await call('/assets/missing-123.js')).status).toBe(404);
    expect((await call('/robots.txt')).status).toBe(404);
  });

  it('never serves a file outside the build folder, however the path is spelled (raw paths)', async () => {
    const SECRET = `secret-${Date.now()}`;
    const SHELL = '<!doctype html><title>shell</title>';
    const base = mkdtempSync(join(tmpdir(), 'trackpitch-traversal-'));
    const site = join(base, 'site');
    try {
      mkdirSync(join(site, 'assets'), { recursive: true });
      writeFileSync(join(site, 'index.html'), SHELL);
      writeFileSync(join(site, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
      writeFileSync(join(base, 'secret.txt'), SECRET); // next to the build folder
      const server = await serverWith(() => Promise.resolve({}), { webDist: site });

      // Control: the server serves the build, and a `..` that stays inside it.
      expect((await rawRequest(server.url, '/assets/app-1a2b3c.js')).text).toContain('console.log');
      expect((await rawRequest(server.url, '/assets/../assets/app-1a2b3c.js')).text).toContain('console.log');

      const outside = [
        '/../secret.txt',
        '/assets/../../secret.txt',
        '/%2e%2e/secret.txt',
        '/%2E%2E/secret.txt',
        '/.%2e/secret.txt',
        '/..%2fsecret.txt',
        '/%2e%2e%2fsecret.txt',
        '/assets/..%2f..%2fsecret.txt',
        '/assets%2f..%2f..%2fsecret.txt',
        '/..%5csecret.txt',
        '/..\\secret.txt',
        '/%252e%252e/secret.txt',
        '/..%00/secret.txt',
        '/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
        '/../../../../../../../etc/passwd',
        '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/hosts',
      ];
      for (const path of outside) {
        const response = await rawRequest(server.url, path);
        expect(response.text, path).not.toContain(SECRET);
        expect(response.text, path).not.toMatch(/root:[^:]*:0:0:|localhost/);
        // A client-side route gets the app shell; anything that names a file is a 404 (400 if undecodable).
        if (response.status === 200) expect(response.text, path).toBe(SHELL);
        else expect([400, 404], `${path} answered ${response.status}`).toContain(response.status);
        if (path.endsWith('.txt')) expect(response.status, path).toBe(404);
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('says how to build the web app when there is no build', async () => {
    const server = await serverWith(() => Promise.resolve({}), { webDist: '/nonexistent/web/dist' });
    const response = await fetch(`${server.url}/dashboard`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('npm run build:web');
  });

  it('refuses requests for another host name (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${stack().appUrl}/config.json`, { headers: { host: 'attacker.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});
