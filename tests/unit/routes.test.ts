import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findRoute, handlerGroups, matchPath, routeKey, routes } from '../../schema/routes';

describe('matchPath', () => {
  it('matches literal paths exactly', () => {
    expect(matchPath('/api/profile', '/api/profile')).toEqual({});
    expect(matchPath('/api/profile', '/api/profile/x')).toBeUndefined();
    expect(matchPath('/api/profile', '/api/profiles')).toBeUndefined();
  });

  it('captures and decodes path parameters', () => {
    expect(matchPath('/api/campaigns/{id}', '/api/campaigns/01J%20X')).toEqual({ id: '01J X' });
  });

  it('refuses an empty parameter', () => {
    expect(matchPath('/api/campaigns/{id}', '/api/campaigns/')).toBeUndefined();
  });
});

describe('findRoute', () => {
  it('finds a route by method and path', () => {
    expect(findRoute('GET', '/api/profile')?.route.handler).toBe('profile');
    expect(findRoute('PATCH', '/api/profile')?.route.method).toBe('PATCH');
  });

  it('answers undefined for an unknown path or another method, as API Gateway answers 404', () => {
    expect(findRoute('GET', '/api/nothing-here')).toBeUndefined();
    expect(findRoute('DELETE', '/api/profile')).toBeUndefined();
  });
});

describe('the route list', () => {
  it('has unique route keys', () => {
    const keys = routes.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names only handler groups whose module exists', () => {
    for (const route of routes) {
      const group = handlerGroups[route.handler];
      expect(group, route.path).toBeDefined();
      expect(existsSync(group.entry), group.entry).toBe(true);
    }
  });

  it('keeps every path under /api and every admin route under /api/admin', () => {
    for (const route of routes) {
      expect(route.path.startsWith('/api/')).toBe(true);
      expect(route.access === 'admin').toBe(route.path.startsWith('/api/admin/'));
    }
  });

  it('throttles every public route', () => {
    for (const route of routes.filter((r) => r.access === 'public')) expect(route.throttle, route.path).toBeDefined();
  });
});
