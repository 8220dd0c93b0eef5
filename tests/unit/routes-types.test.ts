/**
 * Routes type their handlers: a handler group's route map must have exactly its group's routes of
 * schema/routes.ts, identity is an Identity on user and admin routes and absent on public ones, path
 * params come from the path, and apiPath takes only a route of the table. The `@ts-expect-error` and
 * expectTypeOf lines are checked by `tsc -p tsconfig.json`; the last block compiles snippets with the
 * TypeScript compiler, so the same errors are asserted by vitest too.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Identity } from '../../lambdas/core/profile';
import { httpApi, json, type ApiRequest, type RouteMap } from '../../lambdas/http/api';
import { apiPath, type AccessOf, type GroupRouteKey, type PathParams } from '../../schema/routes';

const ok = () => Promise.resolve(json(200, {}));

describe('a route map is held to its handler group by the compiler', () => {
  it("has exactly the group's route keys", () => {
    expectTypeOf<GroupRouteKey<'profile'>>().toEqualTypeOf<'GET /api/profile' | 'PATCH /api/profile'>();
    expectTypeOf<keyof RouteMap<'outbox'>>().toEqualTypeOf<'GET /api/local/outbox' | 'GET /api/local/outbox/{id}'>();
  });

  it('refuses a map missing a route of its group', () => {
    // @ts-expect-error PATCH /api/profile is missing
    const handler = httpApi('profile', { 'GET /api/profile': ok });
    expect(typeof handler).toBe('function');
  });

  it('refuses a key no route of the group has (also at run time)', () => {
    expect(() =>
      httpApi('profile', {
        'GET /api/profile': ok,
        'PATCH /api/profile': ok,
        // @ts-expect-error a typo: no such route
        'PATCH /api/profiles': ok,
      }),
    ).toThrow('PATCH /api/profiles');
    expect(() =>
      httpApi('profile', {
        'GET /api/profile': ok,
        'PATCH /api/profile': ok,
        // @ts-expect-error a route of another group
        'GET /api/contacts': ok,
      }),
    ).toThrow('GET /api/contacts');
  });
});

describe('a handler gets what its route guarantees', () => {
  it('identity is an Identity on user and admin routes, undefined on public ones', () => {
    expectTypeOf<AccessOf<'GET /api/profile'>>().toEqualTypeOf<'user'>();
    expectTypeOf<ApiRequest<'GET /api/profile'>['identity']>().toEqualTypeOf<Identity>();
    expectTypeOf<ApiRequest<'PATCH /api/admin/waitlist/{id}'>['identity']>().toEqualTypeOf<Identity>();
    expectTypeOf<ApiRequest<'POST /api/waitlist'>['identity']>().toEqualTypeOf<undefined>();
    expectTypeOf<ApiRequest<'GET /api/mailbox/callback'>['identity']>().toEqualTypeOf<undefined>();
  });

  it('params has one string per {param} of the path', () => {
    expectTypeOf<PathParams<'GET /api/campaigns/{id}/emails/{position}'>>().toEqualTypeOf<{ id: string; position: string }>();
    expectTypeOf<PathParams<'GET /api/t/c/{token}/{link}'>>().toEqualTypeOf<{ token: string; link: string }>();
    expectTypeOf<ApiRequest<'GET /api/profile'>['params']>().not.toHaveProperty('id');
  });
});

describe('apiPath', () => {
  it('fills and encodes the path params of a route of the table', () => {
    expect(apiPath('GET /api/campaigns')).toBe('/api/campaigns');
    expect(apiPath('GET /api/campaigns/{id}', { id: 'a b/c?' })).toBe('/api/campaigns/a%20b%2Fc%3F');
    expect(apiPath('GET /api/campaigns/{id}/emails/{position}', { id: 'c1', position: 3 })).toBe('/api/campaigns/c1/emails/3');
  });

  it('takes only route keys of the table, with every param', () => {
    // @ts-expect-error no such route
    expect(() => apiPath('GET /api/campaign')).not.toThrow();
    // @ts-expect-error {id} is not given
    expect(() => apiPath('GET /api/campaigns/{id}')).toThrow('apiPath: no value for {id} of GET /api/campaigns/{id}');
    // @ts-expect-error the route has no params
    apiPath('GET /api/campaigns', { id: 'x' });
  });
});

/** The TypeScript errors of each snippet, compiled in one program with the project's options. */
function compileErrors(snippets: Record<string, string>): Record<string, string[]> {
  const here = dirname(fileURLToPath(import.meta.url));
  const config = ts.getParsedCommandLineOfConfigFile(join(here, '../../tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const files = new Map(Object.entries(snippets).map(([name, text]) => [join(here, `${name}.snippet.ts`), text]));
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.fileExists = (file) => files.has(file) || fileExists(file);
  host.readFile = (file) => files.get(file) ?? readFile(file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = files.get(file);
    return text === undefined ? getSourceFile(file, language, ...rest) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram([...files.keys()], { ...config.options, noEmit: true }, host);
  return Object.fromEntries(
    Object.keys(snippets).map((name) => [
      name,
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(join(here, `${name}.snippet.ts`)))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')),
    ]),
  );
}

describe('the compiler, run on handler maps', () => {
  const header = `import { httpApi, json } from '../../lambdas/http/api';\nconst ok = async () => json(200, {});\n`;

  it('accepts a complete map and reports a missing route, an unknown key, and identity on a public route', () => {
    const errors = compileErrors({
      complete: `${header}httpApi('profile', { 'GET /api/profile': async ({ identity }) => json(200, identity.userId), 'PATCH /api/profile': ok });`,
      missing: `${header}httpApi('profile', { 'GET /api/profile': ok });`,
      unknown: `${header}httpApi('profile', { 'GET /api/profile': ok, 'PATCH /api/profile': ok, 'DELETE /api/profile': ok });`,
      publicIdentity: `${header}httpApi('waitlist', { 'POST /api/waitlist': async ({ identity }) => json(200, identity.userId), 'GET /api/waitlist/spots': ok });`,
    });
    expect(errors.complete).toEqual([]);
    expect(errors.missing).toEqual([expect.stringContaining(`Property '"PATCH /api/profile"' is missing`)]);
    expect(errors.unknown).toEqual([expect.stringContaining(`''DELETE /api/profile'' does not exist in type 'RouteMap<"profile">'`)]);
    expect(errors.publicIdentity).toEqual([expect.stringContaining("'identity' is possibly 'undefined'")]);
  }, 60_000);
});
