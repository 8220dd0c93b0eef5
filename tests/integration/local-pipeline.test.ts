/**
 * The local runtime's sending pipeline (DESIGN §1 "paced queue", §4), on a stack of this file's own with
 * the ticker on a timer, as `npm start` runs it (the shared stack keeps it off: other files run
 * fake-clock pipelines on its table). A user connects the local mailbox through its consent page, sends
 * a campaign to three contacts, and the ticker's dispatcher → in-process FIFO → sender deliver them
 * one interval apart into the outbox. Then the ticker's queue contract with a recording sender and a
 * clock of the test's own: SQS-shaped events, deletion of what the sender did not report failed,
 * redelivery after the visibility timeout, and the dead-letter list after five receives.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { DynamoSendingCursorStore } from '../../lambdas/adapters/dynamodb/sending/cursor';
import { DynamoTrackStore } from '../../lambdas/adapters/dynamodb/trackStore';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { LISTEN_LINK_STAND_IN } from '../../lambdas/core/compose';
import { dueShard } from '../../lambdas/core/sender';
import { startLocalStack, type LocalStack } from '../../lib/local/stack';
import { createLocalTicker, LOCAL_MAX_RECEIVE_COUNT, LOCAL_VISIBILITY_TIMEOUT_MS } from '../../lib/local/ticker';
import { composeMessages, type Campaign } from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import { mailboxConnectSchema, outboxListSchema, outboxMessageSchema, type OutboxMessageSummary } from '../../schema/api/sending';
import { indexes, key } from '../../schema/table';
import { accounts, type Account } from '../support/accounts';
import { callAt, stack as sharedStack, uniqueEmail, type ApiOptions } from './helpers';
import { stringContaining } from '../support/matchers';
import { buildAiTrack } from '../fakes/builders';

const INTERVAL_SECONDS = 0.5;

let local: LocalStack;
let user: Account;
const api = (path: string, options: Omit<ApiOptions, 'token'> = {}) => callAt(local.appUrl)(path, { ...options, token: user.idToken });

beforeAll(async () => {
  local = await startLocalStack({ webDist: sharedStack().webDist, ticker: true, sendIntervalSeconds: INTERVAL_SECONDS });
  const users = accounts({
    cognitoEndpoint: local.cognitoEndpoint,
    userPoolClientId: local.userPoolClientId,
    confirm: { via: 'local-server', appUrl: local.appUrl },
  });
  try {
    user = await users.create({ name: 'Nova Reyes' });
  } finally {
    users.close();
  }
}, 120_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when beforeAll failed before setting it
  await local?.stop();
});

/** Settings → Connect Gmail → the local consent page → Allow → the callback, as the browser goes. */
async function connectLocalMailbox(email: string): Promise<string> {
  const connect = await api('/api/mailbox/connect', { method: 'POST' });
  expect(connect.status, connect.text).toBe(200);
  const { authUrl } = mailboxConnectSchema.parse(connect.json);
  const cookie = connect.headers.get('set-cookie')!.split(';')[0]!;
  const consentUrl = new URL(authUrl);
  expect(consentUrl.origin + consentUrl.pathname).toBe(`${local.appUrl}/local/mailbox/consent`);

  const page = await fetch(consentUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);

  const allow = await fetch(consentUrl.origin + consentUrl.pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: local.appUrl },
    body: new URLSearchParams({
      state: consentUrl.searchParams.get('state')!,
      redirect_uri: consentUrl.searchParams.get('redirect_uri')!,
      decision: 'allow',
      email,
      workspace: 'false',
    }),
    redirect: 'manual',
  });
  expect(allow.status).toBe(302);
  const callback = await fetch(allow.headers.get('location')!, { headers: { cookie }, redirect: 'manual' });
  expect(callback.status).toBe(302);
  return callback.headers.get('location')!;
}

const track = buildAiTrack();

describe('npm start’s pipeline: consent page, send, ticker, outbox', () => {
  it('runs the ticker on a timer at SEND_INTERVAL_SECONDS', () => {
    expect(local.sending).toMatchObject({ intervalMs: INTERVAL_SECONDS * 1000, timed: true });
  });

  it('sends a 3-contact campaign through the local mailbox into the outbox, one email per interval', { timeout: 60_000 }, async () => {
    const settings = await connectLocalMailbox('nova@local.test');
    expect(new URL(settings).searchParams.get('gmail_connected')).toBe('true');
    expect((await api('/api/profile')).json).toMatchObject({ gmail_connected: true, gmail_email: 'nova@local.test' });

    const contacts: Contact[] = [];
    for (const name of ['Ada Vell', 'Bo Marsh', 'Cy Lark']) {
      const added = await api('/api/contacts', { method: 'POST', body: { name, email: uniqueEmail('label'), label_name: `${name} Records` } });
      expect(added.status, added.text).toBe(201);
      contacts.push(added.json as unknown as Contact);
    }
    const created = await api('/api/campaigns', {
      method: 'POST',
      body: { mode: 'ai', track, email_subject: '[TRACK_NAME] for [LABEL_NAME]', email_body: 'Hi [CONTACT_NAME],\n\nListen: [TRACK_URL]', total_recipients: 3 },
    });
    expect(created.status, created.text).toBe(201);
    const campaign = created.json as unknown as Campaign;
    const send = await api(`/api/campaigns/${campaign.id}/send`, {
      method: 'POST',
      body: { contact_ids: contacts.map((c) => c.id), mode: 'immediate', batch_start: 0, total: contacts.length },
    });
    expect(send.status, send.text).toBe(200);
    expect(send.json).toMatchObject({ queued: 3 });

    // The ticker works on its own timer: wait (bounded) until the outbox holds the three emails.
    let messages: OutboxMessageSummary[] = [];
    for (let attempt = 0; attempt < 150 && messages.length < 3; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      messages = outboxListSchema.parse((await api('/api/local/outbox')).json).messages;
    }
    expect(messages.map((m) => m.to).sort()).toEqual(contacts.map((c) => `${c.name} <${c.email}>`).sort());
    for (const message of messages) expect(message).toMatchObject({ campaign_id: campaign.id, from: stringContaining('<nova@local.test>') });
    expect(messages.map((m) => m.subject).sort()).toEqual(contacts.map((c) => `Night Drive for ${c.name} Records`).sort());

    // Never two emails of a user in one slot (the ticker fires on the interval grid; a claim takes its slot).
    const slots = messages.map((m) => Math.floor(Date.parse(m.sent_at) / (INTERVAL_SECONDS * 1000))).sort((a, b) => a - b);
    for (let i = 1; i < slots.length; i++) expect(slots[i]!).toBeGreaterThan(slots[i - 1]!);

    // Built with APP_URL = the local server: the pixel and the one-click unsubscribe point at it.
    const full = outboxMessageSchema.parse((await api(`/api/local/outbox/${messages[0]!.id}`)).json);
    expect(full.html).toContain(`${local.appUrl}/api/t/o/`);
    expect(full.headers.find(([name]) => name.toLowerCase() === 'list-unsubscribe')?.[1]).toContain(`${local.appUrl}/api/unsubscribe/one-click?token=`);

    // Every recipient is recorded; the campaign completes (its last tick may still be on the way).
    let stored: Campaign | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      stored = (await api(`/api/campaigns/${campaign.id}`)).json as unknown as Campaign;
      if (stored.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stored).toMatchObject({ status: 'completed', emails_sent: 3 });
  });
});

/** The outbox's emails of a campaign once `count` are there (the ticker works on its own timer). */
async function outboxOf(campaignId: string, count: number): Promise<OutboxMessageSummary[]> {
  let messages: OutboxMessageSummary[] = [];
  for (let attempt = 0; attempt < 150 && messages.length < count; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    messages = outboxListSchema.parse((await api('/api/local/outbox')).json).messages.filter((m) => m.campaign_id === campaignId);
  }
  return messages;
}

describe('an AI campaign with an uploaded track and no Track URL (issue 16)', () => {
  it('the local writer writes each email with the recipient’s own listen link, and each link opens their page', { timeout: 60_000 }, async () => {
    await connectLocalMailbox('nova@local.test');
    // A ready track of the user, as the tracks routes leave it.
    const tracks = new DynamoTrackStore(
      makeDocumentClient({ tableName: local.tableName, region: local.region, endpoint: local.dynamoEndpoint }),
      local.tableName,
    );
    const trackId = ulidGenerator().next(new Date());
    await tracks.createPending(
      user.sub,
      {
        id: trackId,
        name: 'Night Drive',
        status: 'pending',
        audio_key: `tracks/${user.sub}/${trackId}`,
        content_type: 'audio/wav',
        size_bytes: 1000,
        created_at: new Date().toISOString(),
      },
      new Date(Date.now() + 86_400_000),
    );
    await tracks.markReady(user.sub, trackId, { format: 'wav', duration_seconds: 8, sample_rate: 8000, size_bytes: 1000, peaks: [0.2, 0.8] });

    const contacts: Contact[] = [];
    for (const name of ['Dee Rowe', 'Eli Park']) {
      const added = await api('/api/contacts', { method: 'POST', body: { name, email: uniqueEmail('label'), label_name: `${name} Records` } });
      expect(added.status, added.text).toBe(201);
      contacts.push(added.json as unknown as Contact);
    }
    const uploaded = { ...track, track_url: '', track_id: trackId };
    // Without the track the link is still required.
    const refused = await api('/api/campaigns/generate-preview', {
      method: 'POST',
      body: { track: { ...uploaded, track_id: null }, contact_id: contacts[0]!.id, total_recipients: 2 },
    });
    expect(refused.status).toBe(400);
    expect(refused.json?.message).toBe(composeMessages.trackUrlRequired);

    const generated = await api('/api/campaigns/generate-preview', {
      method: 'POST',
      body: { track: uploaded, contact_id: contacts[0]!.id, total_recipients: 2 },
    });
    expect(generated.status, generated.text).toBe(201);
    const campaign = generated.json as unknown as Campaign;
    expect(campaign).toMatchObject({ track_id: trackId, track_url: null, personalised_by_writer: true });
    // The preview shows where each recipient's link goes; the per-recipient preview shows the stand-in there.
    expect(campaign.email_body).toContain('[TRACK_URL]');
    for (const recipient of contacts) {
      const preview = await api(`/api/campaigns/${campaign.id}/recipient-preview`, { method: 'POST', body: { contact_id: recipient.id } });
      expect(preview.status, preview.text).toBe(200);
      expect(String(preview.json?.text)).toContain(LISTEN_LINK_STAND_IN);
      expect(String(preview.json?.text)).not.toContain('[TRACK_URL]');
    }

    const send = await api(`/api/campaigns/${campaign.id}/send`, {
      method: 'POST',
      body: { contact_ids: contacts.map((c) => c.id), mode: 'immediate', batch_start: 0, total: contacts.length },
    });
    expect(send.status, send.text).toBe(200);
    const messages = await outboxOf(campaign.id, 2);
    expect(messages).toHaveLength(2);
    const tokens = new Set<string>();
    for (const message of messages) {
      const full = outboxMessageSchema.parse((await api(`/api/local/outbox/${message.id}`)).json);
      const links = [...full.text.matchAll(new RegExp(`${local.appUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/l/([\\w-]+)`, 'g'))].map((m) => m[1]!);
      expect(links.length, full.text).toBeGreaterThan(0);
      expect(new Set(links).size).toBe(1);
      tokens.add(links[0]!);
      expect(`${full.text}${full.html}`).not.toMatch(/listen-link\.invalid|\[TRACK_URL\]/i);
      // The link opens the recipient's own page of the track.
      const page = await fetch(`${local.appUrl}/api/l/${links[0]!}`);
      expect(page.status).toBe(200);
      expect(await page.json()).toMatchObject({ state: 'ready', track_name: 'Night Drive' });
    }
    expect(tokens.size).toBe(2);
  });
});

describe('the ticker’s queue contract with the sender', () => {
  /** A DUE cursor (the SENDER item as the send flow leaves it) on this file's own table. */
  async function dueCursor(userId: string, dueAt: string) {
    const db = makeDocumentClient({ tableName: local.tableName, region: local.region, endpoint: local.dynamoEndpoint });
    await db.send(
      new PutCommand({
        TableName: local.tableName,
        Item: {
          PK: key.user(userId),
          SK: key.sender(),
          due_at: dueAt,
          queue: {},
          [indexes.due.partitionKey]: key.duePartition(dueShard(userId)),
          [indexes.due.sortKey]: key.dueSort(dueAt, userId),
        },
      }),
    );
    db.destroy();
  }

  // It deletes what the sender did not report as failed.
  it('hands the sender SQS-shaped ticks, redelivering failures after the visibility timeout, then dead-lettering them', async () => {
    // Far in the future: the stack's own timed ticker (wall clock) never finds these cursors due.
    const dueAt = '2099-06-01T00:00:00.000Z';
    let now = new Date(dueAt);
    const run = randomUUID().slice(0, 8);
    const [ok, flaky, broken] = ['ok', 'flaky', 'broken'].map((name) => `${name}-${run}`) as [string, string, string];
    for (const userId of [ok, flaky, broken]) await dueCursor(userId, dueAt);

    const events: SQSEvent[] = [];
    let flakyFailures = 1;
    const problems: string[] = [];
    const ticker = createLocalTicker({
      intervalMs: 60_000,
      cursors: new DynamoSendingCursorStore(
        makeDocumentClient({ tableName: local.tableName, region: local.region, endpoint: local.dynamoEndpoint }),
        local.tableName,
      ),
      clock: { now: () => now },
      onError: (message) => problems.push(message),
      send: (event): Promise<SQSBatchResponse> => {
        events.push(event);
        const failed = event.Records.filter((record) => {
          const group = record.attributes.MessageGroupId;
          if (group === broken) return true;
          if (group === flaky && flakyFailures > 0) {
            flakyFailures -= 1;
            return true;
          }
          return false;
        });
        return Promise.resolve({ batchItemFailures: failed.map((record) => ({ itemIdentifier: record.messageId })) });
      },
    });
    const deliveries = (userId: string) => events.flatMap((e) => e.Records).filter((r) => r.attributes.MessageGroupId === userId);

    const first = await ticker.tick();
    expect(first.dispatched).toBeGreaterThanOrEqual(3);
    for (const userId of [ok, flaky, broken]) {
      const [record] = deliveries(userId);
      expect(record).toMatchObject({
        messageId: record!.receiptHandle,
        eventSource: 'aws:sqs',
        attributes: { MessageGroupId: userId, MessageDeduplicationId: `${userId}#${dueAt}`, ApproximateReceiveCount: '1' },
      });
      expect(JSON.parse(record!.body)).toMatchObject({ userId, dueAt });
    }
    expect(events.every((e) => e.Records.length <= 10)).toBe(true);

    // The dispatcher firing again for the same due time adds nothing (FIFO deduplication), and the
    // failed ticks stay hidden until their visibility timeout ends.
    await ticker.tick();
    for (const userId of [ok, flaky, broken]) expect(deliveries(userId)).toHaveLength(1);

    now = new Date(now.getTime() + LOCAL_VISIBILITY_TIMEOUT_MS);
    await ticker.drain();
    expect(deliveries(ok)).toHaveLength(1);
    expect(deliveries(flaky).map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['1', '2']);
    expect(deliveries(broken)).toHaveLength(2);

    for (let receive = 3; receive <= LOCAL_MAX_RECEIVE_COUNT + 1; receive++) {
      now = new Date(now.getTime() + LOCAL_VISIBILITY_TIMEOUT_MS);
      await ticker.drain();
    }
    expect(deliveries(flaky)).toHaveLength(2);
    expect(deliveries(broken)).toHaveLength(LOCAL_MAX_RECEIVE_COUNT);
    expect(ticker.queue.deadLetterMessages.map((m) => m.groupId)).toEqual([broken]);
    expect(problems.some((p) => /dead-lettered/.test(p))).toBe(true);
    await ticker.stop();
  });
});
