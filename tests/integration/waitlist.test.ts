/**
 * The beta waitlist on DynamoDB Local: POST /api/waitlist and GET /api/waitlist/spots (public,
 * throttled), and the admin routes. The join route is throttled (rate 5, burst 10) for the whole
 * integration run, so the many validation cases call the handler module's makeHandler with the real
 * DynamoDB store and the local event builder; a few requests go through the local server, and the
 * 429 is checked on a server of its own.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoWaitlistStore } from '../../lambdas/adapters/dynamodb/waitlistStore';
import { systemClock } from '../../lambdas/adapters/clock';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { makeHandler as makeWaitlistHandler } from '../../lambdas/http/waitlist';
import { buildApiEvent, makeLambdaContext } from '../../lib/local/event';
import { waitlistMessages, type WaitlistEntry } from '../../schema/api/waitlist';
import { key } from '../../schema/table';
import { noClientLimit } from '../fakes/clientLimit';
import { adminTokens, call, createUser, dynamodb, stack, startServer, uniqueEmail, type TestUser } from './helpers';

const store = () => new DynamoWaitlistStore(dynamodb().doc, stack().tableName);
const ids = ulidGenerator();
let handler: ReturnType<typeof makeWaitlistHandler>;
beforeAll(() => {
  handler = makeWaitlistHandler({ waitlist: store(), clock: systemClock, ids, clientLimit: noClientLimit });
});

const context = () => makeLambdaContext({ functionName: 'trackpitch-waitlist', awsRequestId: randomUUID(), region: 'us-east-1', timeoutMs: 10_000 });

/** POST /api/waitlist straight to the handler (same event the local server builds), real DynamoDB store. */
async function join(body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const event = buildApiEvent({
    method: 'POST',
    url: '/api/waitlist',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(text),
    sourceIp: '127.0.0.1',
    route: { method: 'POST', path: '/api/waitlist' },
    pathParameters: {},
    requestId: randomUUID(),
    now: new Date(),
  });
  const result = await handler(event, context());
  return { status: result.statusCode, json: JSON.parse(result.body ?? 'null') as Record<string, unknown> };
}

const form = (overrides: Record<string, unknown> = {}) => ({
  email: uniqueEmail('wl'),
  artist_name: 'Nova Pulse',
  music_style: 'Techno',
  soundcloud_spotify_url: 'https://soundcloud.com/nova',
  why_interested: 'I pitch to labels every week.',
  ...overrides,
});

const table = () => stack().tableName;
const entryItem = async (id: string) =>
  (await dynamodb().doc.send(new GetCommand({ TableName: table(), Key: { PK: key.waitlistPartition(), SK: key.waitlistEntry(id) }, ConsistentRead: true })))
    .Item;
const guardItem = async (email: string) =>
  (await dynamodb().doc.send(new GetCommand({ TableName: table(), Key: { PK: key.waitlistPartition(), SK: key.waitlistEmail(email) }, ConsistentRead: true })))
    .Item;
const counter = async () =>
  Number(
    (await dynamodb().doc.send(new GetCommand({ TableName: table(), Key: { PK: key.waitlistPartition(), SK: key.waitlistCounter() }, ConsistentRead: true })))
      .Item?.entries ?? 0,
  );
/** Entries stored for an email (any case), read from the partition. */
async function entriesFor(email: string) {
  const { Items } = await dynamodb().doc.send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :entry)',
      FilterExpression: 'email = :email',
      ExpressionAttributeValues: { ':pk': key.waitlistPartition(), ':entry': key.waitlistEntryPrefix(), ':email': email.toLowerCase() },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

describe('POST /api/waitlist: validation (each a 400 with its exact message, nothing stored)', () => {
  const required = waitlistMessages.required;
  const cases: [string, (email: string) => unknown, string][] = [
    ['no email', (e) => ({ ...form({ email: e }), email: undefined }), required],
    ['no artist_name', (e) => ({ ...form({ email: e }), artist_name: undefined }), required],
    ['no music_style', (e) => ({ ...form({ email: e }), music_style: undefined }), required],
    ['a blank email', () => form({ email: '   ' }), required],
    ['a blank artist_name', (e) => form({ email: e, artist_name: '  ' }), required],
    ['an empty music_style', (e) => form({ email: e, music_style: '' }), required],
    ['a null artist_name', (e) => form({ email: e, artist_name: null }), required],
    ['an empty body', () => ({}), required],
    ['a bad email', () => form({ email: 'nova-at-example.com' }), 'email: Enter a valid email address'],
    ['an email with a space', () => form({ email: 'nova pulse@example.com' }), 'email: Enter a valid email address'],
    ['an email over 254 characters', () => form({ email: `${'a'.repeat(250)}@example.com` }), 'email: Email must be at most 254 characters'],
    ['an email with NUL', (e) => form({ email: e.replace('@', '\u0000@') }), 'email: Email contains an invisible or control character.'],
    ['an email with a zero-width space', (e) => form({ email: e.replace('@', '\u200b@') }), 'email: Email contains an invisible or control character.'],
    ['an email with a lone surrogate', (e) => form({ email: e.replace('@', '\ud800@') }), 'email: Email contains an invisible or control character.'],
    [
      'an artist name with NUL',
      (e) => form({ email: e, artist_name: 'Nova\u0000Pulse' }),
      'artist_name: Artist name contains a character that cannot be stored.',
    ],
    [
      'an artist name with a lone surrogate',
      (e) => form({ email: e, artist_name: 'Nova\udc00' }),
      'artist_name: Artist name contains a character that cannot be stored.',
    ],
    [
      'why_interested with a lone surrogate',
      (e) => form({ email: e, why_interested: 'Because \ud83d' }),
      'why_interested: Why interested contains a character that cannot be stored.',
    ],
    ['a style not in the list', (e) => form({ email: e, music_style: 'Polka' }), 'music_style: Choose a music style from the list'],
    ['a style in another case', (e) => form({ email: e, music_style: 'techno' }), 'music_style: Choose a music style from the list'],
    [
      'an ftp link',
      (e) => form({ email: e, soundcloud_spotify_url: 'ftp://files.example.com/track' }),
      'soundcloud_spotify_url: Enter a link such as https://soundcloud.com/yourname',
    ],
    [
      'a javascript: link',
      (e) => form({ email: e, soundcloud_spotify_url: 'javascript:alert(1)' }),
      'soundcloud_spotify_url: Enter a link such as https://soundcloud.com/yourname',
    ],
    [
      'a link over 500 characters',
      (e) => form({ email: e, soundcloud_spotify_url: `https://x.example/${'a'.repeat(500)}` }),
      'soundcloud_spotify_url: Link must be at most 500 characters',
    ],
    ['201 characters of why_interested', (e) => form({ email: e, why_interested: 'x'.repeat(201) }), 'why_interested: Tell us in at most 200 characters'],
    ['an artist name over 100 characters', (e) => form({ email: e, artist_name: 'n'.repeat(101) }), 'artist_name: Artist name must be at most 100 characters'],
    ['an unknown field', (e) => ({ ...form({ email: e }), status: 'approved' }), 'Unknown field: status'],
    ['a wrong type', (e) => form({ email: e, why_interested: 42 }), 'why_interested must be a string'],
    ['an array body', (e) => [form({ email: e })], 'The request body must be a JSON object.'],
    ['malformed JSON', () => '{"email": "a@example.com",', 'The request body is not valid JSON.'],
    ['no body', () => '', 'The request needs a JSON body.'],
  ];
  it.each(cases)('%s', async (_name, body, message) => {
    const email = uniqueEmail('invalid');
    const before = await counter();
    const response = await join(body(email));
    expect(response).toEqual({ status: 400, json: { message } });
    expect(await entriesFor(email)).toHaveLength(0);
    expect(await guardItem(email)).toBeUndefined();
    expect(await counter()).toBe(before);
  });

  it('accepts the edges: exactly 200 characters, http and https links, no optional fields', async () => {
    for (const body of [
      form({ why_interested: 'y'.repeat(200) }),
      form({ soundcloud_spotify_url: 'http://open.spotify.com/artist/1' }),
      form({ soundcloud_spotify_url: 'HTTPS://SoundCloud.com/Nova' }),
      { email: uniqueEmail('minimal'), artist_name: 'Minimal', music_style: 'Drum & Bass' },
      form({ soundcloud_spotify_url: '', why_interested: '' }),
    ]) {
      const response = await join(body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(201);
    }
  });
});

describe('POST /api/waitlist: stored entry and duplicates', () => {
  it('stores a pending entry with the email trimmed and lower-cased, and its email guard', async () => {
    const email = uniqueEmail('Mixed.Case').replace('example.com', 'Example.COM');
    const response = await join(form({ email: `  ${email} `, artist_name: '  DJ Mixed ', soundcloud_spotify_url: '', why_interested: '  ' }));
    expect(response.status).toBe(201);
    const id = response.json.id as string;
    const item = await entryItem(id);
    const { PK: _pk, SK: _sk, entity: _entity, ...stored } = item!;
    expect(response.json).toEqual(stored);
    expect(item).toMatchObject({
      id,
      email: email.toLowerCase(),
      artist_name: 'DJ Mixed',
      music_style: 'Techno',
      soundcloud_spotify_url: null,
      why_interested: null,
      status: 'pending',
      submitted_at: response.json.submitted_at,
      approved_at: null,
      notes: null,
    });
    expect(await guardItem(email.toLowerCase())).toMatchObject({ entry_id: id });
  });

  it('refuses the same email in another case with 409 and the exact text; one entry stays', async () => {
    const email = uniqueEmail('dup');
    expect((await join(form({ email }))).status).toBe(201);
    const before = await counter();
    const again = await join(form({ email: email.toUpperCase(), artist_name: 'Someone Else' }));
    expect(again).toEqual({ status: 409, json: { message: "You're already on the list! We'll contact you soon with your access details." } });
    expect(await entriesFor(email)).toHaveLength(1);
    expect((await entriesFor(email))[0]!.artist_name).toBe('Nova Pulse');
    expect(await counter()).toBe(before);
  });

  it('gives exactly one entry to two identical joins racing through the local server (one 201, one 409, counter +1)', async () => {
    const body = form({ email: uniqueEmail('race') });
    const before = await counter();
    const responses = await Promise.all([call('/api/waitlist', { method: 'POST', body }), call('/api/waitlist', { method: 'POST', body })]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(responses.find((r) => r.status === 409)!.json).toEqual({ message: waitlistMessages.duplicate });
    expect(await entriesFor(body.email)).toHaveLength(1);
    expect(await counter()).toBe(before + 1);
  });

  it('gives one entry to eight identical joins racing at the handler', async () => {
    const body = form({ email: uniqueEmail('race8') });
    const before = await counter();
    const responses = await Promise.all(Array.from({ length: 8 }, () => join(body)));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(7);
    expect(await entriesFor(body.email)).toHaveLength(1);
    expect(await counter()).toBe(before + 1);
  });

  it('counts every one of many different joins at the same moment (they all write the counter)', async () => {
    const before = await counter();
    const responses = await Promise.all(Array.from({ length: 12 }, () => join(form())));
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(await counter()).toBe(before + 12);
  });
});

describe('GET /api/waitlist/spots', () => {
  it('goes down by one per join, from the real count', async () => {
    const first = await call('/api/waitlist/spots');
    expect(first.status).toBe(200);
    const taken = await counter();
    expect(first.json).toEqual({ total: 50, taken, remaining: Math.max(0, 50 - taken) });
    expect((await join(form())).status).toBe(201);
    const second = await call('/api/waitlist/spots');
    expect(second.json).toEqual({ total: 50, taken: taken + 1, remaining: Math.max(0, 50 - taken - 1) });
  });

  it('never goes below 0', async () => {
    const saved = await counter();
    const counterKey = { PK: key.waitlistPartition(), SK: key.waitlistCounter() };
    await dynamodb().doc.send(new PutCommand({ TableName: table(), Item: { ...counterKey, entity: 'waitlist-counter', entries: 60 } }));
    try {
      const response = await call('/api/waitlist/spots');
      expect(response.json).toEqual({ total: 50, taken: 60, remaining: 0 });
    } finally {
      await dynamodb().doc.send(new PutCommand({ TableName: table(), Item: { ...counterKey, entity: 'waitlist-counter', entries: saved } }));
    }
  });
});

describe('POST /api/waitlist throttling', () => {
  it('answers 429 past its burst of 10, before the handler (a server of its own, so the shared bucket stays full)', async () => {
    let calls = 0;
    const real = makeWaitlistHandler({ waitlist: store(), clock: systemClock, ids, clientLimit: noClientLimit });
    const server = await startServer({
      loadHandler: () =>
        Promise.resolve(async (event, ctx) => {
          calls++;
          return real(event, ctx);
        }),
      now: () => 1_000_000, // the clock stands still: no refill
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const response = await fetch(`${server.url}/api/waitlist`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        statuses.push(response.status);
        if (i === 11) expect(await response.json()).toEqual({ message: 'Too Many Requests' });
        else await response.arrayBuffer();
      }
      expect(statuses).toEqual([...Array<number>(10).fill(400), 429, 429]);
      expect(calls).toBe(10);
    } finally {
      await server.close();
    }
  });
});

describe('admin waitlist routes', () => {
  let admin: string;
  let user: TestUser;
  beforeAll(async () => {
    admin = (await adminTokens()).idToken;
    user = await createUser();
  });

  const newEntry = async (overrides: Record<string, unknown> = {}) => {
    const response = await join(form(overrides));
    expect(response.status).toBe(201);
    return response.json.id as string;
  };
  const patch = (id: string, body: unknown, token = admin) => call(`/api/admin/waitlist/${id}`, { method: 'PATCH', token, body });
  const putNotes = (id: string, body: unknown, token = admin) => call(`/api/admin/waitlist/${id}/notes`, { method: 'PUT', token, body });

  type ListPage = { entries: WaitlistEntry[]; next_cursor?: string };
  const listPage = async (query: Record<string, string> = {}) => {
    const response = await call(`/api/admin/waitlist?${new URLSearchParams(query)}`, { token: admin });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    return response.json as ListPage;
  };
  /** Every page in order, as the admin page loads them. */
  const listAll = async (limit: number) => {
    const pages: ListPage[] = [];
    let cursor: string | undefined;
    do {
      const page = await listPage(cursor === undefined ? { limit: String(limit) } : { limit: String(limit), cursor });
      pages.push(page);
      cursor = page.next_cursor;
    } while (cursor !== undefined);
    return pages;
  };
  const expectNewestFirst = (entries: WaitlistEntry[]) => {
    for (let i = 1; i < entries.length; i++) {
      expect(entries[i - 1]!.id > entries[i]!.id).toBe(true);
      expect(entries[i - 1]!.submitted_at >= entries[i]!.submitted_at).toBe(true);
    }
  };

  it('lists entries newest first, without table keys, one page of at most 500 by default', async () => {
    const made = [await newEntry(), await newEntry(), await newEntry()];
    const response = await call('/api/admin/waitlist', { token: admin });
    expect(response.status).toBe(200);
    const { entries, next_cursor } = response.json as ListPage;
    expect(entries.filter((e) => made.includes(e.id)).map((e) => e.id)).toEqual([...made].reverse());
    expect(entries[0]!.id).toBe(made[2]);
    expectNewestFirst(entries);
    expect(entries.length).toBeLessThanOrEqual(500);
    if (next_cursor === undefined) expect(entries.length).toBe(await counter());
    expect(Object.keys(entries[0]!).sort()).toEqual(
      ['id', 'email', 'artist_name', 'music_style', 'soundcloud_spotify_url', 'why_interested', 'status', 'submitted_at', 'approved_at', 'notes'].sort(),
    );
  });

  it('pages through every entry with a small limit: in order, no gaps, no repeats, a cursor while more follow', async () => {
    const made = [await newEntry(), await newEntry(), await newEntry(), await newEntry(), await newEntry()];
    // The first page (limit 2) is the two newest; the next pages follow on from each cursor.
    const first = await listPage({ limit: '2' });
    expect(first.entries.map((e) => e.id)).toEqual([made[4], made[3]]);
    expect(first.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = await listPage({ limit: '2', cursor: first.next_cursor! });
    expect(second.entries.map((e) => e.id)).toEqual([made[2], made[1]]);

    const before = await counter();
    const pages = await listAll(7);
    const all = pages.flatMap((page) => page.entries);
    for (const page of pages) expect(page.entries.length).toBeLessThanOrEqual(7);
    for (const page of pages.slice(0, -1)) expect(page.next_cursor).toBeDefined();
    expect(pages.at(-1)!.next_cursor).toBeUndefined();
    expect(pages.length).toBeGreaterThan(1);
    expectNewestFirst(all);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(all.filter((e) => made.includes(e.id)).map((e) => e.id)).toEqual([...made].reverse());
    // Entries are never deleted: everything counted before the walk was walked.
    expect(all.length).toBeGreaterThanOrEqual(before);
    // The same entries as one big page, where that fits.
    if (all.length <= 1000) {
      const big = await listPage({ limit: '1000' });
      expect(big.entries.map((e) => e.id).slice(-all.length)).toEqual(all.map((e) => e.id));
    }
  });

  it('refuses a limit outside 1..1000 or not a whole number with 400', async () => {
    for (const limit of ['0', '1001', '-1', '1.5', 'abc', '', '10abc', '1e2', ' 5']) {
      const response = await call(`/api/admin/waitlist?limit=${encodeURIComponent(limit)}`, { token: admin });
      expect(response.status, `limit=${JSON.stringify(limit)}`).toBe(400);
      expect((response.json as { message: string }).message).toMatch(/^limit: /);
    }
    expect((await listPage({ limit: '1' })).entries).toHaveLength(1);
    expect((await listPage({ limit: '1000' })).entries.length).toBeLessThanOrEqual(1000);
  });

  it("refuses a cursor that is not one of its own with 400 'Invalid cursor', never reading another partition", async () => {
    await newEntry();
    const valid = (await listPage({ limit: '1' })).next_cursor!;
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    const someUlid = ids.next(new Date());
    const cursors = [
      '',
      'not base64!',
      `${valid}=`, // padding: not the canonical form
      Buffer.from(`ENTRY#${someUlid}`).toString('base64'), // plain base64 with + or / or =, when it has any
      b64('COUNTER'),
      b64('EMAIL#a@example.com'),
      b64('ENTRY#not-a-ulid'),
      b64(`ENTRY#${someUlid}#more`),
      b64(JSON.stringify({ PK: 'USER#someone', SK: 'PROFILE' })),
      b64(JSON.stringify({ PK: key.waitlistPartition(), SK: `ENTRY#${someUlid}` })),
      'x'.repeat(200),
    ].filter((cursor) => cursor !== b64(`ENTRY#${someUlid}`));
    for (const cursor of cursors) {
      const response = await call(`/api/admin/waitlist?${new URLSearchParams({ cursor })}`, { token: admin });
      expect(response, `cursor=${cursor}`).toMatchObject({ status: 400, json: { message: 'Invalid cursor' } });
    }
    // A well-formed entry position is fine even when no entry is stored there (ULIDs sort by time).
    expect((await listPage({ cursor: b64(`ENTRY#${someUlid}`) })).entries.length).toBeGreaterThan(0);
  });

  it('refuse a signed-in user outside admins with 403 on all three routes, and change nothing', async () => {
    const id = await newEntry();
    const before = await entryItem(id);
    for (const response of [
      await call('/api/admin/waitlist', { token: user.idToken }),
      await call('/api/admin/waitlist?limit=1', { token: user.idToken }),
      await patch(id, { status: 'approved' }, user.idToken),
      await putNotes(id, { notes: 'sneaky' }, user.idToken),
    ]) {
      expect(response.status).toBe(403);
      expect(response.json).toEqual({ message: 'You are not authorised to do this.' });
    }
    expect(await entryItem(id)).toEqual(before);
  });

  it('refuse a request without a token with 401', async () => {
    const id = await newEntry();
    expect((await patch(id, { status: 'approved' }, '')).status).toBe(401);
    expect((await putNotes(id, { notes: 'x' }, '')).status).toBe(401);
  });

  it('approve sets approved_at; then neither approve nor reject changes it (409)', async () => {
    const id = await newEntry();
    const started = Date.now();
    const response = await patch(id, { status: 'approved' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ id, status: 'approved', notes: null });
    const approvedAt = Date.parse(response.json!.approved_at as string);
    expect(approvedAt).toBeGreaterThanOrEqual(started - 1000);
    expect(approvedAt).toBeLessThanOrEqual(Date.now() + 1000);
    const stored = await entryItem(id);
    expect(stored).toMatchObject({ status: 'approved', approved_at: response.json!.approved_at });
    for (const status of ['approved', 'rejected']) {
      const again = await patch(id, { status });
      expect(again).toMatchObject({ status: 409, json: { message: waitlistMessages.notPending } });
    }
    expect(await entryItem(id)).toEqual(stored);
  });

  it('reject leaves approved_at null; then neither approve nor reject changes it (409)', async () => {
    const id = await newEntry();
    const response = await patch(id, { status: 'rejected' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ id, status: 'rejected', approved_at: null });
    const stored = await entryItem(id);
    for (const status of ['approved', 'rejected']) {
      expect(await patch(id, { status })).toMatchObject({ status: 409, json: { message: waitlistMessages.notPending } });
    }
    expect(await entryItem(id)).toEqual(stored);
  });

  it('two admins deciding at once: one wins, the other gets 409', async () => {
    const id = await newEntry();
    const [a, b] = await Promise.all([patch(id, { status: 'approved' }), patch(id, { status: 'rejected' })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    expect((await entryItem(id))!.status).toBe(winner.json!.status);
  });

  it('refuse other statuses and bodies with 400, and change nothing', async () => {
    const id = await newEntry();
    const before = await entryItem(id);
    expect(await patch(id, { status: 'pending' })).toMatchObject({ status: 400 });
    expect(await patch(id, { status: 'approved', approved_at: '2020-01-01T00:00:00Z' })).toMatchObject({
      status: 400,
      json: { message: 'Unknown field: approved_at' },
    });
    expect(await patch(id, '{"status": ')).toEqual(expect.objectContaining({ status: 400, json: { message: 'The request body is not valid JSON.' } }));
    expect(await putNotes(id, '{"notes": ')).toEqual(expect.objectContaining({ status: 400, json: { message: 'The request body is not valid JSON.' } }));
    expect(await entryItem(id)).toEqual(before);
  });

  it('answer 404 for an unknown id, well-formed or not', async () => {
    const unknown = ids.next(new Date());
    for (const id of [unknown, 'not-an-id', 'COUNTER', encodeURIComponent('EMAIL#a@example.com')]) {
      expect(await patch(id, { status: 'approved' }), id).toMatchObject({ status: 404, json: { message: 'Waitlist entry not found' } });
      expect(await putNotes(id, { notes: 'x' }), id).toMatchObject({ status: 404, json: { message: 'Waitlist entry not found' } });
    }
    expect(await entryItem(unknown)).toBeUndefined();
  });

  it('save notes, clear them with an empty text, and refuse more than 2000 characters', async () => {
    const id = await newEntry();
    const saved = await putNotes(id, { notes: 'Strong catalogue; ask for the label deck.' });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ id, status: 'pending', notes: 'Strong catalogue; ask for the label deck.' });
    expect((await entryItem(id))!.notes).toBe('Strong catalogue; ask for the label deck.');

    expect(await putNotes(id, { notes: 'n'.repeat(2001) })).toMatchObject({ status: 400, json: { message: 'notes: Notes must be at most 2000 characters' } });
    for (const notes of ['call\u0000back', 'call \ud800back']) {
      expect(await putNotes(id, { notes })).toMatchObject({ status: 400, json: { message: 'notes: Notes contains a character that cannot be stored.' } });
    }
    expect((await entryItem(id))!.notes).toBe('Strong catalogue; ask for the label deck.');
    expect((await putNotes(id, { notes: 'n'.repeat(2000) })).status).toBe(200);

    const cleared = await putNotes(id, { notes: '' });
    expect(cleared).toMatchObject({ status: 200, json: { id, notes: null } });
    expect((await entryItem(id))!.notes).toBeNull();
  });

  it('notes work on decided entries too', async () => {
    const id = await newEntry();
    await patch(id, { status: 'approved' });
    expect(await putNotes(id, { notes: 'Invited on 1 Dec' })).toMatchObject({ status: 200, json: { status: 'approved', notes: 'Invited on 1 Dec' } });
  });
});
