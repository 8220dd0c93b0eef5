/**
 * The shared HTTP layer (lambdas/http/api.ts) as a Lambda sees it: API Gateway v2 events built by
 * the local runtime's pure event builder, handlers with in-memory stores.
 */
import { describe, expect, it } from 'vitest';
import { buildApiEvent, makeLambdaContext } from '../../lib/local/event';
import { z } from 'zod';
import { groupsFromClaim, HttpError, httpApi, json, knownId, noContent, parseForm, ROUTE_NOT_HANDLED, type RouteMap } from '../../lambdas/http/api';
import { composeMessages, composeSpecTexts, generatePreviewSchema } from '../../schema/api/campaigns';
import { isUlid } from '../../lambdas/core/ids';
import { makeHandler as makeProfileHandler } from '../../lambdas/http/profile';
import { makeHandler as makeAdminHandler } from '../../lambdas/http/admin';
import type { Profile } from '../../schema/api/profile';
import type { ProfileStore } from '../../lambdas/ports';
import { memoryWaitlist } from '../fakes/waitlist';
import { unusedDirectory } from '../fakes/directory';

const now = new Date('2026-11-21T10:00:00.000Z');
const claimsOf = (sub: string, extra: Record<string, unknown> = {}) => ({
  sub,
  email: `${sub}@example.com`,
  name: `User ${sub}`,
  token_use: 'id',
  ...extra,
});

function event(method: string, path: string, options: { claims?: Record<string, unknown>; body?: string } = {}) {
  return buildApiEvent({
    method,
    url: path,
    headers: options.body !== undefined ? { 'content-type': 'application/json' } : {},
    body: options.body !== undefined ? Buffer.from(options.body) : undefined,
    sourceIp: '127.0.0.1',
    route: { method: method as 'GET', path },
    pathParameters: {},
    claims: options.claims,
    requestId: 'req-1',
    now,
  });
}

const context = () => makeLambdaContext({ functionName: 'test', awsRequestId: 'req-1', region: 'us-east-1', timeoutMs: 10_000 });

function memoryProfiles(): ProfileStore & { stored: Map<string, Profile> } {
  const stored = new Map<string, Profile>();
  return {
    stored,
    get: (id) => Promise.resolve(stored.get(id)),
    createIfMissing: (profile) => {
      if (!stored.has(profile.id)) stored.set(profile.id, profile);
      return Promise.resolve(stored.get(profile.id)!);
    },
    update: (id, update) => {
      const current = stored.get(id);
      if (!current) return Promise.resolve(undefined);
      const next = { ...current, ...Object.fromEntries(Object.entries(update as Record<string, unknown>).filter(([, v]) => v !== undefined)) };
      stored.set(id, next);
      return Promise.resolve(next);
    },
  };
}

const clock = { now: () => now };

async function callProfile(store: ProfileStore, method: string, claims: Record<string, unknown> | undefined, body?: string) {
  const result = await makeProfileHandler({ profiles: store, clock })(event(method, '/api/profile', { claims, body }), context());
  return { status: result.statusCode, body: JSON.parse(String(result.body)) as Record<string, unknown> };
}

describe('groupsFromClaim', () => {
  it("reads API Gateway's string form and a real array", () => {
    expect(groupsFromClaim('[admins editors]')).toEqual(['admins', 'editors']);
    expect(groupsFromClaim(['admins'])).toEqual(['admins']);
    expect(groupsFromClaim(undefined)).toEqual([]);
    expect(groupsFromClaim('')).toEqual([]);
  });
});

/** What `run` threw: its status and message (fails when it did not throw an HttpError). */
function httpErrorOf(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return { status: (error as HttpError).statusCode, message: (error as HttpError).message };
  }
  throw new Error('expected an HttpError');
}

describe("the handlers' shared answers", () => {
  it('noContent: 204 with no body, never cached', () => {
    expect(noContent()).toEqual({ statusCode: 204, headers: { 'cache-control': 'no-store' } });
  });

  it('knownId: an id of the right shape passes; any other, or none, is a 404 with the given text', () => {
    expect(knownId('01KAKZ3R0000000000000000AA', isUlid, 'Campaign not found.')).toBe('01KAKZ3R0000000000000000AA');
    for (const id of [undefined, '', 'tpl-demo-to-label', '01kakz3r0000000000000000aa']) {
      expect(
        httpErrorOf(() => knownId(id, isUlid, 'Campaign not found.')),
        String(id),
      ).toEqual({ status: 404, message: 'Campaign not found.' });
    }
  });

  it("parseForm: a blank required field gets the form's text; other problems are described field by field", () => {
    const schema = z.object({ name: z.string().trim().min(1), count: z.number() }).strict();
    const rules = { required: [{ path: ['name'], message: 'Please enter a name.' }] };
    expect(parseForm(schema, { name: ' Demo ', count: 1 }, rules)).toEqual({ name: 'Demo', count: 1 });
    expect(httpErrorOf(() => parseForm(schema, { name: '  ', count: 1 }, rules))).toEqual({ status: 400, message: 'Please enter a name.' });
    expect(httpErrorOf(() => parseForm(schema, { count: 1 }, rules))).toEqual({ status: 400, message: 'Please enter a name.' });
    expect(httpErrorOf(() => parseForm(schema, { name: 'Demo', count: 'x' }, rules))).toEqual({ status: 400, message: 'count must be a number' });
    expect(httpErrorOf(() => parseForm(schema, undefined, rules))).toEqual({ status: 400, message: 'The request needs a JSON body.' });
  });

  it('parseForm: a problem the schema words with a spec text is answered with that text alone (Compose, spec §5)', () => {
    const texts = {
      required: [
        { path: ['track', 'track_name'], message: composeMessages.previewNeeds },
        { path: ['track', 'description'], message: composeMessages.previewNeeds },
      ],
      specTexts: composeSpecTexts,
    };
    const body = {
      track: { track_name: 'Night Drive', track_url: 'https://soundcloud.com/nova/night-drive', genre: 'techno', description: 'A groove.', bpm: null },
      contact_id: 'x',
      total_recipients: 1,
    };
    expect(parseForm(generatePreviewSchema, body, texts).total_recipients).toBe(1);
    const answer = (changed: unknown) => httpErrorOf(() => parseForm(generatePreviewSchema, changed, texts));
    expect(answer({ ...body, track: { ...body.track, track_name: ' ' } })).toEqual({ status: 400, message: composeMessages.previewNeeds });
    expect(answer({ ...body, track: { ...body.track, description: undefined } })).toEqual({ status: 400, message: composeMessages.previewNeeds });
    expect(answer({ ...body, total_recipients: 0 })).toEqual({ status: 400, message: composeMessages.previewNeeds });
    expect(answer({ ...body, track: { ...body.track, track_url: 'ftp://x' } })).toEqual({ status: 400, message: composeMessages.trackUrlInvalid });
    // Other problems name their field.
    expect(answer({ ...body, extra: 1 })).toEqual({ status: 400, message: 'Unknown field: extra' });
  });
});

describe('the signed-in user comes from the verified claims only', () => {
  it('answers 401 when a signed-in route arrives without claims', async () => {
    expect((await callProfile(memoryProfiles(), 'GET', undefined)).status).toBe(401);
  });

  it("ignores a user id in the body: PATCH changes the token's user only", async () => {
    const store = memoryProfiles();
    await callProfile(store, 'GET', claimsOf('alice'));
    await callProfile(store, 'GET', claimsOf('bob'));
    const response = await callProfile(store, 'PATCH', claimsOf('alice'), JSON.stringify({ artist_name: 'Nova' }));
    expect(response.status).toBe(200);
    expect(store.stored.get('alice')?.artist_name).toBe('Nova');
    expect(store.stored.get('bob')?.artist_name).toBeNull();
  });

  it('does not create a profile from a token without an email (an access token)', async () => {
    const store = memoryProfiles();
    const response = await callProfile(store, 'GET', { sub: 'carol', token_use: 'access', client_id: 'x' });
    expect(response.status).toBe(401);
    expect(store.stored.size).toBe(0);
  });
});

describe('bad input gets a 400 a person understands and changes nothing', () => {
  const cases: [string, string, string][] = [
    ['malformed JSON', '{"full_name": ', 'The request body is not valid JSON.'],
    ['an array', '[1,2]', 'The request body must be a JSON object.'],
    ['null', 'null', 'The request body must be a JSON object.'],
    ['a wrong type', '{"full_name": 5}', 'full_name must be a string'],
    ['an unknown field', '{"tier": "label"}', 'Unknown field: tier'],
    ['a blank name', '{"full_name": "  "}', 'full_name: Please enter your full name'],
    ['a bad link', '{"website_url": "ftp://x"}', 'website_url: Enter a link such as https://soundcloud.com/yourname'],
  ];
  it.each(cases)('%s', async (_name, body, message) => {
    const store = memoryProfiles();
    await callProfile(store, 'GET', claimsOf('dave'));
    const before = structuredClone(store.stored.get('dave'));
    const response = await callProfile(store, 'PATCH', claimsOf('dave'), body);
    expect(response).toEqual({ status: 400, body: { message } });
    expect(store.stored.get('dave')).toEqual(before);
  });

  it('a PATCH without a body', async () => {
    const store = memoryProfiles();
    await callProfile(store, 'GET', claimsOf('erin'));
    expect(await callProfile(store, 'PATCH', claimsOf('erin'))).toEqual({ status: 400, body: { message: 'The request needs a JSON body.' } });
  });
});

describe('admin routes', () => {
  const waitlist = memoryWaitlist();
  const callAdmin = async (claims: Record<string, unknown>) =>
    (await makeAdminHandler({ waitlist, directory: unusedDirectory(), clock })(event('GET', '/api/admin/waitlist', { claims }), context())).statusCode;

  it('refuse a signed-in user outside the admins group with 403', async () => {
    expect(await callAdmin(claimsOf('frank'))).toBe(403);
    expect(await callAdmin(claimsOf('frank', { 'cognito:groups': '[editors]' }))).toBe(403);
  });

  it('let a member of admins in', async () => {
    expect(await callAdmin(claimsOf('grace', { 'cognito:groups': '[admins]' }))).toBe(200);
  });
});

describe('a crash', () => {
  it('gives 500 with the request id and no stack trace', async () => {
    const broken: ProfileStore = {
      get: () => Promise.reject(new Error('table is on fire at /var/task/index.js:1')),
      createIfMissing: (p) => Promise.resolve(p),
      update: () => Promise.resolve(undefined),
    };
    const response = await callProfile(broken, 'GET', claimsOf('heidi'));
    expect(response.status).toBe(500);
    expect(response.body.requestId).toBe('req-1');
    expect(JSON.stringify(response.body)).not.toMatch(/fire|index\.js/);
  });
});

describe("a handler group's route map", () => {
  it("a route of schema/routes.ts missing from the map is a 500 with its own code (a server bug), not the caller's 404", async () => {
    // The profile group's map with PATCH left out (a compile error, hence the cast): GET still answers, PATCH is the missing entry.
    const getOnly: Partial<RouteMap<'profile'>> = { 'GET /api/profile': () => Promise.resolve(json(200, { ok: true })) };
    const handler = httpApi('profile', getOnly as RouteMap<'profile'>);
    const get = await handler(event('GET', '/api/profile', { claims: claimsOf('ivan') }), context());
    expect(get.statusCode).toBe(200);
    const patch = await handler(event('PATCH', '/api/profile', { claims: claimsOf('ivan'), body: '{}' }), context());
    expect(patch.statusCode).toBe(500);
    expect(JSON.parse(String(patch.body))).toEqual({
      message: 'Something went wrong on our side. Please try again.',
      code: ROUTE_NOT_HANDLED,
      requestId: 'req-1',
    });
  });

  it('a key naming no route (a typo, a renamed route) is refused when the handler is built', () => {
    const typo = { 'PATCH /api/profiles': () => Promise.resolve(json(200, {})) } as unknown as RouteMap<'profile'>;
    expect(() => httpApi('profile', typo)).toThrow('httpApi: no route in schema/routes.ts for PATCH /api/profiles');
  });

  it("a key naming another group's route is refused when the handler is built", () => {
    const ok = () => Promise.resolve(json(200, {}));
    const foreign = { 'GET /api/profile': ok, 'PATCH /api/profile': ok, 'GET /api/contacts': ok };
    expect(() => httpApi('profile', foreign as RouteMap<'profile'>)).toThrow(
      'httpApi: no route in schema/routes.ts for GET /api/contacts (handler group profile)',
    );
  });
});
