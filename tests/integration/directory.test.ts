/**
 * The LabelFinder directory end to end on DynamoDB Local and cognito-local: GET /api/directory and
 * POST /api/directory/contacts through the shared local server (allowance, duplicates, the atomic
 * counter under concurrent adds), the store's answers to writes that happen between its read and its
 * transaction, and the admin import (POST /api/admin/directory and `npm run directory:import`) on a
 * local server of its own over a table of its own, so the shared table keeps exactly the seeded
 * directory other tests count.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { buildDemoPolicy } from '../fakes/builders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactItem, DynamoContactStore } from '../../lambdas/adapters/dynamodb/contactStore';
import { CONTACTS_PER_TRANSACTION, directoryItem, DynamoDirectoryStore } from '../../lambdas/adapters/dynamodb/directoryStore';
import { DynamoProfileStore } from '../../lambdas/adapters/dynamodb/profileStore';
import { queryAll } from '../../lambdas/adapters/dynamodb/query';
import { DynamoWaitlistStore } from '../../lambdas/adapters/dynamodb/waitlistStore';
import { systemClock } from '../../lambdas/adapters/clock';
import { contactFromDirectoryEntry } from '../../lambdas/core/contacts';
import { directoryImportMessages } from '../../lambdas/core/directoryImport';
import { makeHandler as makeAdminHandler } from '../../lambdas/http/admin';
import { makeHandler as makeDirectoryHandler } from '../../lambdas/http/directory';
import { ensureTable } from '../../lib/local/dynamodb';
import { directoryEntries, seedSystemData } from '../../lib/local/seed';
import type { LambdaHandler, LocalServer } from '../../lib/local/server';
import type { Contact } from '../../schema/api/contacts';
import {
  applyDirectoryDefaults,
  DIRECTORY_IMPORT_MAX_BYTES,
  DIRECTORY_LIMIT_CODE,
  DIRECTORY_MAX_ENTRIES,
  directoryEntrySchema,
  directoryTooLarge,
  directoryMessages,
  type DirectoryEntry,
} from '../../schema/api/directory';
import { genreLabels } from '../../schema/api/options';
import type { Tier } from '../../schema/api/profile';
import { indexes, key } from '../../schema/table';
import { adminTokens, call, callAt, createUser, dynamodb, stack, startServer, type TestUser } from './helpers';
import { anyString, anything, stringMatching } from '../support/matchers';

const table = () => stack().tableName;
const labels = directoryEntries.filter((entry) => entry.contact_type === 'Label');
const djs = directoryEntries.filter((entry) => entry.contact_type === 'DJ');
const ENTRY_FIELDS = Object.keys(directoryEntrySchema.shape).sort();

/** A signed-in user whose profile exists (GET /api/directory creates it, as the page does). */
async function newUser(): Promise<TestUser> {
  const user = await createUser();
  expect((await call('/api/directory', { token: user.idToken })).status).toBe(200);
  return user;
}

const addEntries = (user: TestUser, ids: string[], base?: string) =>
  (base ? callAt(base) : call)('/api/directory/contacts', { method: 'POST', token: user.idToken, body: { entry_ids: ids } });

async function profileItem(sub: string, tableName = table()) {
  const { Item } = await dynamodb().doc.send(new GetCommand({ TableName: tableName, Key: { PK: key.user(sub), SK: key.profile() }, ConsistentRead: true }));
  return Item;
}

const usedAdditions = async (sub: string) => Number((await profileItem(sub))?.labelfinder_additions_count);

/** Sets the counter and/or tier on the profile item itself (what the billing code will do for tiers). */
async function setProfile(sub: string, fields: { labelfinder_additions_count?: number; tier?: Tier }) {
  const entries = Object.entries(fields);
  await dynamodb().doc.send(
    new UpdateCommand({
      TableName: table(),
      Key: { PK: key.user(sub), SK: key.profile() },
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
      ConditionExpression: 'attribute_exists(PK)',
    }),
  );
}

/** Every contact item of the user, read from the table (consistent). */
const contactItems = (sub: string) =>
  queryAll(dynamodb().doc, {
    TableName: table(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :contact)',
    ExpressionAttributeValues: { ':pk': key.user(sub), ':contact': key.contactPrefix() },
    ConsistentRead: true,
  });

const contactFor = (sub: string, entry: DirectoryEntry, createdAt: string): Contact => contactFromDirectoryEntry(sub, entry, createdAt);

describe('GET /api/directory', () => {
  it('needs a token', async () => {
    const response = await call('/api/directory');
    expect(response.status).toBe(401);
  });

  it('returns every seeded entry in id order, only the entry fields, and a new free user’s allowance', async () => {
    const user = await createUser();
    const response = await call('/api/directory', { token: user.idToken });
    expect(response.status).toBe(200);
    const body = response.json as { entries: DirectoryEntry[]; allowance: unknown };
    expect(body.entries).toHaveLength(stack().seeded.directoryEntries);
    expect(body.entries).toEqual(directoryEntries);
    for (const entry of body.entries) expect(Object.keys(entry).sort()).toEqual(ENTRY_FIELDS);
    expect(body.allowance).toEqual({ used: 0, limit: 5 });
    expect(response.json).toMatchObject({ in_contacts: [] });
    // The first read created the profile the allowance is counted on.
    expect(await profileItem(user.sub)).toMatchObject({ tier: 'free', labelfinder_additions_count: 0 });
  });

  it('reports a paid tier’s limit and the additions so far', async () => {
    const user = await newUser();
    await setProfile(user.sub, { tier: 'pro', labelfinder_additions_count: 12 });
    expect((await call('/api/directory', { token: user.idToken })).json?.allowance).toEqual({ used: 12, limit: 1000 });
  });

  it('names the entries already in the caller’s contacts (added from the directory or typed by hand), and only the caller’s', async () => {
    const user = await newUser();
    const other = await newUser();
    const [fromDirectory, byHand] = [labels[10]!, labels[11]!];
    expect((await addEntries(user, [fromDirectory.id])).status).toBe(200);
    const typed: Contact = { ...contactFor(user.sub, byHand, new Date().toISOString()), email: byHand.email.toUpperCase() };
    await dynamodb().doc.send(new PutCommand({ TableName: table(), Item: contactItem(user.sub, typed) }));
    const inContacts = (await call('/api/directory', { token: user.idToken })).json?.in_contacts as string[];
    expect([...inContacts].sort()).toEqual([fromDirectory.id, byHand.id].sort());
    expect((await call('/api/directory', { token: other.idToken })).json?.in_contacts).toEqual([]);
  });
});

describe('POST /api/directory/contacts', () => {
  it('needs a token, and refuses a malformed body', async () => {
    expect((await call('/api/directory/contacts', { method: 'POST', body: { entry_ids: ['lf-001'] } })).status).toBe(401);
    const user = await newUser();
    const post = (body: unknown) => call('/api/directory/contacts', { method: 'POST', token: user.idToken, body });
    expect(await post({ entry_ids: [] })).toMatchObject({ status: 400, json: { message: 'entry_ids: Select at least one contact.' } });
    expect(await post({ entry_ids: ['lf-001'], user_id: 'someone-else' })).toMatchObject({ status: 400, json: { message: 'Unknown field: user_id' } });
    expect(await usedAdditions(user.sub)).toBe(0);
  });

  it('adds an entry as a contact with the spec §3 fields and counts it', async () => {
    const user = await newUser();
    const [label, dj] = [labels[0]!, djs[0]!];
    const before = Date.now();
    const response = await addEntries(user, [label.id]);
    expect(response.status).toBe(200);
    const body = response.json as { added: Contact[]; duplicates: unknown[]; allowance: unknown };
    expect(body.duplicates).toEqual([]);
    expect(body.allowance).toEqual({ used: 1, limit: 5 });
    const [contact] = body.added;
    expect(body.added).toEqual([contactFor(user.sub, label, contact!.created_at)]);
    expect(contact).toMatchObject({
      name: label.name,
      email: label.email,
      label_name: label.name,
      contact_type: 'Label',
      position: 'A&R Manager',
      // The genres as people read them ('Deep House'), as a typed genre would be; genre_focus keeps the slugs.
      genre: label.genres.map((genre) => genreLabels[genre]).join(', '),
      genre_focus: label.genres.join(', '),
      website_url: label.website_url,
      notes: `${label.description}\n\nSubmission guidelines: ${label.submission_guidelines}`,
    });
    expect(Date.parse(contact!.created_at)).toBeGreaterThanOrEqual(before);
    // Stored exactly as the contacts API stores a contact: found by its email's key and on the timeline.
    const { Item } = await dynamodb().doc.send(
      new GetCommand({ TableName: table(), Key: { PK: key.user(user.sub), SK: key.contact(contact!.id) }, ConsistentRead: true }),
    );
    expect(Item).toEqual(contactItem(user.sub, contact!));

    const second = await addEntries(user, [dj.id]);
    expect((second.json as { added: Contact[] }).added[0]).toMatchObject({ contact_type: 'DJ', position: 'DJ', label_name: dj.name });
    expect(await usedAdditions(user.sub)).toBe(2);
    expect((await call('/api/directory', { token: user.idToken })).json?.allowance).toEqual({ used: 2, limit: 5 });
  });

  it('refuses an entry that is already a contact with "<name> is already in your contacts." and does not count it', async () => {
    const user = await newUser();
    const entry = labels[1]!;
    expect((await addEntries(user, [entry.id])).status).toBe(200);
    const again = await addEntries(user, [entry.id]);
    expect(again).toMatchObject({ status: 409, json: { message: `${entry.name} is already in your contacts.` } });
    expect(again.json?.message).toBe(directoryMessages.alreadyInContacts(entry.name));
    expect(await usedAdditions(user.sub)).toBe(1);
    expect(await contactItems(user.sub)).toHaveLength(1);
  });

  it('treats a contact the user made by hand with the same email (any case) as already there', async () => {
    const user = await newUser();
    const entry = labels[2]!;
    const byHand: Contact = { ...contactFor(user.sub, entry, new Date().toISOString()), email: entry.email.toUpperCase(), notes: 'mine' };
    await dynamodb().doc.send(new PutCommand({ TableName: table(), Item: contactItem(user.sub, byHand) }));
    expect(await addEntries(user, [entry.id])).toMatchObject({ status: 409, json: { message: directoryMessages.alreadyInContacts(entry.name) } });
    expect((await contactItems(user.sub)).map((item) => item.notes)).toEqual(['mine']);
    expect(await usedAdditions(user.sub)).toBe(0);
  });

  it('refuses a free user’s selection of 6 new entries: 403 directory_limit, nothing written', async () => {
    const user = await newUser();
    const response = await addEntries(
      user,
      labels.slice(0, 6).map((e) => e.id),
    );
    expect(response).toMatchObject({
      status: 403,
      json: { code: DIRECTORY_LIMIT_CODE, message: 'You can only add 5 more contacts. Please select fewer contacts or upgrade to Premium.' },
    });
    expect(await contactItems(user.sub)).toHaveLength(0);
    expect(await usedAdditions(user.sub)).toBe(0);
  });

  it('at 5 additions refuses even one more with the free-limit text', async () => {
    const user = await newUser();
    expect(
      (
        await addEntries(
          user,
          labels.slice(0, 5).map((e) => e.id),
        )
      ).json?.allowance,
    ).toEqual({ used: 5, limit: 5 });
    const response = await addEntries(user, [labels[5]!.id]);
    expect(response).toMatchObject({ status: 403, json: { code: DIRECTORY_LIMIT_CODE, message: directoryMessages.freeLimitReached } });
    expect(response.json?.message).toBe("You've reached the free limit (5 contacts). Upgrade to Premium to access all 743+ industry contacts!");
    expect(await contactItems(user.sub)).toHaveLength(5);
    expect(await usedAdditions(user.sub)).toBe(5);
  });

  it('skips and counts duplicates in a bulk add, without charging them', async () => {
    const user = await newUser();
    const [a, b, c, d, e] = labels.slice(10, 15) as [DirectoryEntry, DirectoryEntry, DirectoryEntry, DirectoryEntry, DirectoryEntry];
    await addEntries(user, [a.id, b.id]);
    // 3 selected entries are new, 2 are contacts already: 3 fit in the 3 left, the repeated id counts once.
    const response = await addEntries(user, [a.id, c.id, b.id, d.id, e.id, c.id]);
    expect(response.status).toBe(200);
    const body = response.json as { added: Contact[]; duplicates: unknown[]; allowance: unknown };
    expect(body.added.map((contact) => contact.email)).toEqual([c.email, d.email, e.email]);
    expect(body.duplicates).toEqual([
      { id: a.id, name: a.name },
      { id: b.id, name: b.name },
    ]);
    expect(body.allowance).toEqual({ used: 5, limit: 5 });
    expect(await contactItems(user.sub)).toHaveLength(5);

    // Only duplicates: nothing added, nothing charged, 200 with the duplicates (several were selected).
    const onlyDuplicates = await addEntries(user, [a.id, b.id]);
    expect(onlyDuplicates).toMatchObject({ status: 200, json: { added: [], allowance: { used: 5, limit: 5 } } });
    expect((onlyDuplicates.json as { duplicates: unknown[] }).duplicates).toHaveLength(2);
  });

  it('answers 404 for an id that is not in the directory, and adds none of the selection', async () => {
    const user = await newUser();
    expect(await addEntries(user, ['lf-999'])).toMatchObject({ status: 404, json: { message: directoryMessages.unknownEntries } });
    expect(await addEntries(user, [labels[0]!.id, 'no-such-entry'])).toMatchObject({ status: 404, json: { message: directoryMessages.unknownEntries } });
    expect(await contactItems(user.sub)).toHaveLength(0);
    expect(await usedAdditions(user.sub)).toBe(0);
  });

  it('lets a paid user add 20 at once, and 110 more in one request (two transactions)', async () => {
    const user = await newUser();
    await setProfile(user.sub, { tier: 'pro' });
    const twenty = await addEntries(
      user,
      directoryEntries.slice(0, 20).map((e) => e.id),
    );
    expect(twenty.status).toBe(200);
    expect((twenty.json as { added: Contact[] }).added).toHaveLength(20);
    expect(twenty.json?.allowance).toEqual({ used: 20, limit: 1000 });

    const more = await addEntries(
      user,
      directoryEntries.slice(20, 130).map((e) => e.id),
    );
    expect(more.status).toBe(200);
    expect((more.json as { added: Contact[] }).added).toHaveLength(110);
    expect(more.json?.allowance).toEqual({ used: 130, limit: 1000 });
    expect(await contactItems(user.sub)).toHaveLength(130);
  });

  it('two concurrent adds of 2 at 3 used: one passes, the counter stops at 5 and equals the contacts created', async () => {
    const user = await newUser();
    await setProfile(user.sub, { labelfinder_additions_count: 3 });
    const responses = await Promise.all([addEntries(user, [labels[20]!.id, labels[21]!.id]), addEntries(user, [labels[22]!.id, labels[23]!.id])]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 403]);
    const refused = responses.find((r) => r.status === 403)!;
    expect(refused.json).toEqual({ code: DIRECTORY_LIMIT_CODE, message: directoryMessages.freeLimitReached });
    expect(await usedAdditions(user.sub)).toBe(5);
    expect(await contactItems(user.sub)).toHaveLength(2);
  });

  it('five concurrent single adds at 4 used: exactly one contact is created and counted', async () => {
    const user = await newUser();
    await setProfile(user.sub, { labelfinder_additions_count: 4 });
    const responses = await Promise.all(labels.slice(30, 35).map((entry) => addEntries(user, [entry.id])));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 403, 403, 403, 403]);
    for (const response of responses.filter((r) => r.status === 403)) {
      expect(response.json).toEqual({ code: DIRECTORY_LIMIT_CODE, message: directoryMessages.freeLimitReached });
    }
    expect(await usedAdditions(user.sub)).toBe(5);
    expect(await contactItems(user.sub)).toHaveLength(1);
  });

  it('a paid user at the limit gets the paid-limit text', async () => {
    const user = await newUser();
    await setProfile(user.sub, { tier: 'label', labelfinder_additions_count: 1000 });
    expect(await addEntries(user, [labels[0]!.id])).toMatchObject({
      status: 403,
      json: { code: DIRECTORY_LIMIT_CODE, message: "You've reached your LabelFinder limit (1000 contacts)." },
    });
  });

  it('follows a plan change at once: Free at 5 refused, on Pro the next request adds past 5 (limit 1000), back on Free refused again', async () => {
    const user = await newUser();
    await setProfile(user.sub, { labelfinder_additions_count: 5 });
    expect(await addEntries(user, [labels[40]!.id])).toMatchObject({ status: 403, json: { message: directoryMessages.freeLimitReached } });
    // The billing webhook writes the tier onto the profile; the next request reads it.
    await setProfile(user.sub, { tier: 'pro' });
    const added = await addEntries(user, [labels[40]!.id, labels[41]!.id]);
    expect(added).toMatchObject({ status: 200, json: { allowance: { used: 7, limit: 1000 } } });
    expect((await call('/api/directory', { token: user.idToken })).json?.allowance).toEqual({ used: 7, limit: 1000 });
    // Down to Free: the additions so far stay (contacts are not taken away), no more are allowed.
    await setProfile(user.sub, { tier: 'free' });
    expect((await call('/api/directory', { token: user.idToken })).json?.allowance).toEqual({ used: 7, limit: 5 });
    expect(await addEntries(user, [labels[42]!.id])).toMatchObject({
      status: 403,
      json: { code: DIRECTORY_LIMIT_CODE, message: directoryMessages.freeLimitReached },
    });
    expect(await contactItems(user.sub)).toHaveLength(2);
  });
});

describe('DynamoDirectoryStore.addToContacts: writes between its read and its transaction', () => {
  /** The shared table's client, running `before` ahead of each TransactWriteItems (numbered from 1). */
  function interceptTransactions(before: (n: number) => Promise<void>): DynamoDBDocumentClient {
    const real = dynamodb().doc;
    let n = 0;
    return {
      send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
        if (command instanceof TransactWriteCommand) await before(++n);
        return real.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
  }

  it('a contact created meanwhile (another tab) becomes a duplicate; the rest is added and counted', async () => {
    const user = await newUser();
    const [x, y] = [labels[40]!, labels[41]!];
    const store = new DynamoDirectoryStore(
      interceptTransactions(async (n) => {
        if (n === 1)
          await dynamodb().doc.send(new PutCommand({ TableName: table(), Item: contactItem(user.sub, contactFor(user.sub, x, new Date().toISOString())) }));
      }),
      table(),
    );
    const result = await store.addToContacts(user.sub, [x.id, y.id], 5, new Date());
    expect(result).toMatchObject({ outcome: 'added', duplicates: [{ id: x.id, name: x.name }], allowance: { used: 1, limit: 5 } });
    expect(result.outcome === 'added' && result.added.map((c) => c.email)).toEqual([y.email]);
    expect(await contactItems(user.sub)).toHaveLength(2);
    expect(await usedAdditions(user.sub)).toBe(1);
  });

  it('a counter raised meanwhile refuses the whole transaction: over_allowance, nothing written', async () => {
    const user = await newUser();
    const store = new DynamoDirectoryStore(
      interceptTransactions(async (n) => {
        if (n === 1) await setProfile(user.sub, { labelfinder_additions_count: 4 });
      }),
      table(),
    );
    const result = await store.addToContacts(user.sub, [labels[42]!.id, labels[43]!.id], 5, new Date());
    expect(result).toEqual({ outcome: 'over_allowance', allowance: { used: 4, limit: 5 }, requested: 2 });
    expect(await contactItems(user.sub)).toHaveLength(0);
    expect(await usedAdditions(user.sub)).toBe(4);
  });

  it('a large add whose second transaction is refused keeps and reports what the first wrote', async () => {
    const user = await newUser();
    const store = new DynamoDirectoryStore(
      interceptTransactions(async (n) => {
        if (n === 2) await setProfile(user.sub, { labelfinder_additions_count: 1000 });
      }),
      table(),
    );
    const result = await store.addToContacts(
      user.sub,
      directoryEntries.slice(0, 120).map((e) => e.id),
      1000,
      new Date(),
    );
    expect(result).toMatchObject({ outcome: 'added', duplicates: [], allowance: { used: 1000, limit: 1000 } });
    expect(result.outcome === 'added' && result.added.length).toBe(CONTACTS_PER_TRANSACTION);
    expect(await contactItems(user.sub)).toHaveLength(CONTACTS_PER_TRANSACTION);
  });

  it('answers no_profile for a user without a profile, writing nothing', async () => {
    const sub = randomUUID();
    const store = new DynamoDirectoryStore(dynamodb().doc, table());
    expect(await store.addToContacts(sub, [labels[0]!.id], 5, new Date())).toEqual({ outcome: 'no_profile' });
    expect(await contactItems(sub)).toHaveLength(0);
  });
});

describe('POST /api/admin/directory and npm run directory:import', () => {
  const tag = randomUUID().slice(0, 8);
  /** Reserved-domain addresses unique to this run. */
  const address = (name: string) => `${name}-${tag}@import.example`;
  const tableName = `directory-import-${tag}`;
  let server: LocalServer;
  let own: ReturnType<typeof callAt>;
  let admin: string;
  let user: TestUser;
  let workDir: string;

  beforeAll(async () => {
    await ensureTable(dynamodb().client, tableName);
    await seedSystemData(dynamodb().doc, tableName);
    const db = dynamodb().doc;
    const directory = new DynamoDirectoryStore(db, tableName);
    const handlers: Partial<Record<string, LambdaHandler>> = {
      admin: makeAdminHandler({ waitlist: new DynamoWaitlistStore(db, tableName), directory, clock: systemClock }),
      directory: makeDirectoryHandler({
        directory,
        contacts: new DynamoContactStore(db, tableName),
        profiles: new DynamoProfileStore(db, tableName),
        clock: systemClock,
      }),
    };
    server = await startServer({
      loadHandler: (group) => {
        const handler = handlers[group];
        if (!handler) return Promise.reject(new Error(`${group} is not served by the directory import test server`));
        return Promise.resolve(handler);
      },
    });
    own = callAt(server.url);
    admin = (await adminTokens()).idToken;
    user = await createUser();
    workDir = mkdtempSync(join(tmpdir(), 'directory-import-'));
  });

  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when beforeAll failed before setting it
    await server?.close();
    await dynamodb()
      .client.send(new DeleteTableCommand({ TableName: tableName }))
      .catch(() => undefined);
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  const importFile = (format: string, content: string, token = admin) => own('/api/admin/directory', { method: 'POST', token, body: { format, content } });
  const listed = async () => ((await own('/api/directory', { token: user.idToken })).json as { entries: DirectoryEntry[] }).entries;
  const byEmail = (entries: DirectoryEntry[], email: string) => entries.filter((e) => e.email.toLowerCase() === email.toLowerCase());
  /** Whether the directory's email lookup (the GSI that imports upsert by) holds an entry. */
  const inEmailLookup = async (id: string) =>
    (
      await queryAll(dynamodb().doc, {
        TableName: tableName,
        IndexName: indexes.byLookup.name,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': key.directoryEmailLookup() },
      })
    ).some((item) => item.id === id);

  it('is for admins only: 401 without a token, 403 for a user (the shared server too)', async () => {
    const body = { format: 'csv', content: `email\n${address('nobody')}\n` };
    expect((await own('/api/admin/directory', { method: 'POST', body })).status).toBe(401);
    expect(await own('/api/admin/directory', { method: 'POST', token: user.idToken, body })).toMatchObject({
      status: 403,
      json: { message: 'You are not authorised to do this.' },
    });
    expect((await call('/api/admin/directory', { method: 'POST', token: user.idToken, body })).status).toBe(403);
    expect(byEmail(await listed(), address('nobody'))).toEqual([]);
  });

  it('on the shared server, refuses a file with nothing valid and names the rejections', async () => {
    const response = await call('/api/admin/directory', { method: 'POST', token: admin, body: { format: 'csv', content: 'name,email\nA,\nB,nope\n' } });
    expect(response).toMatchObject({
      status: 400,
      json: { message: 'No entries were imported: every record was rejected. Row 2: Missing email address; Row 3: Invalid email format: nope' },
    });
  });

  let alphaId: string;

  it('imports a CSV file: valid rows created with defaults, the others reported by row', async () => {
    const before = await listed();
    const csv =
      '\uFEFFName;E-mail;Genres;City;Country;Featured;Type;Website\r\n' +
      `Import Alpha;${address('alpha')};Techno, Deep House;Berlin;Germany;yes;Label;alpha.example\r\n` +
      `"Import; Beta";${address('beta')};;;;;DJ;\r\n` +
      'Gamma;not-an-email;;;;;;\r\n' +
      `Delta;${address('ALPHA')};;;;;;\r\n`;
    const response = await importFile('csv', csv);
    expect(response).toEqual({
      status: 200,
      headers: anything(),
      text: anyString(),
      json: {
        created: 2,
        updated: 0,
        rejected: [
          { row: 4, email: 'not-an-email', reasons: ['Invalid email format: not-an-email'] },
          { row: 5, email: address('ALPHA'), reasons: ['Duplicate of row 2'] },
        ],
      },
    });
    const after = await listed();
    expect(after).toHaveLength(before.length + 2);
    const [alpha] = byEmail(after, address('alpha'));
    expect(alpha).toEqual({
      id: stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      name: 'Import Alpha',
      email: address('alpha'),
      genres: ['techno', 'deep-house'],
      location: 'Berlin, Germany',
      label_size: 'Independent',
      description: 'No description available',
      website_url: 'https://alpha.example',
      submission_guidelines: 'No guidelines provided',
      is_featured: true,
      contact_type: 'Label',
      demo_policy: null,
    });
    alphaId = alpha!.id;
    expect(byEmail(after, address('beta'))[0]).toMatchObject({ name: 'Import; Beta', contact_type: 'DJ', location: 'Unknown Location' });
  });

  it('imports JSON and upserts by email: same id, replaced fields, no second entry; seeded entries too', async () => {
    const before = await listed();
    const seeded = directoryEntries[0]!;
    const json = JSON.stringify({
      entries: [
        { name: 'Import Alpha Renamed', email: address('alpha').toUpperCase(), genres: ['Ambient'], is_featured: false },
        { name: 'Import Gamma', email: address('gamma'), contact_type: 'dj' },
        { ...seeded, id: 'ignored', description: 'Updated by the import.' },
      ],
    });
    expect(await importFile('json', json)).toMatchObject({ status: 200, json: { created: 1, updated: 2, rejected: [] } });
    const after = await listed();
    expect(after).toHaveLength(before.length + 1);
    expect(byEmail(after, address('alpha'))).toEqual([
      expect.objectContaining({
        id: alphaId,
        name: 'Import Alpha Renamed',
        email: address('alpha').toUpperCase(),
        genres: ['ambient'],
        is_featured: false,
        location: 'Unknown Location',
      }),
    ]);
    expect(byEmail(after, seeded.email)).toEqual([{ ...seeded, description: 'Updated by the import.' }]);
    // The email lookup holds one item per address, lower-cased.
    const lookup = await queryAll(dynamodb().doc, {
      TableName: tableName,
      IndexName: indexes.byLookup.name,
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :email',
      ExpressionAttributeValues: { ':pk': key.directoryEmailLookup(), ':email': address('alpha').toLowerCase() },
    });
    expect(lookup.map((item) => item.id)).toEqual([alphaId]);
  });

  it('imports demo policies (CSV columns and a JSON demo_policy), reports bad values by row, and an added entry gives its contact the policy and label size', async () => {
    const before = await listed();
    const csv = [
      'Name,Email,Submission method,Submission URL,Accepts,Accepted genres,Response days,Max words',
      `Policy Email,${address('p-email')},email,,"private links only; unreleased",Techno,14,150`,
      `Policy Form,${address('p-form')},web form,p-form.example/demos,,,,`,
      `Policy Bad Method,${address('p-bad1')},carrier pigeon,,,,,`,
      `Policy No Link,${address('p-bad2')},platform,,,,3 weeks,`,
      `Policy Bad Days,${address('p-bad3')},email,,,Polka,never,`,
    ].join('\n');
    expect((await importFile('csv', csv)).json).toEqual({
      created: 2,
      updated: 0,
      rejected: [
        { row: 4, email: address('p-bad1'), reasons: ['Unknown submission method: carrier pigeon (use email, web form or platform)'] },
        { row: 5, email: address('p-bad2'), reasons: ['A web form or platform needs its submission link'] },
        { row: 6, email: address('p-bad3'), reasons: ['Unknown accepted genre: Polka', 'Response days must be a whole number of days from 1 to 365: never'] },
      ],
    });
    const base = buildDemoPolicy();
    const after = await listed();
    expect(after).toHaveLength(before.length + 2);
    const [withEmail] = byEmail(after, address('p-email'));
    expect(withEmail?.demo_policy).toEqual({
      ...base,
      submit_by: 'email',
      private_streaming_only: true,
      unreleased_only: true,
      genres: ['techno'],
      response_days: 14,
      max_email_words: 150,
    });
    expect(byEmail(after, address('p-form'))[0]?.demo_policy).toEqual({ ...base, submit_by: 'web_form', submit_url: 'https://p-form.example/demos' });
    for (const bad of ['p-bad1', 'p-bad2', 'p-bad3']) expect(byEmail(after, address(bad))).toEqual([]);

    // JSON: a demo_policy object as the API returns it replaces the policy; an entry re-imported without one has none.
    const replaced = {
      ...base,
      submit_by: 'platform_only',
      submit_url: 'https://submit.example/p-email',
      download_wanted: true,
      genres: ['house'],
      response_days: 30,
    };
    const json = JSON.stringify([
      { name: 'Policy Email', email: address('p-email'), demo_policy: replaced, label_size: 'Boutique' },
      { name: 'Policy Form', email: address('p-form') },
      { name: 'Policy Broken', email: address('p-bad4'), demo_policy: { submit_by: 'email', private_streaming_only: 'perhaps' } },
    ]);
    expect((await importFile('json', json)).json).toEqual({
      created: 0,
      updated: 2,
      rejected: [{ row: 3, email: address('p-bad4'), reasons: ['Unknown Private streaming only value: perhaps (use true or false)'] }],
    });
    const reread = await listed();
    expect(byEmail(reread, address('p-email'))[0]).toMatchObject({ id: withEmail!.id, demo_policy: replaced });
    expect(byEmail(reread, address('p-form'))[0]?.demo_policy).toBeNull();

    // Added to a user's contacts, the entry's policy and label size go with it and stay through an edit of the contact (same address or another).
    const adder = await createUser();
    await own('/api/directory', { token: adder.idToken });
    const added = await own('/api/directory/contacts', { method: 'POST', token: adder.idToken, body: { entry_ids: [withEmail!.id] } });
    expect(added.status).toBe(200);
    const [contact] = (added.json as { added: Contact[] }).added;
    const fromEntry = { demo_policy: replaced, label_size: 'Boutique' };
    expect(contact).toMatchObject(fromEntry);
    const contacts = new DynamoContactStore(dynamodb().doc, tableName);
    expect(await contacts.get(adder.sub, contact!.id)).toMatchObject(fromEntry);
    // What the send route reads (and the queued recipient keeps): the claim's pitch snapshot takes the label size from it.
    expect((await contacts.getMany(adder.sub, [contact!.id]))[0]).toMatchObject(fromEntry);
    const edit = {
      name: 'Renamed',
      email: contact!.email,
      label_name: null,
      contact_type: 'Label' as const,
      position: null,
      genre: null,
      website_url: null,
      notes: null,
      time_zone: null,
    };
    expect(await contacts.update(adder.sub, contact!.id, edit)).toMatchObject({ outcome: 'saved', contact: { name: 'Renamed', ...fromEntry } });
    const moved = await contacts.update(adder.sub, contact!.id, { ...edit, email: address('p-moved') });
    expect(moved).toMatchObject({ outcome: 'saved', contact: { email: address('p-moved'), ...fromEntry } });
    const listedContacts = await contacts.list(adder.sub, { limit: 10 });
    expect(listedContacts).toMatchObject({ outcome: 'listed', contacts: [{ email: address('p-moved'), ...fromEntry }] });
    // A contact typed by hand has neither.
    const typed = await contacts.add(adder.sub, { ...edit, email: address('p-typed') }, new Date());
    expect(typed.outcome === 'saved' && ('demo_policy' in typed.contact || 'label_size' in typed.contact)).toBe(false);
  });

  it('refuses bad requests with a clear 400 and writes nothing', async () => {
    const before = (await listed()).length;
    expect(await importFile('xml', 'x')).toMatchObject({ status: 400 });
    expect(((await importFile('xml', 'x')).json?.message as string).startsWith('format:')).toBe(true);
    expect(await importFile('csv', '')).toMatchObject({ status: 400, json: { message: 'content: The file is empty.' } });
    expect(await importFile('csv', `name,city\nA,${address('x')}\n`)).toMatchObject({ status: 400, json: { message: directoryImportMessages.noEmailColumn } });
    expect(await importFile('json', '{"entries": ')).toMatchObject({ status: 400 });
    expect(await importFile('json', '[{"email": "bad"}]')).toMatchObject({
      status: 400,
      json: { message: 'No entries were imported: every record was rejected. Row 1: Invalid email format: bad' },
    });
    expect(await listed()).toHaveLength(before);
  });

  it('rejects, by row, a record with an invisible or control character in its email or unstorable text, and loads the rest', async () => {
    const before = await listed();
    const records = [
      { name: 'Clean Records', email: address('clean') },
      { name: 'Zero Width', email: address('zero').replace('@', '\u200b@') },
      { name: 'Nul Records', email: address('nul').replace('@', '\u0000@') },
      { name: 'Marked', email: `\u200e${address('marked')}` },
      { name: 'Half \ud800 Pair', email: address('half') },
      { name: 'Nul Notes', email: address('nul-notes'), description: 'Demos\u0000 welcome' },
    ];
    const response = await importFile('json', JSON.stringify(records));
    expect(response).toMatchObject({
      status: 200,
      json: {
        created: 1,
        updated: 0,
        rejected: [
          { row: 2, email: records[1]!.email, reasons: ['Email contains an invisible or control character'] },
          { row: 3, email: records[2]!.email, reasons: ['Email contains an invisible or control character'] },
          { row: 4, email: records[3]!.email, reasons: ['Email contains an invisible or control character'] },
          { row: 5, email: address('half'), reasons: ['Name contains a character that cannot be stored'] },
          { row: 6, email: address('nul-notes'), reasons: ['Description contains a character that cannot be stored'] },
        ],
      },
    });
    const after = await listed();
    expect(after).toHaveLength(before.length + 1);
    expect(byEmail(after, address('clean'))).toHaveLength(1);
    for (const name of ['zero', 'nul', 'marked', 'half', 'nul-notes']) {
      expect(
        after.filter((entry) => entry.email.includes(`${name}-${tag}`)),
        name,
      ).toEqual([]);
    }
  });

  // Bytes, not characters: the file holds accented text.
  it('refuses a file over 3 MB in bytes and an import that would take the directory past 1,500 entries', async () => {
    const before = (await listed()).length;
    // Two-byte characters: fewer characters than the limit has bytes, but more bytes.
    const heavy = `email,description\n${address('heavy')},"${'é'.repeat(DIRECTORY_IMPORT_MAX_BYTES / 2 + 100_000)}"\n`;
    expect(heavy.length).toBeLessThan(DIRECTORY_IMPORT_MAX_BYTES);
    expect(await importFile('csv', heavy)).toMatchObject({
      status: 400,
      json: { message: 'content: The file is too large (at most 3 MB): split it into smaller files.' },
    });
    const rows = Array.from({ length: DIRECTORY_MAX_ENTRIES - before + 1 }, (_, i) => address(`bulk-${i}`));
    expect(await importFile('csv', `email\n${rows.join('\n')}\n`)).toMatchObject({
      status: 400,
      json: { message: directoryTooLarge(DIRECTORY_MAX_ENTRIES + 1) },
    });
    expect(await listed()).toHaveLength(before);
  });

  it('an entry without an email is listed with the default, not in the email lookup, and cannot be added', async () => {
    const entry = applyDirectoryDefaults({ id: `lf-noemail-${tag}`, name: 'Silent Records', email: null });
    await dynamodb().doc.send(new PutCommand({ TableName: tableName, Item: directoryItem(entry) }));
    expect(byEmail(await listed(), 'No email')).toEqual([entry]);
    expect(await inEmailLookup(entry.id)).toBe(false);
    expect(await addEntries(user, [entry.id], server.url)).toMatchObject({
      status: 400,
      json: { message: 'Silent Records has no email address, so it cannot be added to your contacts.' },
    });
    expect(await profileItem(user.sub, tableName)).toMatchObject({ labelfinder_additions_count: 0 });
  });

  // Such entries were stored before imports refused them.
  it('leaves an entry with an invisible character in its email out of the email lookup, and it cannot be added', async () => {
    const entry = applyDirectoryDefaults({ id: `lf-zwsp-${tag}`, name: 'Hidden Space Records', email: address('hidden').replace('@', '\u200b@') });
    await dynamodb().doc.send(new PutCommand({ TableName: tableName, Item: directoryItem(entry) }));
    expect(await inEmailLookup(entry.id)).toBe(false);
    expect(await addEntries(user, [entry.id], server.url)).toMatchObject({
      status: 400,
      json: { message: 'The email address of Hidden Space Records contains an invisible or control character, so it cannot be added to your contacts.' },
    });
    expect(await profileItem(user.sub, tableName)).toMatchObject({ labelfinder_additions_count: 0 });
    const contacts = await queryAll(dynamodb().doc, {
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :contact)',
      ExpressionAttributeValues: { ':pk': key.user(user.sub), ':contact': key.contactPrefix() },
      ConsistentRead: true,
    });
    expect(contacts.filter((item) => String(item.email).includes(`hidden-${tag}`))).toEqual([]);
  });

  const run = promisify(execFile);
  /** The README's command, run as `npm run directory:import` runs it; resolves with its exit code and output. */
  async function directoryImport(args: string[]) {
    try {
      const { stdout, stderr } = await run(join('node_modules', '.bin', 'tsx'), ['scripts/directory-import.ts', ...args], { cwd: process.cwd() });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  it('the command signs in as the admin, imports a CSV file and prints each rejected row', { timeout: 60_000 }, async () => {
    const file = join(workDir, 'labels.csv');
    writeFileSync(file, `name,email,genre\nScript Label,${address('script')},House\nNo Mail,,\nBad Mail,bad-email,\n`);
    const result = await directoryImport([file, '--site', server.url, '--email', stack().admin.email, '--password', stack().admin.password]);
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toBe(
      `${file}: 1 created, 0 updated, 2 rejected.\n  Row 3: Missing email address\n  Row 4 (bad-email): Invalid email format: bad-email\n`,
    );
    expect(byEmail(await listed(), address('script'))).toEqual([expect.objectContaining({ name: 'Script Label', genres: ['house'] })]);
  });

  it('the command takes --token and a JSON file; a refused import or sign-in exits with 1 and says why', { timeout: 60_000 }, async () => {
    const file = join(workDir, 'labels.json');
    writeFileSync(file, JSON.stringify([{ name: 'Script Label 2', email: address('script') }]));
    const [withToken, asUser, wrongPassword] = await Promise.all([
      directoryImport([file, '--site', server.url, '--token', admin]),
      directoryImport([file, '--site', server.url, '--token', user.idToken]),
      directoryImport([file, '--site', server.url, '--email', stack().admin.email, '--password', 'not-the-password-1']),
    ]);
    expect(withToken).toMatchObject({ code: 0, stdout: `${file}: 0 created, 1 updated, 0 rejected.\n` });
    expect(asUser).toMatchObject({ code: 1, stderr: 'Import refused (403): You are not authorised to do this.\n' });
    expect(wrongPassword.code).toBe(1);
    expect(wrongPassword.stderr).toMatch(new RegExp(`^Sign-in as ${stack().admin.email} failed: `));
    expect(byEmail(await listed(), address('script'))).toEqual([expect.objectContaining({ name: 'Script Label 2' })]);

    const empty = join(workDir, 'empty.json');
    writeFileSync(empty, '[{"name": "No address"}]');
    expect(await directoryImport([empty, '--site', server.url, '--token', admin])).toMatchObject({
      code: 1,
      stderr: 'Import refused (400): No entries were imported: every record was rejected. Row 1: Missing email address\n',
    });
  });
});
