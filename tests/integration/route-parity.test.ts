/**
 * Route parity: the CDK template deploys every route of schema/routes.ts but the local runtime's own
 * (localOnly groups: the outbox); the local server serves every route, each with the authorization
 * the template gives it (JWT routes refuse a missing token, public ones do not) or, for a local-only
 * route, its declared access; every route reaches an entry of its handler group's map (httpApi answers
 * 500 `route_not_handled` for one without); and a method no route has for a path answers 404 locally
 * too, as API Gateway does.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_NOT_HANDLED } from '../../lambdas/http/api';
import { handlerGroups, routeKey, routes, type HandlerGroupDefinition } from '../../schema/routes';
import { resourcesOfType, synth } from '../infra/synth';
import { call, createUser, type TestUser } from './helpers';

interface DeployedRoute {
  method: string;
  path: string;
  authorization: string;
}

const deployed: DeployedRoute[] = resourcesOfType(synth().template, 'AWS::ApiGatewayV2::Route').map(([, route]) => {
  const [method, path] = String(route.Properties!.RouteKey).split(' ');
  return { method: method!, path: path!, authorization: String(route.Properties!.AuthorizationType) };
});

const localOnly = routes.filter((route) => (handlerGroups[route.handler] as HandlerGroupDefinition).localOnly);

/** Every route the local server serves, with the authorization API Gateway has (or would have) for it. */
const served: DeployedRoute[] = routes.map((route) => {
  const inTemplate = deployed.find((d) => `${d.method} ${d.path}` === routeKey(route));
  return { method: route.method, path: route.path, authorization: inTemplate?.authorization ?? (route.access === 'public' ? 'NONE' : 'JWT') };
});

/** A concrete path for a route path: each `{param}` becomes a made-up id. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'parity-test-id');

describe('route parity between the CDK template and the local server', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser({ name: 'Parity Tester' });
  });

  /** What the local server (like API Gateway) answers for a method and path no route matches. */
  const MISSING_ROUTE = { message: 'Not Found' };

  /**
   * The route reached its own handler: not a 5xx, so neither httpApi's answer for a route its group's
   * map has no entry for (`route_not_handled`, say after a handler's key was renamed) nor a handler
   * that could not be built (a map key naming no route). Every route answers these requests below 500.
   */
  const expectHandled = (answer: { status: number; json?: unknown }) => {
    expect((answer.json as { code?: unknown } | undefined)?.code, 'a route its handler group has no entry for').not.toBe(ROUTE_NOT_HANDLED);
    expect(answer.status, JSON.stringify(answer.json)).toBeLessThan(500);
  };

  it('deploys at least the known routes', () => {
    expect(deployed.map((r) => `${r.method} ${r.path}`)).toContain('GET /api/profile');
    expect(deployed.every((r) => r.authorization === 'JWT' || r.authorization === 'NONE')).toBe(true);
  });

  it('deploys every route to AWS but the local-only ones (the local outbox)', () => {
    expect(localOnly.map(routeKey)).toEqual(expect.arrayContaining(['GET /api/local/outbox', 'GET /api/local/outbox/{id}']));
    const deployedKeys = deployed.map((r) => `${r.method} ${r.path}`).sort();
    expect(deployedKeys).toEqual(
      routes
        .filter((route) => !localOnly.includes(route))
        .map(routeKey)
        .sort(),
    );
    for (const route of localOnly) expect(deployedKeys).not.toContain(routeKey(route));
  });

  it.each(served.map((r) => [`${r.method} ${r.path}`, r] as const))('%s answers locally with the same authorization', async (_key, route) => {
    const anonymous = await call(concrete(route.path), { method: route.method, body: route.method === 'GET' ? undefined : {} });
    if (route.authorization === 'JWT') {
      expect(anonymous.status).toBe(401);
      const signedIn = await call(concrete(route.path), {
        method: route.method,
        token: user.idToken,
        body: route.method === 'GET' ? undefined : {},
      });
      expect(signedIn.status).not.toBe(401);
      // A route's own 404 (no such contact for a made-up id) is an answer; the server's missing-route 404 is not.
      expect(signedIn.json).not.toEqual(MISSING_ROUTE);
      expectHandled(signedIn);
    } else {
      expect(anonymous.status).not.toBe(401);
      expect(anonymous.json).not.toEqual(MISSING_ROUTE);
      expectHandled(anonymous);
    }
  });

  it('answers 404 locally for a method no route has on a served path', async () => {
    for (const route of served) {
      const deployedMethods = new Set(served.filter((r) => r.path === route.path).map((r) => r.method));
      const other = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].find((m) => !deployedMethods.has(m))!;
      const response = await call(concrete(route.path), { method: other, token: user.idToken, body: other === 'GET' ? undefined : {} });
      expect(response.status, `${other} ${route.path}`).toBe(404);
    }
  });
});
