/**
 * Two local stacks in one process (issue 13): each builds its handlers and its sender from its own
 * configuration, never from process.env, so a request to either lands in that stack's table and the
 * links its handlers and sender write point at that stack's own URL.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { startLocalStack, type LocalStack } from '../../lib/local/stack';
import type { Campaign } from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import { mailboxConnectSchema, outboxListSchema, outboxMessageSchema, type OutboxMessageSummary } from '../../schema/api/sending';
import { key } from '../../schema/table';
import { accounts, type Account } from '../support/accounts';
import { callAt, stack as sharedStack, uniqueEmail, type ApiOptions } from './helpers';
import { buildAiTrack } from '../fakes/builders';

interface Running {
  local: LocalStack;
  user: Account;
  api: (path: string, options?: Omit<ApiOptions, 'token'>) => ReturnType<ReturnType<typeof callAt>>;
}

async function start(tableName: string): Promise<Running> {
  const local = await startLocalStack({ webDist: sharedStack().webDist, tableName, ticker: true, sendIntervalSeconds: 0.5 });
  const users = accounts({
    cognitoEndpoint: local.cognitoEndpoint,
    userPoolClientId: local.userPoolClientId,
    confirm: { via: 'local-server', appUrl: local.appUrl },
  });
  try {
    const user = await users.create({ name: `Artist ${tableName}` });
    return { local, user, api: (path, options = {}) => callAt(local.appUrl)(path, { ...options, token: user.idToken }) };
  } finally {
    users.close();
  }
}

let a: Running | undefined;
let b: Running | undefined;
/** Both stacks, once beforeAll has started them. */
const started = (): [Running, Running] => {
  if (!a || !b) throw new Error('the two stacks did not start');
  return [a, b];
};

beforeAll(async () => {
  // One after the other: both stacks live in this process at once, which is what is tested.
  a = await start('trackpitch-two-a');
  b = await start('trackpitch-two-b');
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.local.stop(), b?.local.stop()]);
});

/** The items a user owns in a stack's table. */
async function userItems(on: LocalStack, userId: string) {
  const db = makeDocumentClient({ region: on.region, endpoint: on.dynamoEndpoint });
  try {
    const { Items } = await db.send(
      new QueryCommand({ TableName: on.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': key.user(userId) } }),
    );
    return Items ?? [];
  } finally {
    db.destroy();
  }
}

const track = buildAiTrack();

/** Connect the local mailbox (consent page → Allow → callback), add a contact, send it one email, return that email. */
async function sendOneEmail({ local, api }: Running) {
  const connect = await api('/api/mailbox/connect', { method: 'POST' });
  expect(connect.status, connect.text).toBe(200);
  const consentUrl = new URL(mailboxConnectSchema.parse(connect.json).authUrl);
  const cookie = connect.headers.get('set-cookie')!.split(';')[0]!;
  const allow = await fetch(consentUrl.origin + consentUrl.pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: local.appUrl },
    body: new URLSearchParams({
      state: consentUrl.searchParams.get('state')!,
      redirect_uri: consentUrl.searchParams.get('redirect_uri')!,
      decision: 'allow',
      email: 'artist@local.test',
      workspace: 'false',
    }),
    redirect: 'manual',
  });
  expect(allow.status).toBe(302);
  expect((await fetch(allow.headers.get('location')!, { headers: { cookie }, redirect: 'manual' })).status).toBe(302);

  const added = await api('/api/contacts', { method: 'POST', body: { name: 'Ada Vell', email: uniqueEmail('label'), label_name: 'Vell Records' } });
  expect(added.status, added.text).toBe(201);
  const contact = added.json as unknown as Contact;
  const created = await api('/api/campaigns', {
    method: 'POST',
    body: { mode: 'ai', track, email_subject: '[TRACK_NAME] for [LABEL_NAME]', email_body: 'Hi [CONTACT_NAME],\n\nListen: [TRACK_URL]', total_recipients: 1 },
  });
  expect(created.status, created.text).toBe(201);
  const campaign = created.json as unknown as Campaign;
  const send = await api(`/api/campaigns/${campaign.id}/send`, {
    method: 'POST',
    body: { contact_ids: [contact.id], mode: 'immediate', batch_start: 0, total: 1 },
  });
  expect(send.status, send.text).toBe(200);

  let messages: OutboxMessageSummary[] = [];
  for (let attempt = 0; attempt < 150 && messages.length < 1; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    messages = outboxListSchema.parse((await api('/api/local/outbox')).json).messages;
  }
  expect(messages).toHaveLength(1);
  return { consentUrl, campaign, email: outboxMessageSchema.parse((await api(`/api/local/outbox/${messages[0]!.id}`)).json) };
}

describe('two local stacks in one process', () => {
  it('each stack has its own table and URL', () => {
    const [a, b] = started();
    expect(a.local.tableName).not.toBe(b.local.tableName);
    expect(a.local.dynamoEndpoint).not.toBe(b.local.dynamoEndpoint);
    expect(a.local.appUrl).not.toBe(b.local.appUrl);
  });

  it('a request to each stack lands in its own table, and its consent link and email links use its own URL', { timeout: 90_000 }, async () => {
    const [a, b] = started();
    for (const [own, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const { consentUrl, campaign, email } = await sendOneEmail(own);
      expect(consentUrl.origin).toBe(own.local.appUrl);
      expect(new URL(consentUrl.searchParams.get('redirect_uri')!).origin).toBe(own.local.appUrl);

      // The campaign and the contact were written to this stack's table, none to the other's.
      const ownItems = await userItems(own.local, own.user.sub);
      expect(ownItems.map((item) => item.SK as unknown)).toContain(key.campaign(campaign.id));
      expect(await userItems(other.local, own.user.sub)).toEqual([]);

      // The sender built the email's links with this stack's URL.
      expect(email.html).toContain(`${own.local.appUrl}/api/t/o/`);
      expect(email.html).not.toContain(other.local.appUrl);
      expect(email.headers.find(([name]) => name.toLowerCase() === 'list-unsubscribe')?.[1]).toContain(`${own.local.appUrl}/api/unsubscribe/one-click?token=`);
    }
  });
});
