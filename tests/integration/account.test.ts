/**
 * The user's own data end to end (issue 26 §3) on DynamoDB Local and cognito-local, through the shared
 * local server: DELETE /api/account leaves nothing of the user (their partition, their index entries,
 * their campaigns' partitions, their emails' tokens, the billing customer's link, their DUE entry),
 * cancels their subscription at the billing twin, removes their sign-in, turns their
 * emails' links to 410, and touches no other user; a crash halfway and a retry finish the job.
 * GET /api/account/export stores a zip of the caller's contacts and campaigns only in the local audio
 * store and answers its signed URL, which the local server serves as it serves the listen page's audio.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamodb/billingStore';
import { LocalBilling } from '../../lambdas/adapters/local-billing/localBilling';
import { BillingTwin } from '../../lambdas/adapters/local-billing/twin';
import { accountDeps } from '../../lambdas/composition/account';
import { EXPORT_URL_SECONDS } from '../../lambdas/core/account';
import { makeHandler } from '../../lambdas/http/account';
import { accountExportSchema, type AccountExport } from '../../schema/api/account';
import { DUE_SHARDS, indexes, key, keys, type IndexDefinition } from '../../schema/table';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { readZip } from '../support/zip';
import { seedSentEmail } from './sentEmails';
import { call, callAt, createUser, dynamodb, signIn, stack, stackConfig, startServerServing, type TestUser } from './helpers';

const db = () => dynamodb().doc;
const TableName = () => stack().tableName;
const put = (Item: Record<string, unknown>) => db().send(new PutCommand({ TableName: TableName(), Item }));

let receiver: WebhookReceiver;
let billing: LocalBilling;
let twin: BillingTwin;

beforeAll(async () => {
  // The twin's events go to a receiver of the test's own: only the subscription's state matters here.
  receiver = await startWebhookReceiver();
  const deps = { db: db(), tableName: TableName(), appUrl: receiver.url, clock: { now: () => new Date() } };
  billing = new LocalBilling(deps);
  twin = new BillingTwin({ ...deps, webhookSecret: () => Promise.resolve('whsec_account_test'), prices: stackConfig().billingPrices! });
});
afterAll(() => receiver.close());

const ULID = (n: number) => `01KAKZ3R00000000000000${String(n).padStart(4, '0')}`;

/** A subscribed customer of the twin, linked to the user as checkout links one. */
async function subscribe(user: TestUser): Promise<string> {
  const customerId = await billing.createCustomer({ userId: user.sub, email: user.email });
  await new DynamoBillingStore(db(), TableName()).linkCustomer(user.sub, customerId);
  const url = await billing.createCheckoutSession({
    customerId,
    userId: user.sub,
    priceId: stackConfig().billingPrices!.pro,
    successUrl: `${receiver.url}/ok`,
    cancelUrl: `${receiver.url}/no`,
  });
  await twin.payCheckout(new URL(url).searchParams.get('session')!);
  expect(await billing.liveSubscriptions(customerId)).toHaveLength(1);
  return customerId;
}

/**
 * A user with an item of every kind schema/table.ts spells for a user: through the API where a route
 * makes it (profile, contacts and their counter), seeded as the stores write them otherwise.
 */
async function fullAccount(label: string) {
  const user = await createUser({ name: label });
  expect((await call('/api/profile', { token: user.idToken })).status).toBe(200);
  for (const email of [`a-${label}@example.com`, `b-${label}@example.com`]) {
    const added = await call('/api/contacts', { method: 'POST', token: user.idToken, body: { name: `Contact ${email}`, email } });
    expect(added.status, added.text).toBe(201);
  }
  const campaignId = ULID(Math.floor(Math.random() * 9999));
  const pk = key.user(user.sub);
  const stepToken = `step-${label}-${campaignId}`;
  await put({ PK: key.tokenPartition(stepToken), SK: key.tokenSort(), entity: 'token', user_id: user.sub, campaign_id: campaignId, position: 1, step: 1 });
  await put({
    PK: pk,
    SK: key.campaign(campaignId),
    entity: 'campaign',
    id: campaignId,
    status: 'completed',
    track_name: 'Night Drive',
    created_at: new Date().toISOString(),
  });
  const sent = await seedSentEmail(user, campaignId, 0, { links: ['https://label.example/'] });
  await db().send(
    new PutCommand({
      TableName: TableName(),
      Item: {
        PK: key.campaignPartition(campaignId),
        SK: key.recipient(1),
        campaign_id: campaignId,
        position: 1,
        recipient_email: `b-${label}@example.com`,
        user_id: user.sub,
        token: null,
        status: 'sent',
        // A follow-up step sent with its own token (issue 27): the erasure finds it on the recipient.
        follow_up_1: { state: 'sent', at: new Date().toISOString(), token: stepToken },
        [indexes.byLookup.partitionKey]: key.sentTimeline(user.sub),
        [indexes.byLookup.sortKey]: key.sentTimeSort(new Date().toISOString(), campaignId, 1),
      },
    }),
  );
  const partitionItems = [key.writtenEmail('hash1'), key.linkClicks(0), key.listenRate(0, 'M2026-11-28T10:00')];
  for (const SK of partitionItems) await put({ PK: key.campaignPartition(campaignId), SK, user_id: user.sub });
  const ownItems = [
    key.unsubscribe('addr1'),
    key.resubscribed('addr2', '2026-11-28T11:50:00.000Z'),
    key.userTemplate(ULID(1)),
    key.contactList(ULID(2)),
    key.track(ULID(3)),
    key.mailbox(),
    key.allowance('ai_preview', 'H2026-11-28T10'),
    key.dayCounter('2026-11-28'),
    key.monthCounter('2026-11'),
    key.pitched('track1', 'addr1'),
    key.outboxMessage(ULID(4)),
    key.statsDay('2026-11-28'),
  ];
  for (const SK of ownItems) await put({ PK: pk, SK, user_id: user.sub });
  await put({ PK: pk, SK: key.sender(), queue: {}, DuePK: key.duePartition(1), DueSK: key.dueSort(new Date().toISOString(), user.sub) });
  return { user, campaignId, token: sent.token, stepToken };
}

type Account = Awaited<ReturnType<typeof fullAccount>>;

const queryItems = async (input: { pk: string; index?: IndexDefinition }) => {
  const partitionKey = input.index?.partitionKey ?? keys.partition;
  const { Items } = await db().send(
    new QueryCommand({
      TableName: TableName(),
      ...(input.index ? { IndexName: input.index.name } : {}),
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': partitionKey },
      ExpressionAttributeValues: { ':pk': input.pk },
    }),
  );
  return Items ?? [];
};

/**
 * Every item of the account, found by the keys the app files it under (schema/table.ts): the user's
 * partition, their timelines in the lookup index, their campaigns' and emails' partitions, their billing
 * customer's link and their sending cursor's DUE entry. Queries, not a scan: the table is shared with
 * every other integration file, and a scan of it grew to most of the test's time in a full CI run.
 */
async function footprint(account: Account, customerId?: string) {
  const { user, campaignId, token, stepToken } = account;
  const found = await Promise.all([
    queryItems({ pk: key.user(user.sub) }),
    queryItems({ pk: key.contactTimeline(user.sub), index: indexes.byLookup }),
    queryItems({ pk: key.sentTimeline(user.sub), index: indexes.byLookup }),
    queryItems({ pk: key.campaignPartition(campaignId) }),
    queryItems({ pk: key.tokenPartition(token) }),
    queryItems({ pk: key.tokenPartition(stepToken) }),
    ...(customerId ? [queryItems({ pk: key.customerPartition(customerId) })] : []),
    ...Array.from({ length: DUE_SHARDS }, (_, shard) =>
      queryItems({ pk: key.duePartition(shard), index: indexes.due }).then((items) =>
        items.filter((item) => String(item[indexes.due.sortKey]).endsWith(`#${user.sub}`)),
      ),
    ),
  ]);
  return found.flat();
}

async function expectNothingLeft(account: Account, customerId?: string) {
  expect(await footprint(account, customerId)).toEqual([]);
}

const deleteAccount = (user: TestUser, confirm_email: unknown, at = call) =>
  at('/api/account', { method: 'DELETE', token: user.idToken, body: { confirm_email } });

describe('DELETE /api/account', () => {
  it('deletes every item of the user in and out of their partition, their subscription and sign-in; another user is untouched', async () => {
    const account = await fullAccount('gone');
    const other = await fullAccount('stays');
    const customerId = await subscribe(account.user);
    const othersItems = await footprint(other);
    expect(othersItems.length).toBeGreaterThan(20);

    const response = await deleteAccount(account.user, ` ${account.user.email.toUpperCase()} `);
    expect(response.status, response.text).toBe(204);

    await expectNothingLeft(account, customerId);
    expect(await billing.liveSubscriptions(customerId)).toEqual([]);
    await expect(signIn(account.user.email, account.user.password)).rejects.toThrow();
    expect(await footprint(other)).toEqual(othersItems);
    await expect(signIn(other.user.email, other.user.password)).resolves.toHaveProperty('idToken');

    // The emails' links: gone, plainly.
    const listen = await call(`/api/l/${account.token}`);
    expect(listen.status).toBe(410);
    expect(listen.json?.message).toBe('This private link is no longer available.');
    const click = await call(`/api/t/c/${account.token}/0`);
    expect(click.status).toBe(410);
    expect(click.headers.get('content-type')).toContain('text/html');
    expect(click.text).toContain('This link is no longer available.');
    // The other user's links still work.
    expect((await fetch(`${stack().appUrl}/api/t/c/${other.token}/0`, { redirect: 'manual' })).status).toBe(302);

    // A retry (a lost answer) is not an error.
    expect((await deleteAccount(account.user, account.user.email)).status).toBe(204);
  });

  it("refuses a wrong confirmation, another user's email or none with 400, deleting nothing", async () => {
    const account = await fullAccount('careful');
    const other = await createUser();
    const before = await footprint(account);
    for (const typed of ['', other.email, `${account.user.email}x`]) {
      const response = await deleteAccount(account.user, typed);
      expect(response.status, typed).toBe(400);
      expect(response.json?.message).toBe('Type the email address of your account to confirm.');
    }
    const noBody = await call('/api/account', { method: 'DELETE', token: account.user.idToken });
    expect(noBody.status).toBe(400);
    expect((await deleteAccount(account.user, 42)).status).toBe(400);
    // Another user's confirmation of their own email never reaches this account: the token says whose.
    expect((await deleteAccount(other, other.email)).status).toBe(204);
    expect(await footprint(account)).toEqual(before);
    await expect(signIn(account.user.email, account.user.password)).resolves.toHaveProperty('idToken');
    expect((await call('/api/account', { method: 'DELETE', body: { confirm_email: account.user.email } })).status).toBe(401);
  });

  it('a crash halfway (the sign-in not yet removed) and a retry finish the job', async () => {
    const account = await fullAccount('crash');
    const deps = accountDeps(stackConfig());
    let crash = true;
    const server = await startServerServing(
      'account',
      makeHandler({
        ...deps,
        users: {
          deleteUser: (userId) => {
            if (!crash) return deps.users.deleteUser(userId);
            crash = false;
            return Promise.reject(new Error('the process died here'));
          },
        },
      }),
    );
    try {
      const first = await deleteAccount(account.user, account.user.email, callAt(server.url));
      expect(first.status).toBe(500);
      // The data went first; the sign-in is still there, so the user can come back and ask again.
      expect(await queryItems({ pk: key.campaignPartition(account.campaignId) })).toEqual([]);
      await expect(signIn(account.user.email, account.user.password)).resolves.toHaveProperty('idToken');
      // A request in flight writes again meanwhile (the profile made on sign-in): the retry takes it too.
      expect((await call('/api/profile', { token: account.user.idToken })).status).toBe(200);
      const retry = await deleteAccount(account.user, account.user.email, callAt(server.url));
      expect(retry.status, retry.text).toBe(204);
      await expectNothingLeft(account);
      await expect(signIn(account.user.email, account.user.password)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });
});

describe('GET /api/account/export', () => {
  const exportOf = (user: TestUser) => fetch(`${stack().appUrl}/api/account/export`, { headers: { authorization: `Bearer ${user.idToken}` } });

  it("stores a zip of the caller's contacts (CSV) and campaigns with their emails and answers (JSON), none of another user's, and answers a URL to download it", async () => {
    const account = await fullAccount('export');
    const other = await fullAccount('notmine');
    const response = await exportOf(account.user);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const answer = accountExportSchema.parse(await response.json());
    expect(answer.file_name).toMatch(/^trackpitch-data-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(new Date(answer.expires_at).getTime() - Date.now()).toBeGreaterThan((EXPORT_URL_SECONDS - 60) * 1000);
    // The local store's signed GET, as the listen page's audio is served: the zip, named for the download.
    const url = new URL(answer.url);
    expect(url.pathname).toBe('/local/audio/file');
    expect(url.searchParams.get('key')).toMatch(new RegExp(`^exports/${account.user.sub}/[0-9A-Z]{26}$`));
    const download = await fetch(answer.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${answer.file_name}`);
    const files = readZip(Buffer.from(await download.arrayBuffer()));
    expect([...files.keys()]).toEqual(['contacts.csv', 'campaigns.json']);
    const csv = files.get('contacts.csv')!.toString('utf8');
    const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toMatch(/^Name,Email,/);
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(['a-export@example.com', 'b-export@example.com']);
    const campaigns = JSON.parse(files.get('campaigns.json')!.toString('utf8')) as { id: string; emails: { position: number; recipient_email: string }[] }[];
    expect(campaigns.map((c) => c.id)).toEqual([account.campaignId]);
    expect(campaigns[0]?.emails.map((e) => e.position)).toEqual([0, 1]);
    const text = csv + files.get('campaigns.json')!.toString('utf8');
    expect(text).not.toContain(other.user.sub);
    expect(text).not.toContain('notmine@');
    expect(text).not.toContain(account.token);
    expect((await call('/api/account/export')).status).toBe(401);
  });

  it("each export is its own object in the caller's folder; a URL altered to another user's key, or unsigned, is refused", async () => {
    const account = await fullAccount('export-twice');
    const other = await fullAccount('export-other');
    const first = accountExportSchema.parse(await (await exportOf(account.user)).json());
    const second = accountExportSchema.parse(await (await exportOf(account.user)).json());
    const others = accountExportSchema.parse(await (await exportOf(other.user)).json());
    const keyOf = (answer: AccountExport) => new URL(answer.url).searchParams.get('key')!;
    expect(keyOf(first)).not.toBe(keyOf(second));
    expect(keyOf(others).startsWith(`exports/${other.user.sub}/`)).toBe(true);
    // The signature covers the key: pointing the caller's URL at the other user's zip is refused.
    const altered = new URL(first.url);
    altered.searchParams.set('key', keyOf(others));
    expect((await fetch(altered)).status).toBe(403);
    const unsigned = new URL(first.url);
    unsigned.searchParams.delete('signature');
    expect((await fetch(unsigned)).status).toBe(403);
    expect((await fetch(others.url)).status).toBe(200);
  });
});
