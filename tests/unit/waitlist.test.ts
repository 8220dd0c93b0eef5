/** The waitlist's pure rules (lambdas/core/waitlist.ts) and its handlers over an in-memory store. */
import { describe, expect, it } from 'vitest';
import { decodeTime } from 'ulid';
import { decisionUpdate, isWaitlistEntryId, newWaitlistEntry, normaliseNotes, waitlistSpots } from '../../lambdas/core/waitlist';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { noClientLimit } from '../fakes/clientLimit';
import { makeHandler as makeWaitlistHandler, parseJoin } from '../../lambdas/http/waitlist';
import { makeHandler as makeAdminHandler } from '../../lambdas/http/admin';
import { BETA_SPOTS, waitlistJoinSchema, waitlistMessages, type WaitlistEntry } from '../../schema/api/waitlist';
import { key } from '../../schema/table';
import { buildApiEvent, makeLambdaContext } from '../../lib/local/event';
import { memoryWaitlist } from '../fakes/waitlist';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { makeDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { DynamoWaitlistStore } from '../../lambdas/adapters/dynamodb/waitlistStore';
import { unusedDirectory } from '../fakes/directory';
import { stringContaining } from '../support/matchers';

const now = new Date('2026-11-21T10:00:00.000Z');
const clock = { now: () => now };
const ID = '01KAKZ3R0000000000000000AA';

describe('newWaitlistEntry', () => {
  it('makes a pending entry submitted now, with no approval and no notes', () => {
    const join = waitlistJoinSchema.parse({
      email: ' Ada@Example.COM ',
      artist_name: ' Ada ',
      music_style: 'Techno',
      soundcloud_spotify_url: '',
      why_interested: '  ',
    });
    expect(newWaitlistEntry(join, now, ID)).toEqual({
      id: ID,
      email: 'ada@example.com',
      artist_name: 'Ada',
      music_style: 'Techno',
      soundcloud_spotify_url: null,
      why_interested: null,
      status: 'pending',
      submitted_at: '2026-11-21T10:00:00.000Z',
      approved_at: null,
      notes: null,
    });
  });

  it('keeps the optional fields when given', () => {
    const join = waitlistJoinSchema.parse({
      email: 'b@example.com',
      artist_name: 'B',
      music_style: 'House',
      soundcloud_spotify_url: 'https://soundcloud.com/b',
      why_interested: 'Labels',
    });
    const entry = newWaitlistEntry(join, now, ID);
    expect(entry.soundcloud_spotify_url).toBe('https://soundcloud.com/b');
    expect(entry.why_interested).toBe('Labels');
  });
});

describe('waitlistSpots', () => {
  it('counts down from the beta size and never below 0', () => {
    expect(waitlistSpots(0)).toEqual({ total: BETA_SPOTS, taken: 0, remaining: 50 });
    expect(waitlistSpots(13)).toEqual({ total: 50, taken: 13, remaining: 37 });
    expect(waitlistSpots(50)).toEqual({ total: 50, taken: 50, remaining: 0 });
    expect(waitlistSpots(60)).toEqual({ total: 50, taken: 60, remaining: 0 });
    expect(waitlistSpots(-3)).toEqual({ total: 50, taken: 0, remaining: 50 });
  });
});

describe('decisions', () => {
  it('approving sets approved_at to now; rejecting leaves it null', () => {
    expect(decisionUpdate('approved', now)).toEqual({ status: 'approved', approved_at: now.toISOString() });
    expect(decisionUpdate('rejected', now)).toEqual({ status: 'rejected', approved_at: null });
  });
});

describe('notes', () => {
  it('a blank text clears them', () => {
    expect(normaliseNotes('')).toBeNull();
    expect(normaliseNotes('   \n')).toBeNull();
    expect(normaliseNotes(' Strong techno catalogue ')).toBe('Strong techno catalogue');
  });
});

describe('entry ids', () => {
  it('are ULIDs carrying the submission time, sorting in creation order even within one millisecond', () => {
    const ids = ulidGenerator();
    const made = Array.from({ length: 50 }, () => ids.next(now));
    expect(made.every(isWaitlistEntryId)).toBe(true);
    expect(decodeTime(made[0]!)).toBe(now.getTime());
    expect([...made].sort()).toEqual(made);
    const later = ids.next(new Date(now.getTime() + 1));
    expect(later > made.at(-1)!).toBe(true);
  });

  it('anything else is not an id (404 without a read)', () => {
    for (const id of ['', 'abc', `${ID}X`, ID.toLowerCase(), '01KAKZ3R0000000000000000AI', 'ENTRY#x', '../COUNTER']) {
      expect(isWaitlistEntryId(id), id).toBe(false);
    }
  });

  it('give the sort key, distinct from the email guard and the counter', () => {
    expect(key.waitlistEntry(ID)).toBe(`ENTRY#${ID}`);
    expect(key.waitlistEntry(ID).startsWith(key.waitlistEntryPrefix())).toBe(true);
    expect(key.waitlistEmail('a@example.com').startsWith(key.waitlistEntryPrefix())).toBe(false);
    expect(key.waitlistCounter().startsWith(key.waitlistEntryPrefix())).toBe(false);
  });
});

describe('parseJoin', () => {
  const valid = { email: 'a@example.com', artist_name: 'A', music_style: 'House' };
  const message = (body: unknown) => {
    try {
      parseJoin(body);
      return 'parsed';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it("answers the spec's one message when a required field is missing, null or blank, even alongside other problems", () => {
    for (const field of ['email', 'artist_name', 'music_style'] as const) {
      const { [field]: _omitted, ...missing } = valid;
      expect(message(missing), field).toBe(waitlistMessages.required);
      expect(message({ ...valid, [field]: null }), field).toBe(waitlistMessages.required);
      expect(message({ ...valid, [field]: '   ' }), field).toBe(waitlistMessages.required);
    }
    expect(message({ artist_name: 'A', music_style: 'Polka' })).toBe(waitlistMessages.required);
  });

  it('names the field for other problems', () => {
    expect(message({ ...valid, email: 'not-an-email' })).toBe('email: Enter a valid email address');
    expect(message({ ...valid, email: 5 })).toBe('email must be a string');
    expect(message({ ...valid, extra: 1 })).toBe('Unknown field: extra');
    expect(message([valid])).toBe('The request body must be a JSON object.');
    expect(message(undefined)).toBe('The request needs a JSON body.');
    expect(message(valid)).toBe('parsed');
  });
});

function apiEvent(method: string, path: string, options: { body?: unknown; params?: Record<string, string>; admin?: boolean } = {}) {
  return buildApiEvent({
    method,
    url: path.replace('{id}', options.params?.id ?? ''),
    headers: options.body !== undefined ? { 'content-type': 'application/json' } : {},
    body: options.body !== undefined ? Buffer.from(JSON.stringify(options.body)) : undefined,
    sourceIp: '127.0.0.1',
    route: { method: method as 'GET', path },
    pathParameters: options.params ?? {},
    claims:
      options.admin === undefined ? undefined : { sub: 'admin-1', email: 'admin@example.com', ...(options.admin ? { 'cognito:groups': ['admins'] } : {}) },
    requestId: 'req-1',
    now,
  });
}
const context = () => makeLambdaContext({ functionName: 'test', awsRequestId: 'req-1', region: 'us-east-1', timeoutMs: 10_000 });
const bodyOf = (result: { statusCode?: number; body?: string }) => ({ status: result.statusCode, body: JSON.parse(result.body ?? 'null') as unknown });

describe('the waitlist handlers over an in-memory store', () => {
  const entry = (id: string, status: WaitlistEntry['status'] = 'pending'): WaitlistEntry => ({
    id,
    email: `${id.toLowerCase()}@example.com`,
    artist_name: 'A',
    music_style: 'House',
    soundcloud_spotify_url: null,
    why_interested: null,
    status,
    submitted_at: now.toISOString(),
    approved_at: null,
    notes: null,
  });

  it('join: 201 with the id, then 409 for the same email in another case; spots count it', async () => {
    const store = memoryWaitlist();
    const handler = makeWaitlistHandler({ waitlist: store, clock, ids: { next: () => ID }, clientLimit: noClientLimit });
    const first = bodyOf(
      await handler(apiEvent('POST', '/api/waitlist', { body: { email: 'Nova@Example.com', artist_name: 'Nova', music_style: 'Techno' } }), context()),
    );
    expect(first).toEqual({ status: 201, body: store.entries.get(ID) });
    expect(first.body).toMatchObject({ id: ID, status: 'pending', submitted_at: now.toISOString(), approved_at: null, notes: null });
    expect(store.entries.get(ID)?.email).toBe('nova@example.com');
    const again = bodyOf(
      await handler(apiEvent('POST', '/api/waitlist', { body: { email: 'NOVA@example.com', artist_name: 'Nova', music_style: 'Techno' } }), context()),
    );
    expect(again).toEqual({ status: 409, body: { message: waitlistMessages.duplicate } });
    expect(bodyOf(await handler(apiEvent('GET', '/api/waitlist/spots'), context()))).toEqual({ status: 200, body: { total: 50, taken: 1, remaining: 49 } });
  });

  it('admin: decide once, 409 after, 404 for an unknown or malformed id, notes set and cleared', async () => {
    const id = '01KAKZ3R0000000000000000BB';
    const store = memoryWaitlist([entry(id)]);
    const handler = makeAdminHandler({ waitlist: store, directory: unusedDirectory(), clock });
    const patch = (params: Record<string, string>, body: unknown) =>
      handler(apiEvent('PATCH', '/api/admin/waitlist/{id}', { params, body, admin: true }), context()).then(bodyOf);
    expect(await patch({ id }, { status: 'approved' })).toMatchObject({ status: 200, body: { id, status: 'approved', approved_at: now.toISOString() } });
    expect(await patch({ id }, { status: 'rejected' })).toEqual({ status: 409, body: { message: waitlistMessages.notPending } });
    expect(await patch({ id: '01KAKZ3R0000000000000000CC' }, { status: 'approved' })).toEqual({ status: 404, body: { message: 'Waitlist entry not found' } });
    expect(await patch({ id: 'COUNTER' }, { status: 'approved' })).toEqual({ status: 404, body: { message: 'Waitlist entry not found' } });
    expect(await patch({ id }, { status: 'pending' })).toMatchObject({ status: 400 });

    const notes = (text: string) =>
      handler(apiEvent('PUT', '/api/admin/waitlist/{id}/notes', { params: { id }, body: { notes: text }, admin: true }), context()).then(bodyOf);
    expect(await notes('Great catalogue')).toMatchObject({ status: 200, body: { id, notes: 'Great catalogue' } });
    expect(await notes('')).toMatchObject({ status: 200, body: { id, notes: null } });
  });

  it('admin routes refuse a signed-in user outside admins with 403 and change nothing', async () => {
    const id = '01KAKZ3R0000000000000000BB';
    const store = memoryWaitlist([entry(id)]);
    const handler = makeAdminHandler({ waitlist: store, directory: unusedDirectory(), clock });
    const before = structuredClone(store.entries.get(id));
    expect((await handler(apiEvent('GET', '/api/admin/waitlist', { admin: false }), context())).statusCode).toBe(403);
    expect(
      (await handler(apiEvent('PATCH', '/api/admin/waitlist/{id}', { params: { id }, body: { status: 'approved' }, admin: false }), context())).statusCode,
    ).toBe(403);
    expect(
      (await handler(apiEvent('PUT', '/api/admin/waitlist/{id}/notes', { params: { id }, body: { notes: 'x' }, admin: false }), context())).statusCode,
    ).toBe(403);
    expect(store.entries.get(id)).toEqual(before);
  });
});

describe('DynamoWaitlistStore.add under transaction conflicts (real DynamoDB cancels a transaction that collides with another)', () => {
  const cancelled = (...codes: string[]) =>
    new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
  const entry = newWaitlistEntry(waitlistJoinSchema.parse({ email: 'c@example.com', artist_name: 'C', music_style: 'Trance' }), now, ID);

  function storeWith(...outcomes: (Error | 'ok')[]) {
    const client = new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const db = makeDocumentClient(client);
    const mock = mockClient(db);
    let call = mock.on(TransactWriteCommand);
    for (const outcome of outcomes) call = outcome === 'ok' ? call.resolvesOnce({}) : call.rejectsOnce(outcome);
    return { store: new DynamoWaitlistStore(db, 'table', () => Promise.resolve(undefined)), mock };
  }

  it('retries a conflict (e.g. on the shared counter) and then adds', async () => {
    const { store, mock } = storeWith(cancelled('None', 'None', 'TransactionConflict'), 'ok');
    expect(await store.add(entry)).toEqual({ outcome: 'added', entry });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('retries a conflict on the email guard, then reports the duplicate the retry finds', async () => {
    const { store } = storeWith(cancelled('TransactionConflict', 'None', 'None'), cancelled('ConditionalCheckFailed', 'None', 'None'));
    expect(await store.add(entry)).toEqual({ outcome: 'duplicate' });
  });

  it('gives up after a few conflicts and throws (a 500 with the request id)', async () => {
    const { store, mock } = storeWith(...Array.from({ length: 10 }, () => cancelled('None', 'None', 'TransactionConflict')));
    await expect(store.add(entry)).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(7);
  });

  it('writes guard, entry and counter in one transaction, the puts conditional', async () => {
    const { store, mock } = storeWith('ok');
    await store.add(entry);
    const input = mock.commandCalls(TransactWriteCommand)[0]!.args[0].input;
    // Idempotent: an SDK retry after a lost response is not mistaken for a duplicate.
    expect(input.ClientRequestToken).toBe(entry.id);
    const [guard, put, count] = input.TransactItems!;
    expect(guard!.Put).toMatchObject({ Item: { PK: 'WAITLIST', SK: 'EMAIL#c@example.com', entry_id: ID }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(put!.Put).toMatchObject({ Item: { PK: 'WAITLIST', SK: `ENTRY#${ID}`, email: 'c@example.com' }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(count!.Update).toMatchObject({ Key: { PK: 'WAITLIST', SK: 'COUNTER' }, UpdateExpression: stringContaining('ADD entries :one') });
  });
});
