/**
 * The user's entity counters (lambdas/core/counters.ts) on DynamoDB Local: `contacts_count` on `STATS`
 * equals the user's number of `CONTACT#` items after every contact writer (form add, edit, delete, CSV
 * import, bulk delete, directory add, and their HTTP routes) and after a seeded random mix of them;
 * concurrent creates or deletes of one contact count once. `campaigns_sent` is never moved by a draft
 * (its first batch counts it: tests/integration/insights.test.ts). The backfill rebuilds both exactly.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoCampaignStore } from '../../lambdas/adapters/dynamodb/campaignStore';
import { contactItem, DynamoContactStore } from '../../lambdas/adapters/dynamodb/contactStore';
import { statsDayKey, statsTotalsKey } from '../../lambdas/adapters/dynamodb/counters';
import { profiledUserIds, readCounters, rebuildCounters } from '../../lambdas/adapters/dynamodb/countersBackfill';
import { CONTACTS_PER_TRANSACTION, DynamoDirectoryStore } from '../../lambdas/adapters/dynamodb/directoryStore';
import { countAll } from '../../lambdas/adapters/dynamodb/query';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { addressId } from '../../lambdas/core/contacts';
import { emptyDay } from '../../lambdas/core/counters';
import { seededRandom } from '../../lambdas/core/seededRandom';
import { directoryEntries } from '../../lib/local/seed';
import { isContactEmail, type Contact, type ContactInput } from '../../schema/api/contacts';
import { key } from '../../schema/table';
import { buildDraftContent } from '../fakes/builders';
import { call, createUser, dynamodb, stack, uniqueEmail, type TestUser } from './helpers';

const db = () => dynamodb().doc;
const tableName = () => stack().tableName;
const contacts = () => new DynamoContactStore(db(), tableName());
const directory = () => new DynamoDirectoryStore(db(), tableName());
const campaigns = () => new DynamoCampaignStore(db(), tableName(), { ids: ulidGenerator() });

/** Directory entries with a real address: each becomes a contact when added. */
const addressedEntries = directoryEntries.filter((entry) => isContactEmail(entry.email));
const NO_LIMIT = 1_000_000;

/** A user id with a profile (the directory add needs one), and nothing else. */
async function newUserId(): Promise<string> {
  const userId = randomUUID();
  await db().send(new PutCommand({ TableName: tableName(), Item: { PK: key.user(userId), SK: key.profile(), entity: 'profile', id: userId } }));
  return userId;
}

const newContact = (email: string, name = 'Mara Velvet'): ContactInput => ({
  name,
  email,
  label_name: null,
  contact_type: 'Label',
  position: null,
  genre: null,
  website_url: null,
  notes: null,
  time_zone: null,
});

/** How many contact items the user has (a consistent COUNT Query). */
const contactItems = (userId: string) =>
  countAll(db(), {
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :contact)',
    ExpressionAttributeValues: { ':pk': key.user(userId), ':contact': key.contactPrefix() },
    ConsistentRead: true,
  });

const contactsCount = async (userId: string) => (await readCounters(db(), tableName(), userId)).totals.contacts_count;

/** The counter says how many contacts there are, and that is `expected`. */
async function expectContacts(userId: string, expected: number, context = '') {
  expect(await contactItems(userId), context).toBe(expected);
  expect(await contactsCount(userId), context).toBe(expected);
}

/** A draft campaign created at `at` through the campaign store (Compose's write). */
const draftAt = (userId: string, at: string) => campaigns().createDraft(userId, buildDraftContent(), new Date(at));

describe('contacts_count: every contact writer', () => {
  it('moves by exactly what each writer created or deleted', async () => {
    const userId = await newUserId();
    const store = contacts();
    const now = new Date();
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((name) => uniqueEmail(`count-${name}`)) as [string, string, string, string, string];
    await expectContacts(userId, 0);

    // Form: a new address counts, a taken one (any case) does not.
    expect(await store.add(userId, newContact(a), now)).toMatchObject({ outcome: 'saved' });
    expect(await store.add(userId, newContact(a.toUpperCase()), now)).toEqual({ outcome: 'duplicate' });
    expect(await store.add(userId, newContact(b), now)).toMatchObject({ outcome: 'saved' });
    await expectContacts(userId, 2);

    // Edits: same address, a move to a new address, a move onto a taken one: never a change of count.
    const idA = addressId(userId, a);
    const idB = addressId(userId, b);
    expect(await store.update(userId, idA, newContact(a, 'Renamed'))).toMatchObject({ outcome: 'saved' });
    expect(await store.update(userId, idA, newContact(c))).toMatchObject({ outcome: 'saved' });
    expect(await store.update(userId, idB, newContact(c))).toEqual({ outcome: 'duplicate' });
    await expectContacts(userId, 2);

    // Delete: one less; a contact that is not there changes nothing.
    const idC = addressId(userId, c);
    expect(await store.remove(userId, idC)).toBe(true);
    expect(await store.remove(userId, idC)).toBe(false);
    expect(await store.remove(userId, addressId(userId, uniqueEmail('never')))).toBe(false);
    await expectContacts(userId, 1);

    // CSV import: only the rows that became contacts (a repeat in the batch and an existing address do not).
    const imported = await store.importMany(userId, [newContact(d), newContact(e), newContact(d.toUpperCase()), newContact(b)], now);
    expect(imported.created).toHaveLength(2);
    await expectContacts(userId, 3);

    // Bulk delete: only the contacts found (a missing id and a repeat do not).
    const idD = addressId(userId, d);
    expect((await store.removeMany(userId, [idD, addressId(userId, uniqueEmail('missing')), idD, addressId(userId, e)])).sort()).toEqual(
      [idD, addressId(userId, e)].sort(),
    );
    await expectContacts(userId, 1);

    // Directory add: the entries that became contacts, not one already a contact.
    const [first, second, third] = addressedEntries as [
      (typeof addressedEntries)[number],
      (typeof addressedEntries)[number],
      (typeof addressedEntries)[number],
    ];
    await store.add(userId, newContact(third.email), now);
    await expectContacts(userId, 2);
    const added = await directory().addToContacts(userId, [first.id, second.id, third.id], NO_LIMIT, now);
    expect(added).toMatchObject({ outcome: 'added' });
    expect(added.outcome === 'added' && added.added).toHaveLength(2);
    await expectContacts(userId, 4);
    // Again: all duplicates now, nothing counted.
    await directory().addToContacts(userId, [first.id, second.id], NO_LIMIT, now);
    await expectContacts(userId, 4);
  });

  it(`counts a directory add of more than ${CONTACTS_PER_TRANSACTION} entries (several transactions) exactly`, async () => {
    const userId = await newUserId();
    const entries = addressedEntries.slice(0, 120);
    expect(entries).toHaveLength(120);
    const added = await directory().addToContacts(
      userId,
      entries.map((entry) => entry.id),
      NO_LIMIT,
      new Date(),
    );
    expect(added.outcome === 'added' && added.added).toHaveLength(120);
    await expectContacts(userId, 120);
  });

  it('counts through the HTTP routes: add, a taken address (409), import, bulk delete, delete, a missing contact (404)', async () => {
    const user: TestUser = await createUser({ name: 'Counter Routes' });
    const api = (path: string, method: string, body?: unknown) => call(path, { method, token: user.idToken, ...(body === undefined ? {} : { body }) });
    const email = uniqueEmail('route');
    const form = { name: 'Mara Velvet', email, contact_type: 'Label' };
    const created = await api('/api/contacts', 'POST', form);
    expect(created.status).toBe(201);
    expect((await api('/api/contacts', 'POST', { ...form, email: email.toUpperCase() })).status).toBe(409);
    await expectContacts(user.sub, 1);

    const rows = [uniqueEmail('row'), uniqueEmail('row')];
    const imported = await api('/api/contacts/import', 'POST', { contacts: [...rows, email, rows[0]].map((address) => ({ email: address })) });
    expect(imported).toMatchObject({ status: 200, json: { skipped: 2 } });
    await expectContacts(user.sub, 3);

    const rowIds = rows.map((address) => addressId(user.sub, address));
    expect((await api('/api/contacts/bulk-delete', 'POST', { ids: [...rowIds, addressId(user.sub, uniqueEmail('gone'))] })).status).toBe(200);
    await expectContacts(user.sub, 1);

    const id = (created.json as unknown as Contact).id;
    expect((await api(`/api/contacts/${id}`, 'DELETE')).status).toBe(204);
    expect((await api(`/api/contacts/${id}`, 'DELETE')).status).toBe(404);
    await expectContacts(user.sub, 0);
  });

  it('counts one contact for concurrent creates of the same address, and one less for concurrent deletes of it', async () => {
    const userId = await newUserId();
    const store = contacts();
    const email = uniqueEmail('racer');
    const spellings = [email, email.toUpperCase(), ` ${email}`, email, email.toUpperCase(), email, ` ${email} `, email];
    const adds = await Promise.all(spellings.map((spelling, i) => store.add(userId, newContact(spelling.trim(), `Racer ${i}`), new Date())));
    expect(adds.filter((result) => result.outcome === 'saved')).toHaveLength(1);
    expect(adds.filter((result) => result.outcome === 'duplicate')).toHaveLength(spellings.length - 1);
    await expectContacts(userId, 1);

    const deletes = await Promise.all(Array.from({ length: 8 }, () => store.remove(userId, addressId(userId, email))));
    expect(deletes.filter(Boolean)).toHaveLength(1);
    await expectContacts(userId, 0);
  });

  it('counts every one of many concurrent writers of different contacts (they all write STATS)', async () => {
    const userId = await newUserId();
    const store = contacts();
    const now = new Date();
    const emails = Array.from({ length: 12 }, () => uniqueEmail('busy'));
    await Promise.all([
      ...emails.slice(0, 8).map((email) => store.add(userId, newContact(email), now)),
      store.importMany(
        userId,
        emails.slice(8).map((email) => newContact(email)),
        now,
      ),
      directory().addToContacts(
        userId,
        addressedEntries.slice(0, 3).map((entry) => entry.id),
        NO_LIMIT,
        now,
      ),
    ]);
    await expectContacts(userId, 15);
    await Promise.all(emails.slice(0, 6).map((email) => store.remove(userId, addressId(userId, email))));
    await expectContacts(userId, 9);
  });

  it('equals the contacts after a seeded random mix of every writer', async () => {
    const seed = 20261126;
    const random = seededRandom(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const some = <T>(items: readonly T[], most: number): T[] => Array.from({ length: 1 + Math.floor(random() * most) }, () => pick(items));
    const userId = await newUserId();
    const store = contacts();
    // A small pool of addresses (some the directory's), so the writers keep meeting on the same contacts.
    const entries = addressedEntries.slice(0, 10);
    const pool = [...Array.from({ length: 14 }, (_, i) => `mix-${seed}-${i}@counters.test`), ...entries.map((entry) => entry.email)];
    const idOf = (email: string) => addressId(userId, email);
    const operations: Record<string, () => Promise<unknown>> = {
      add: () => store.add(userId, newContact(pick(pool)), new Date()),
      addTakenInOtherCase: () => store.add(userId, newContact(pick(pool).toUpperCase()), new Date()),
      edit: () => store.update(userId, idOf(pick(pool)), newContact(pick(pool))),
      delete: () => store.remove(userId, idOf(pick(pool))),
      import: () =>
        store.importMany(
          userId,
          some(pool, 8).map((email) => newContact(email)),
          new Date(),
        ),
      bulkDelete: () => store.removeMany(userId, [...some(pool, 6).map(idOf), idOf(uniqueEmail('missing'))]),
      directoryAdd: () => directory().addToContacts(userId, [...new Set(some(entries, 4).map((entry) => entry.id))], NO_LIMIT, new Date()),
    };
    const names = Object.keys(operations);
    const done: string[] = [];
    for (let step = 0; step < 80; step++) {
      const name = pick(names);
      await operations[name]!();
      done.push(name);
      const items = await contactItems(userId);
      expect(await contactsCount(userId), `seed ${seed}, step ${step}: ${done.join(', ')}`).toBe(items);
    }
    // The mix did reach every writer and left contacts to count.
    expect(new Set(done)).toEqual(new Set(names));
  });
});

describe('campaigns_sent: drafts are not sent campaigns', () => {
  it('creating and deleting drafts, one by one and concurrently, writes no campaign counter', async () => {
    const userId = await newUserId();
    const otherId = await newUserId();
    const store = campaigns();
    const drafts = [await draftAt(userId, '2026-03-08T07:59:30.000Z'), await draftAt(userId, '2026-07-01T07:00:10.000Z')];
    drafts.push(...(await Promise.all(Array.from({ length: 10 }, () => draftAt(userId, '2026-11-20T18:00:00.000Z')))));
    await Promise.all(drafts.slice(0, 6).map((draft) => store.deleteDraft(userId, draft.id)));
    for (const id of [userId, otherId]) {
      const { totals, days } = await readCounters(db(), tableName(), id);
      expect(totals.campaigns_sent).toBe(0);
      expect(days.size, 'no day item at all').toBe(0);
    }
    expect(await store.list(userId)).toHaveLength(6);
  });
});

describe('rebuildCounters (backfill) of contacts_count and campaigns_sent', () => {
  it('reproduces the live counters exactly once they are deleted, and a second run changes nothing', async () => {
    const userId = await newUserId();
    const store = contacts();
    const emails = Array.from({ length: 7 }, () => uniqueEmail('backfill'));
    for (const email of emails.slice(0, 3)) await store.add(userId, newContact(email), new Date());
    await store.importMany(
      userId,
      emails.slice(3).map((email) => newContact(email)),
      new Date(),
    );
    await store.remove(userId, addressId(userId, emails[0]!));
    await draftAt(userId, '2026-11-20T07:30:00.000Z');
    await draftAt(userId, '2026-11-21T18:00:00.000Z');
    const live = await readCounters(db(), tableName(), userId);
    expect(live.totals).toMatchObject({ contacts_count: 6, campaigns_sent: 0 });

    // As before the counters: none stored.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: statsTotalsKey(userId) }));
    for (const day of live.days.keys()) await db().send(new DeleteCommand({ TableName: tableName(), Key: statsDayKey(userId, day) }));
    expect((await readCounters(db(), tableName(), userId)).totals.contacts_count).toBe(0);

    expect(await rebuildCounters(db(), tableName(), userId)).toEqual(live);
    expect(await readCounters(db(), tableName(), userId)).toEqual(live);
    await rebuildCounters(db(), tableName(), userId);
    expect(await readCounters(db(), tableName(), userId)).toEqual(live);
  });

  it('counts an account written before the counters (items put without them), over several pages of contacts', async () => {
    const userId = await newUserId();
    const createdAt = '2026-10-01T12:00:00.000Z';
    // A long note per contact: 1,300 of them are more than one 1 MB Query page.
    const notes = 'n'.repeat(1000);
    const many = Array.from({ length: 1300 }, (_, i) => `old-${i}-${userId}@counters.test`);
    await Promise.all(
      many.map((email) =>
        db().send(
          new PutCommand({
            TableName: tableName(),
            Item: contactItem(userId, { ...newContact(email), notes, id: addressId(userId, email), genre_focus: null, created_at: createdAt }),
          }),
        ),
      ),
    );
    const ids = ulidGenerator();
    // Sent campaigns count on the day they were first queued, one sent before that time was kept on the day it
    // was created, a draft never.
    const stored = [
      { status: 'completed', created_at: '2026-09-20T12:00:00.000Z', started_sending_at: '2026-10-01T06:59:00.000Z' },
      { status: 'completed', created_at: '2026-10-01T07:01:00.000Z' },
      { status: 'draft', created_at: '2026-10-01T08:00:00.000Z', started_sending_at: null },
    ];
    for (const campaign of stored) {
      const id = ids.next(new Date(campaign.created_at));
      await db().send(new PutCommand({ TableName: tableName(), Item: { PK: key.user(userId), SK: key.campaign(id), entity: 'campaign', id, ...campaign } }));
    }
    const firstPage = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :contact)',
        ExpressionAttributeValues: { ':pk': key.user(userId), ':contact': key.contactPrefix() },
        Select: 'COUNT',
      }),
    );
    expect(firstPage.LastEvaluatedKey, 'the contacts fill more than one page').toBeDefined();
    const rebuilt = await rebuildCounters(db(), tableName(), userId);
    expect(rebuilt.totals).toMatchObject({ contacts_count: 1300, campaigns_sent: 2 });
    expect(Object.fromEntries(rebuilt.days)).toEqual({
      '2026-09-30': { ...emptyDay(), campaigns_sent: 1 }, // first queued 23:59 PDT
      '2026-10-01': { ...emptyDay(), campaigns_sent: 1 }, // no started_sending_at: created 00:01 PDT
    });
    expect(await readCounters(db(), tableName(), userId)).toEqual(rebuilt);
    // From here on the writers keep it exact.
    await contacts().remove(userId, addressId(userId, many[0]!));
    await expectContacts(userId, 1299);
  });

  it('finds every user with a profile for the rebuild of all accounts (--all), and nothing that is not a profile', async () => {
    const [first, second] = [await newUserId(), await newUserId()];
    await contacts().add(first, newContact(`all-${first}@counters.test`), new Date());
    const found: string[] = [];
    for await (const userId of profiledUserIds(db(), tableName())) found.push(userId);
    expect(found).toEqual(expect.arrayContaining([first, second]));
    expect(new Set(found).size, 'each user once').toBe(found.length);
    expect(
      found.every((userId) => !userId.includes('#')),
      'user ids only, no other partitions',
    ).toBe(true);
  });
});
