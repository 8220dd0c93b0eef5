/**
 * The unsubscribed list end to end: records written by DynamoUnsubscribeStore.record (as the sender
 * will write them) read through the local server with real tokens; resubscribe removes the record;
 * another user's records are never reachable.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoUnsubscribeStore } from '../../lambdas/adapters/dynamodb/unsubscribeStore';
import { addressId } from '../../lambdas/core/contacts';
import { contactMessages, unsubscribeSchema, type Unsubscribe } from '../../schema/api/contacts';
import { key } from '../../schema/table';
import { call, createUser, dynamodb, stack, uniqueEmail, type TestUser } from './helpers';

const store = () => new DynamoUnsubscribeStore(dynamodb().doc, stack().tableName);
const api = (user: TestUser, path: string, method = 'GET', body?: unknown) =>
  call(path, { method, token: user.idToken, ...(body === undefined ? {} : { body }) });
/** Resubscribe as the page does: the artist confirmed the recipient asked to be added back. */
const resubscribe = (user: TestUser, id: string) => api(user, `/api/unsubscribes/${id}`, 'DELETE', { recipient_asked: true });
const UNSUBSCRIBE_FIELDS = Object.keys(unsubscribeSchema.shape).sort();

const record = (user: TestUser, overrides: Partial<Omit<Unsubscribe, 'id'>> = {}) =>
  store().record(user.sub, {
    contact_name: 'Mara Velvet',
    contact_email: uniqueEmail('unsub'),
    unsubscribed_at: '2026-11-20T10:00:00.000Z',
    unsubscribe_reason: 'Too many emails',
    unsubscribe_reason_details: null,
    campaign_id: '01KAKZ3R0000000000000000AA',
    track_name: 'Midnight Drive',
    ...overrides,
  });

async function storedItems(sub: string, prefix: string) {
  const { Items } = await dynamodb().doc.send(
    new QueryCommand({
      TableName: stack().tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': key.user(sub), ':prefix': prefix },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}
const storedUnsubscribes = (sub: string) => storedItems(sub, key.unsubscribePrefix());

describe('GET /api/unsubscribes and /api/unsubscribes/count', () => {
  let user: TestUser;
  let records: Unsubscribe[];
  beforeAll(async () => {
    user = await createUser({ name: 'Unsubscribed Lister' });
    records = [
      await record(user, { unsubscribed_at: '2026-11-18T09:00:00.000Z', contact_name: 'Oldest' }),
      await record(user, {
        unsubscribed_at: '2026-11-21T22:30:00.000Z',
        contact_name: 'Newest',
        unsubscribe_reason: 'Other',
        unsubscribe_reason_details: 'Moved to another label.',
        track_name: 'Neon Rain',
      }),
      await record(user, { unsubscribed_at: '2026-11-20T12:00:00.000Z', contact_name: null, unsubscribe_reason: null, campaign_id: null, track_name: null }),
    ];
  });

  it('lists every record newest first, with the track name, in exactly the contract fields', async () => {
    const response = await api(user, '/api/unsubscribes');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ unsubscribes: [records[1], records[2], records[0]] });
    for (const unsubscribe of response.json!.unsubscribes as Unsubscribe[]) expect(Object.keys(unsubscribe).sort()).toEqual(UNSUBSCRIBE_FIELDS);
    expect(records[1]).toMatchObject({ track_name: 'Neon Rain', unsubscribe_reason: 'Other', unsubscribe_reason_details: 'Moved to another label.' });
  });

  it('counts them', async () => {
    expect(await api(user, '/api/unsubscribes/count')).toMatchObject({ status: 200, json: { count: 3 } });
  });

  it('answers an empty list and 0 to a user nobody unsubscribed from', async () => {
    const fresh = await createUser({ name: 'Nobody Left' });
    expect(await api(fresh, '/api/unsubscribes')).toMatchObject({ status: 200, json: { unsubscribes: [] } });
    expect(await api(fresh, '/api/unsubscribes/count')).toMatchObject({ status: 200, json: { count: 0 } });
  });
});

describe('recording an unsubscribe', () => {
  it('keys the record by the address: the same address again (any case) replaces it, so it is listed once', async () => {
    const user = await createUser({ name: 'Re-unsubscribed' });
    const email = uniqueEmail('twice');
    const first = await record(user, { contact_email: email });
    const second = await record(user, { contact_email: email.toUpperCase(), unsubscribed_at: '2026-11-22T08:00:00.000Z', unsubscribe_reason: 'Wrong genre' });
    expect(second.id).toBe(first.id);
    expect(first.id).toBe(addressId(user.sub, email));
    expect((await api(user, '/api/unsubscribes')).json).toEqual({ unsubscribes: [second] });
    expect(await storedUnsubscribes(user.sub)).toHaveLength(1);
  });
});

describe('DELETE /api/unsubscribes/{id} (resubscribe)', () => {
  it('removes the record (204); the list is then empty and a second resubscribe is a 404', async () => {
    const user = await createUser({ name: 'Resubscriber' });
    const unsubscribe = await record(user);
    const response = await resubscribe(user, unsubscribe.id);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(await api(user, '/api/unsubscribes')).toMatchObject({ status: 200, json: { unsubscribes: [] } });
    expect((await api(user, '/api/unsubscribes/count')).json).toEqual({ count: 0 });
    expect(await storedUnsubscribes(user.sub)).toEqual([]);
    expect(await resubscribe(user, unsubscribe.id)).toMatchObject({
      status: 404,
      json: { message: contactMessages.unsubscribeNotFound },
    });
  });

  it('removes only the one record it names', async () => {
    const user = await createUser({ name: 'Partial Resubscriber' });
    const kept = await record(user, { contact_name: 'Kept' });
    const removed = await record(user, { contact_name: 'Removed' });
    expect((await resubscribe(user, removed.id)).status).toBe(204);
    expect((await api(user, '/api/unsubscribes')).json).toEqual({ unsubscribes: [kept] });
  });

  it('answers 404 to an id that cannot be an unsubscribe id, without touching anything', async () => {
    const user = await createUser({ name: 'Odd Id' });
    const unsubscribe = await record(user);
    for (const id of ['not-an-id', `${unsubscribe.id}x`, 'UNSUB%23abc']) {
      expect(await resubscribe(user, id), id).toMatchObject({ status: 404, json: { message: contactMessages.unsubscribeNotFound } });
    }
    expect((await api(user, '/api/unsubscribes')).json).toEqual({ unsubscribes: [unsubscribe] });
  });

  it("answers 404 to another user's unsubscribe id, which stays on that user's list", async () => {
    const alice = await createUser({ name: 'Alice Unsub' });
    const bob = await createUser({ name: 'Bob Unsub' });
    const alices = await record(alice);
    expect(await resubscribe(bob, alices.id)).toMatchObject({ status: 404, json: { message: contactMessages.unsubscribeNotFound } });
    expect((await api(alice, '/api/unsubscribes')).json).toEqual({ unsubscribes: [alices] });
    expect((await api(bob, '/api/unsubscribes')).json).toEqual({ unsubscribes: [] });
    expect((await api(bob, '/api/unsubscribes/count')).json).toEqual({ count: 0 });
  });

  it('needs the artist to confirm the recipient asked to be added back: without it, 400 and the record stays', async () => {
    const user = await createUser({ name: 'Careful Resubscriber' });
    const unsubscribe = await record(user);
    for (const body of [undefined, {}, { recipient_asked: false }, { recipient_asked: 'yes' }]) {
      expect(await api(user, `/api/unsubscribes/${unsubscribe.id}`, 'DELETE', body), JSON.stringify(body)).toMatchObject({
        status: 400,
        json: { message: contactMessages.resubscribeNeedsRequest },
      });
    }
    expect((await api(user, '/api/unsubscribes')).json).toEqual({ unsubscribes: [unsubscribe] });
    expect(await storedItems(user.sub, 'RESUB#')).toEqual([]);
  });

  it('keeps who resubscribed the address and when, beside the opt-out it removed', async () => {
    const user = await createUser({ name: 'Accountable Resubscriber' });
    const unsubscribe = await record(user, { unsubscribe_reason: 'Not my genre' });
    const before = new Date().toISOString();
    expect((await resubscribe(user, unsubscribe.id)).status).toBe(204);
    const kept = await storedItems(user.sub, 'RESUB#');
    expect(kept).toEqual([
      expect.objectContaining({
        entity: 'resubscribed',
        contact_email: unsubscribe.contact_email,
        unsubscribed_at: unsubscribe.unsubscribed_at,
        unsubscribe_reason: 'Not my genre',
        campaign_id: unsubscribe.campaign_id,
        resubscribed_by: user.sub,
        resubscribed_by_email: user.email,
      }),
    ]);
    expect(String(kept[0]!.resubscribed_at) >= before).toBe(true);
    expect(kept[0]!.SK).toBe(key.resubscribed(unsubscribe.id, String(kept[0]!.resubscribed_at)));
  });
});
