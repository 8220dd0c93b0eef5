/**
 * The sending pipeline end to end on DynamoDB Local (DESIGN §4): campaigns queued by the send flow's
 * store, ticks as the dispatcher makes them (and once through the real dispatcher and the local FIFO),
 * the real sender handler with a recording mailer and a fake clock.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoSendingCursorStore } from '../../lambdas/adapters/dynamodb/sending/cursor';
import { MemoryFifoQueue } from '../../lambdas/adapters/local-queue/memoryFifoQueue';
import { WriterError } from '../../lambdas/core/errors';
import { pitchKey, recipientDetails, STALE_CLAIM_MS } from '../../lambdas/core/sender';
import { pacificDate, pacificMonth } from '../../lambdas/core/sendingWindow';
import { clickUrl, oneClickUnsubscribeUrl, openPixelUrl, unsubscribePageUrl } from '../../lambdas/core/tracking';
import type { SQSEvent } from 'aws-lambda';
import { LocalWriter } from '../../lambdas/adapters/local-writer/localWriter';
import { makeHandler as makeDispatcher } from '../../lambdas/workers/dispatcher';
import { makeHandler, SEND_STEP_MS } from '../../lambdas/workers/sender';
import type { RecipientRecord } from '../../lambdas/ports';
import type { Contact } from '../../schema/api/contacts';
import type { Tier } from '../../schema/api/profile';
import { SEND_BATCH_SIZE } from '../../schema/api/sending';
import { MetricNames } from '../../schema/metrics';
import { indexes, key } from '../../schema/table';
import { RecordingMetrics } from '../fakes/metrics';
import { APP_URL, contactFor, fail, INTERVAL_MS, sendingWorld, type SendingWorld } from './sendingFixtures';

async function queued(world: SendingWorld, n: number) {
  const campaign = await world.draft(n);
  const contacts = Array.from({ length: n }, (_, i) => contactFor(world.userId, i + 1));
  await world.queue(campaign, contacts);
  return { campaign, contacts };
}

describe('sender: a campaign from first email to completion', () => {
  // Through the dispatcher and the FIFO queue.
  it('sends a 3-recipient campaign one per interval, in order, tracked, and records everything', async () => {
    const world = await sendingWorld();
    const { campaign, contacts } = await queued(world, 3);
    const fifo = new MemoryFifoQueue({ clock: world.clock, visibilityTimeoutMs: 60_000, maxReceiveCount: 5 });
    const dispatch = makeDispatcher({ cursors: new DynamoSendingCursorStore(world.db, world.tableName), queue: fifo, clock: world.clock, intervalMs: 60_000 });

    world.counting.reset();
    let ticks = 0;
    for (let minute = 0; minute < 6; minute++) {
      await dispatch({ scheduledTime: world.now.toISOString() });
      for (const message of fifo.receive(1000)) {
        if (message.groupId === world.userId) {
          ticks++;
          const result = await world.deliver(JSON.parse(message.body) as object);
          expect(result.batchItemFailures).toEqual([]);
        }
        fifo.delete(message.receiptHandle);
      }
      // A second dispatcher run in the same minute (the scheduler firing twice) adds nothing.
      await dispatch({ scheduledTime: world.now.toISOString() });
      for (const message of fifo.receive(1000)) {
        expect(message.groupId).not.toBe(world.userId);
        fifo.delete(message.receiptHandle);
      }
      world.advance(INTERVAL_MS);
    }
    const requests = world.counting.total();

    // One per interval, in queue order.
    expect(world.mailer.sent.map((s) => s.email.to.email)).toEqual(contacts.map((c) => c.email));
    const gaps = world.mailer.sent.slice(1).map((s, i) => s.at.getTime() - world.mailer.sent[i]!.at.getTime());
    expect(gaps).toEqual([INTERVAL_MS, INTERVAL_MS]);
    expect(ticks).toBe(4); // three emails, then one tick that takes the idle cursor out of the index

    // The email: from the artist, tracked, with its unsubscribe links.
    const first = world.mailer.sent[0]!;
    const recipients = await world.recipients(campaign.id);
    const token = recipients[0]!.token!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.credentials).toEqual({ refreshToken: 'refresh-token-1', mailboxEmail: 'ada@gmail.test' });
    expect(first.email.from).toEqual({ name: 'DJ Ada', email: 'ada@gmail.test' });
    expect(first.email.to).toEqual({ name: 'Recipient 1', email: contacts[0]!.email });
    expect(first.email.subject).toBe('New track for Recipient 1');
    expect(first.email.html).toContain(`href="${clickUrl(APP_URL, token, 0)}"`);
    expect(first.email.html).toContain(`href="${clickUrl(APP_URL, token, 1)}"`);
    expect(first.email.html).toContain(`href="${unsubscribePageUrl(APP_URL, token)}"`);
    expect(first.email.html).toContain(`src="${openPixelUrl(APP_URL, token)}"`);
    expect(first.email.html).not.toContain('music.test');
    expect(first.email.text).toContain(unsubscribePageUrl(APP_URL, token));
    expect(first.email.listUnsubscribeUrl).toBe(oneClickUnsubscribeUrl(APP_URL, token));
    expect(first.email.messageId).toBe(`<${campaign.id}.0.${token.slice(0, 8)}@trackpitch>`);

    // The log: every recipient sent with its content, on the user's sent timeline.
    expect(recipients.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    expect(recipients[0]).toMatchObject({
      sent_at: first.at.toISOString(),
      message_id: first.email.messageId,
      // The provider's answer (the recording mailer answers as Gmail: a first email is its own thread).
      provider_message_id: 'provider-1',
      thread_id: 'provider-1',
      replied_at: null,
      subject: first.email.subject,
      html: first.email.html,
      text: first.email.text,
      GSI1PK: key.sentTimeline(world.userId),
      GSI1SK: key.sentTimeSort(first.at.toISOString(), campaign.id, 0),
    });

    // The token item the public routes read: exactly the EmailToken fields and the links as sent.
    const tokenItem = await world.item(key.tokenPartition(token), key.tokenSort());
    expect(tokenItem).toMatchObject({
      token,
      user_id: world.userId,
      campaign_id: campaign.id,
      position: 0,
      contact_id: contacts[0]!.id,
      contact_email: contacts[0]!.email,
      contact_name: 'Recipient 1',
      artist_name: 'DJ Ada',
      track_name: 'Midnight Drive',
      links: ['https://music.test/midnight-drive?from=mail&x=1', 'https://ada.test/'],
    });

    // Counters, completion, "already pitched", and the cursor out of the DUE index.
    const stored = await world.campaign(campaign.id);
    expect(stored).toMatchObject({
      emails_sent: 3,
      emails_failed: 0,
      emails_skipped: 0,
      emails_unknown: 0,
      status: 'completed',
      sending_status: null,
      completed_sending_at: world.mailer.sent[2]!.at.toISOString(),
    });
    expect(await world.counters()).toEqual({ day: 3, month: 3 });
    expect((await world.pitches.pitchesOf(world.userId, pitchKey(campaign))).pitched).toEqual(new Set(contacts.map((c) => c.id)));
    const cursor = await world.cursor();
    expect(cursor?.queue).toEqual({});
    expect(cursor?.due_at).toBeUndefined();
    expect(cursor?.[indexes.due.partitionKey as 'DuePK']).toBeUndefined();

    // DynamoDB requests: 3 per email (read, claim, record) plus 3 for the final idle tick (its read, the
    // look for a follow-up step, which only a tick with no email to send makes, and the cursor's exit).
    expect(Object.fromEntries(world.counting.counts)).toEqual({ BatchGetItemCommand: 4, QueryCommand: 1, TransactWriteItemsCommand: 7 });
    expect(requests).toBe(3 * 3 + 3);
    console.info(`[sender] ${requests} DynamoDB requests for 3 emails (${(requests / 3).toFixed(2)} per email; steady state 3)`);
  });

  it('sends nothing to an address that unsubscribed after it was queued, and moves on in the same tick', async () => {
    const world = await sendingWorld();
    const { campaign, contacts } = await queued(world, 3);
    await world.tick();
    await world.unsubscribes.record(world.userId, {
      contact_name: 'Recipient 2',
      contact_email: contacts[1]!.email,
      unsubscribed_at: world.now.toISOString(),
      unsubscribe_reason: null,
      unsubscribe_reason_details: null,
      campaign_id: campaign.id,
      track_name: 'Midnight Drive',
    });
    await world.tick();
    expect(world.mailer.sent.map((s) => s.email.to.email)).toEqual([contacts[0]!.email, contacts[2]!.email]);
    const recipients = await world.recipients(campaign.id);
    expect(recipients.map((r) => r.status)).toEqual(['sent', 'skipped', 'sent']);
    expect(recipients[1]!.detail).toBe(recipientDetails.unsubscribed);
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_sent: 2, emails_skipped: 1, status: 'completed' });
    expect(await world.counters()).toEqual({ day: 2, month: 2 });
  });

  it('a duplicate tick (redelivery, or the same tick twice in a batch) is stale and sends nothing more', async () => {
    const world = await sendingWorld();
    await queued(world, 3);
    const tick = await world.dueTick();
    await world.deliver(tick!, tick!);
    await world.deliver(tick!);
    world.advance(5 * INTERVAL_MS);
    await world.deliver(tick!);
    expect(world.mailer.calls).toHaveLength(1);
  });
});

describe('sender: the SQS batch', () => {
  it("reports a tick that hit a DynamoDB error, and the same user's later ticks, for redelivery; drops a malformed one", async () => {
    const world = await sendingWorld();
    await queued(world, 1);
    const tick = await world.dueTick();
    world.withDeps({
      store: Object.assign(Object.create(world.senderStore) as typeof world.senderStore, {
        read: () => Promise.reject(new Error('ProvisionedThroughputExceededException')),
      }),
    });
    const result = await world.deliver(tick!, { ...tick!, dueAt: '2026-11-21T18:01:00.000Z' });
    expect(result.batchItemFailures).toHaveLength(2);
    world.withDeps({});
    expect((await world.deliver({ nonsense: true })).batchItemFailures).toEqual([]);
    // Redelivered, the tick still works: nothing was claimed.
    expect((await world.deliver(tick!)).batchItemFailures).toEqual([]);
    expect(world.mailer.sent).toHaveLength(1);
  });
});

describe('sender: metrics', () => {
  it('emits QueueLagSeconds once per tick it takes up: now − the slot the tick was queued for; nothing for a malformed one', async () => {
    const world = await sendingWorld();
    await queued(world, 1);
    const tick = (await world.dueTick())!;
    const metrics = new RecordingMetrics();
    world.withDeps({ metrics });
    world.advance(150_000);
    // Taken up 150 s after its slot, then again 30 s later (a redelivery: stale, still a tick taken up).
    expect((await world.deliver(tick, { nonsense: true })).batchItemFailures).toEqual([]);
    world.advance(30_000);
    expect((await world.deliver(tick)).batchItemFailures).toEqual([]);
    expect(metrics.named(MetricNames.QueueLagSeconds)).toEqual([
      { name: MetricNames.QueueLagSeconds, unit: 'Seconds', value: 150 },
      { name: MetricNames.QueueLagSeconds, unit: 'Seconds', value: 180 },
    ]);
    expect(metrics.named(MetricNames.EmailsSent)).toEqual([{ name: MetricNames.EmailsSent, unit: 'Count', value: 1 }]);
    expect(world.mailer.sent).toHaveLength(1);
    expect(metrics.published).toBe(2);
  });
});

describe('sender: provider failures', () => {
  it('429: back to pending with back-off, the counters released; the recipient waits alone and the next one goes at the next interval', async () => {
    const world = await sendingWorld();
    const { campaign } = await queued(world, 2);
    world.mailer.scriptFor.set(0, [fail('rate_limited'), fail('transient')]);
    const start = world.now;
    await world.tick();
    const [first] = await world.recipients(campaign.id);
    expect(first).toMatchObject({
      status: 'pending',
      attempts: 1,
      retry_at: new Date(start.getTime() + 60_000).toISOString(),
      detail: 'provider said rate_limited',
    });
    expect(await world.counters()).toEqual({ day: 0, month: 0 });
    // The user's next slot is one interval on; position 0 waits alone, and the campaign moved on to 1.
    expect(await world.cursor()).toMatchObject({
      due_at: new Date(start.getTime() + 60_000).toISOString(),
      queue: { [campaign.id]: { position: 1, waiting: { 0: first!.retry_at } } },
    });

    // Its time has come at the next slot: tried first, and fails again (back-off 2 minutes).
    await world.tick();
    const [second] = await world.recipients(campaign.id);
    expect(second).toMatchObject({ status: 'pending', attempts: 2, retry_at: new Date(world.now.getTime() + 120_000).toISOString() });

    // The slot after that goes to position 1, not held by position 0.
    await world.tick();
    expect(world.mailer.sent.map((s) => [s.email.meta.position, s.at.toISOString()])).toEqual([[1, new Date(start.getTime() + 120_000).toISOString()]]);

    await world.runUntilIdle();
    expect(world.mailer.sent.map((s) => [s.email.meta.position, s.at.toISOString()])).toEqual([
      [1, new Date(start.getTime() + 120_000).toISOString()],
      [0, new Date(start.getTime() + 180_000).toISOString()],
    ]);
    expect(world.mailer.calls).toHaveLength(4);
    const token = (await world.recipients(campaign.id))[0]!.token!;
    // The retries kept the first claim's token; the token item holds the links of the email as sent.
    expect(world.mailer.calls.filter((c) => c.email.meta.position === 0).every((c) => c.email.listUnsubscribeUrl.endsWith(token))).toBe(true);
    expect(await world.item(key.tokenPartition(token), key.tokenSort())).toMatchObject({
      links: ['https://music.test/midnight-drive?from=mail&x=1', 'https://ada.test/'],
    });
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_sent: 2, status: 'completed' });
    expect(await world.counters()).toEqual({ day: 2, month: 2 });
  });

  it('gives up after five attempts: failed (retryable), counted, and the others went out at the pace meanwhile', async () => {
    const world = await sendingWorld();
    const { campaign } = await queued(world, 4);
    world.mailer.scriptFor.set(
      0,
      Array.from({ length: 5 }, () => fail('transient', '503 backend error')),
    );
    const start = world.now.getTime();
    await world.runUntilIdle();
    const recipients = await world.recipients(campaign.id);
    expect(recipients.map((r) => r.status)).toEqual(['failed', 'sent', 'sent', 'sent']);
    expect(recipients[0]).toMatchObject({ attempts: 5, retryable: true, detail: recipientDetails.gaveUp('503 backend error') });
    // Position 0 is tried at minutes 0, 1 (its 1-minute back-off), 3 (2 minutes), 7 (4) and 15 (8); the
    // others take the free slots between: 1 at minute 2, 2 at 4, 3 at 5.
    const minutesOf = (calls: typeof world.mailer.calls) => calls.map((s) => (s.at.getTime() - start) / 60_000);
    expect(minutesOf(world.mailer.sent)).toEqual([2, 4, 5]);
    expect(minutesOf(world.mailer.calls.filter((c) => c.email.meta.position === 0))).toEqual([0, 1, 3, 7, 15]);
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_sent: 3, emails_failed: 1, status: 'completed' });
    expect(await world.counters()).toEqual({ day: 3, month: 3 });
  });

  it('Retry failed: the emails that failed after their attempts go again at the pace; a refused one stays failed with its reason', async () => {
    const world = await sendingWorld();
    const { campaign } = await queued(world, 3);
    world.mailer.scriptFor.set(
      0,
      Array.from({ length: 5 }, () => fail('transient', '503 backend error')),
    );
    world.mailer.scriptFor.set(1, [fail('rejected', 'Invalid To header')]);
    await world.runUntilIdle();
    expect((await world.recipients(campaign.id)).map((r) => [r.status, r.retryable])).toEqual([
      ['failed', true],
      ['failed', false],
      ['sent', false],
    ]);
    expect(await world.campaign(campaign.id)).toMatchObject({ status: 'completed', emails_failed: 2 });

    const retried = await world.sendQueue.retryFailed(world.userId, campaign.id, world.now);
    expect(retried).toMatchObject({ outcome: 'queued', queued: 1, campaign: { status: 'sending', emails_failed: 1 } });
    // Again: nothing more to retry while it sends.
    expect(await world.sendQueue.retryFailed(world.userId, campaign.id, world.now)).toMatchObject({ outcome: 'conflict' });
    const sentBefore = world.mailer.sent.length;
    await world.runUntilIdle();
    expect(world.mailer.sent.slice(sentBefore).map((s) => s.email.meta.position)).toEqual([0]);
    const recipients = await world.recipients(campaign.id);
    expect(recipients.map((r) => r.status)).toEqual(['sent', 'failed', 'sent']);
    expect(recipients[1]).toMatchObject({ detail: 'Invalid To header' });
    expect(await world.campaign(campaign.id)).toMatchObject({ status: 'completed', emails_sent: 2, emails_failed: 1 });
    // Only the refusal is left: a retry finds nothing.
    expect(await world.sendQueue.retryFailed(world.userId, campaign.id, world.now)).toEqual({ outcome: 'none' });
  });

  it("the provider's daily limit (Gmail's rolling 24 hours): nothing counted, the mailbox waits an hour, then two; an accepted email starts the back-off again", async () => {
    const world = await sendingWorld({ start: new Date('2026-11-02T07:50:00.000Z') });
    const { campaign } = await queued(world, 3);
    const limit = fail('daily_limit', 'Daily Gmail sending limit reached');
    world.mailer.script.push(limit, limit);
    await world.tick();
    expect((await world.recipients(campaign.id))[0]).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await world.counters()).toEqual({ day: 0, month: 0 });
    expect(await world.cursor()).toMatchObject({ due_at: '2026-11-02T08:50:00.000Z', daily_limit_refusals: 1 });
    await world.tick();
    expect(await world.cursor()).toMatchObject({ due_at: '2026-11-02T10:50:00.000Z', daily_limit_refusals: 2 });
    await world.tick();
    expect((await world.cursor())?.daily_limit_refusals).toBeUndefined();
    await world.runUntilIdle();
    expect(world.mailer.sent.map((s) => s.at.toISOString())).toEqual(['2026-11-02T10:50:00.000Z', '2026-11-02T10:51:00.000Z', '2026-11-02T10:52:00.000Z']);
    expect(await world.counters()).toEqual({ day: 3, month: 3 });
  });

  it('the daily limit from its own counter: the rest waits for the next Pacific midnight', async () => {
    // 23:58:30 PDT on 31 October 2026 (DST still on): the next midnight is 07:00 UTC.
    const world = await sendingWorld({ start: new Date('2026-11-01T06:58:30.000Z'), dailyLimit: 1 });
    await queued(world, 3);
    await world.runUntilIdle();
    expect(world.mailer.sent.map((s) => s.at.toISOString())).toEqual(['2026-11-01T06:58:30.000Z', '2026-11-01T07:00:00.000Z', '2026-11-02T08:00:00.000Z']);
  });

  it('invalid_grant: every campaign paused where it stood, the mailbox disconnected, nothing more sent', async () => {
    const world = await sendingWorld();
    const { campaign } = await queued(world, 3);
    await world.tick();
    world.mailer.script.push(fail('auth', 'invalid_grant'));
    await world.tick();
    expect(await world.campaign(campaign.id)).toMatchObject({
      sending_status: 'paused',
      pause_reason: 'mailbox_disconnected',
      resume_position: 1,
      emails_sent: 1,
    });
    expect((await world.recipients(campaign.id)).map((r) => r.status)).toEqual(['sent', 'pending', 'pending']);
    expect(await world.item(key.user(world.userId), key.mailbox())).toBeUndefined();
    expect(await world.item(key.user(world.userId), key.profile())).toMatchObject({ gmail_connected: false });
    const cursor = await world.cursor();
    expect(cursor?.queue).toEqual({});
    expect(cursor?.due_at).toBeUndefined();
    expect(await world.counters()).toEqual({ day: 1, month: 1 });
    expect(await world.tick()).toBeUndefined();
    expect(world.mailer.sent).toHaveLength(1);
  });

  it('rejected: that email failed with the reason, the next one goes at the next interval', async () => {
    const world = await sendingWorld();
    const { campaign } = await queued(world, 2);
    world.mailer.script.push(fail('rejected', 'Invalid To header'));
    await world.runUntilIdle();
    const recipients = await world.recipients(campaign.id);
    expect(recipients.map((r) => [r.status, r.detail])).toEqual([
      ['failed', 'Invalid To header'],
      ['sent', null],
    ]);
    expect(world.mailer.calls[1]!.at.getTime() - world.mailer.calls[0]!.at.getTime()).toBe(INTERVAL_MS);
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_sent: 1, emails_failed: 1, status: 'completed' });
    expect(await world.counters()).toEqual({ day: 1, month: 1 });
  });

  it('a throw after the provider call: unknown once the claim is stale, counted, never sent again', async () => {
    const world = await sendingWorld();
    const { campaign } = await queued(world, 2);
    world.mailer.script.push(() => {
      throw new Error('socket hang up');
    });
    const claimedAt = world.now;
    await world.tick();
    expect((await world.recipients(campaign.id))[0]).toMatchObject({ status: 'sending', claimed_at: claimedAt.toISOString() });
    // The next tick finds it in flight and waits for the stale time; a redelivered tick is stale.
    await world.tick();
    expect((await world.cursor())?.due_at).toBe(new Date(claimedAt.getTime() + STALE_CLAIM_MS).toISOString());
    await world.runUntilIdle();
    const recipients = await world.recipients(campaign.id);
    expect(recipients.map((r) => r.status)).toEqual(['unknown', 'sent']);
    expect(recipients[0]!.detail).toBe(recipientDetails.unknown);
    expect(world.mailer.calls.map((c) => c.email.meta.position)).toEqual([0, 1]);
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_sent: 1, emails_unknown: 1, status: 'completed' });
    // The unknown one stays counted: it may have gone out.
    expect(await world.counters()).toEqual({ day: 2, month: 2 });
  });
});

describe('sender: pause and resume', () => {
  it('a paused campaign sends nothing; resumed, it continues at its position', async () => {
    const world = await sendingWorld();
    const { campaign, contacts } = await queued(world, 3);
    await world.tick();
    expect((await world.sendQueue.pause(world.userId, campaign.id, world.now)).outcome).toBe('paused');
    world.advance(10 * INTERVAL_MS);
    await world.runUntilIdle();
    expect(world.mailer.sent).toHaveLength(1);
    expect(await world.cursor()).toMatchObject({ queue: {} });

    expect((await world.sendQueue.resume(world.userId, campaign.id, world.now)).outcome).toBe('resumed');
    await world.runUntilIdle();
    expect(world.mailer.sent.map((s) => s.email.to.email)).toEqual(contacts.map((c) => c.email));
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_sent: 3, status: 'completed' });
  });

  it('a pause while an email is in flight: that email is recorded, and resume does not send it again', async () => {
    const world = await sendingWorld();
    const { campaign } = await queued(world, 3);
    // The artist pauses while the mailer has the first email: between the claim and the record.
    const pauseDuringSend = world.mailer.send.bind(world.mailer);
    world.withDeps({
      mailer: {
        send: async (email, credentials) => {
          const result = await pauseDuringSend(email, credentials);
          if (email.meta.position === 0) await world.sendQueue.pause(world.userId, campaign.id, world.now);
          return result;
        },
      },
    });
    await world.tick();
    expect((await world.recipients(campaign.id))[0]!.status).toBe('sent');
    expect(await world.campaign(campaign.id)).toMatchObject({ sending_status: 'paused', resume_position: 0, emails_sent: 1 });
    await world.sendQueue.resume(world.userId, campaign.id, world.now);
    await world.runUntilIdle();
    expect(world.mailer.sent.map((s) => s.email.meta.position)).toEqual([0, 1, 2]);
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_sent: 3, status: 'completed' });
  });

  it('a disconnected mailbox pauses the queue at the next tick', async () => {
    const world = await sendingWorld();
    const { campaign } = await queued(world, 2);
    await world.db.send(new DeleteCommand({ TableName: world.tableName, Key: { PK: key.user(world.userId), SK: key.mailbox() } }));
    await world.tick();
    expect(world.mailer.calls).toHaveLength(0);
    expect(await world.campaign(campaign.id)).toMatchObject({ sending_status: 'paused', pause_reason: 'mailbox_disconnected', resume_position: 0 });
  });
});

describe('sender: two campaigns of one user', () => {
  it('go in the order queued, never two emails in one interval; a scheduled one waits for its time', async () => {
    const world = await sendingWorld();
    const a = await queued(world, 2);
    const scheduled = await world.draft(1, { track_name: 'Later', track_url: 'https://music.test/later' });
    await world.queue(scheduled, [contactFor(world.userId, 9)], new Date(world.now.getTime() + 30 * INTERVAL_MS));
    world.advance(1000);
    const b = await world.draft(2, { track_name: 'Second', track_url: 'https://music.test/second' });
    await world.queue(b, [contactFor(world.userId, 5), contactFor(world.userId, 6)]);
    await world.runUntilIdle();
    expect(world.mailer.sent.map((s) => s.email.meta.campaignId)).toEqual([a.campaign.id, a.campaign.id, b.id, b.id, scheduled.id]);
    const times = world.mailer.sent.map((s) => s.at.getTime());
    expect(times.slice(1).every((t, i) => t - times[i]! >= INTERVAL_MS)).toBe(true);
    expect(world.mailer.sent[4]!.at.getTime()).toBe(Date.parse(scheduled.created_at) + 30 * INTERVAL_MS);
  });
});

describe('sender: one email of a track per address (checked at the claim)', () => {
  /**
   * Queues batches of a selection of `total` as the send route does: batch n covers selection positions
   * [100n, 100n + 100) and carries only those of it queued (the route dedupes within a batch only).
   */
  async function queueBatches(
    world: SendingWorld,
    campaignId: string,
    total: number,
    batches: Contact[][],
    again: { sendAgain?: boolean; sendAgainIds?: ReadonlySet<string> } = {},
  ) {
    for (const [n, contacts] of batches.entries()) {
      const result = await world.sendQueue.queueBatch(world.userId, {
        campaignId,
        batchStart: n * SEND_BATCH_SIZE,
        total,
        contacts,
        sendAfter: world.now,
        now: world.now,
        ...again,
      });
      expect(result.outcome).toBe('queued');
    }
  }
  const byPosition = (recipients: RecipientRecord[]) => [...recipients].sort((a, b) => a.position - b.position);

  it('one address queued twice in one campaign (in two batches) gets one email; the other position is skipped as a duplicate', async () => {
    const world = await sendingWorld();
    const [ada, bo] = [contactFor(world.userId, 1), contactFor(world.userId, 2)];
    const campaign = await world.draft(SEND_BATCH_SIZE + 2);
    // Ada in the first batch and again in the second: positions 0 and 1.
    await queueBatches(world, campaign.id, SEND_BATCH_SIZE + 2, [[ada], [ada, bo]]);
    await world.runUntilIdle();

    expect(world.mailer.sent.map((s) => s.email.to.email)).toEqual([ada.email, bo.email]);
    expect(byPosition(await world.recipients(campaign.id)).map((r) => [r.status, r.detail])).toEqual([
      ['sent', null],
      ['skipped', recipientDetails.duplicate],
      ['sent', null],
    ]);
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_sent: 2, emails_skipped: 1, status: 'completed' });
    expect(await world.counters()).toEqual({ day: 2, month: 2 });
  });

  // Both campaigns are queued before either sends.
  it('sends one address a track once across two queued campaigns, unless the artist chose send again', async () => {
    const world = await sendingWorld();
    const [ada, bo] = [contactFor(world.userId, 1), contactFor(world.userId, 2)];
    const first = await world.draft(1);
    const second = await world.draft(2);
    const third = await world.draft(1);
    await queueBatches(world, first.id, 1, [[ada]]);
    await queueBatches(world, second.id, 2, [[ada, bo]]);
    await queueBatches(world, third.id, 1, [[ada]], { sendAgain: true });
    await world.runUntilIdle();

    // The first campaign's email, and the insisting third campaign's; never the second's.
    expect(world.mailer.sent.map((s) => [s.email.meta.campaignId, s.email.to.email])).toEqual([
      [first.id, ada.email],
      [second.id, bo.email],
      [third.id, ada.email],
    ]);
    expect(byPosition(await world.recipients(second.id)).map((r) => [r.status, r.detail])).toEqual([
      ['skipped', recipientDetails.alreadyPitched],
      ['sent', null],
    ]);
    expect(await world.campaign(second.id)).toMatchObject({ emails_sent: 1, emails_skipped: 1, status: 'completed' });
    expect((await world.pitches.pitchesOf(world.userId, pitchKey(first))).pitched).toEqual(new Set([ada.id, bo.id]));
  });

  it('sends the track again to the contacts sent again one by one (the artist insisted on one who passed), and to no other already pitched', async () => {
    const world = await sendingWorld();
    const [ada, bo] = [contactFor(world.userId, 1), contactFor(world.userId, 2)];
    const first = await world.draft(2);
    await queueBatches(world, first.id, 2, [[ada, bo]]);
    await world.runUntilIdle();
    const second = await world.draft(2);
    await queueBatches(world, second.id, 2, [[ada, bo]], { sendAgainIds: new Set([ada.id]) });
    await world.runUntilIdle();

    expect(world.mailer.sent.map((s) => [s.email.meta.campaignId, s.email.to.email])).toEqual([
      [first.id, ada.email],
      [first.id, bo.email],
      [second.id, ada.email],
    ]);
    expect(byPosition(await world.recipients(second.id)).map((r) => [r.status, r.detail])).toEqual([
      ['sent', null],
      ['skipped', recipientDetails.alreadyPitched],
    ]);
  });

  it('a refused email (never sent) lets a later campaign of the track pitch the address', async () => {
    const world = await sendingWorld();
    const ada = contactFor(world.userId, 1);
    const first = await world.draft(1);
    const second = await world.draft(1);
    await queueBatches(world, first.id, 1, [[ada]]);
    await queueBatches(world, second.id, 1, [[ada]]);
    world.mailer.script.push(fail('rejected', 'Recipient address rejected'));
    await world.runUntilIdle();

    expect((await world.recipients(first.id))[0]).toMatchObject({ status: 'failed' });
    expect((await world.recipients(second.id))[0]).toMatchObject({ status: 'sent' });
    expect(world.mailer.sent.map((s) => s.email.meta.campaignId)).toEqual([second.id]);
    expect(await world.item(key.user(world.userId), key.pitched(pitchKey(first), ada.id))).toMatchObject({ campaign_id: second.id, position: 0 });
  });

  it('a refused email whose hold on the address another campaign took meanwhile is still recorded failed, and that hold stays', async () => {
    const world = await sendingWorld();
    const ada = contactFor(world.userId, 1);
    const first = await world.draft(1);
    await queueBatches(world, first.id, 1, [[ada]]);
    const pitched = { PK: key.user(world.userId), SK: key.pitched(pitchKey(first), ada.id) };
    const store = world.senderStore;
    world.withDeps({
      store: Object.assign(Object.create(store) as typeof store, {
        record: async (...args: Parameters<typeof store.record>) => {
          // What an insisting campaign's claim (send again) does between this claim and its record.
          const hold = { ...pitched, entity: 'pitched', campaign_id: 'insisting-campaign', position: 0, pitched_at: world.now.toISOString() };
          await world.db.send(new PutCommand({ TableName: world.tableName, Item: hold }));
          return store.record(...args);
        },
      }),
    });
    world.mailer.script.push(fail('rejected', 'Recipient address rejected'));
    await world.runUntilIdle();

    expect((await world.recipients(first.id))[0]).toMatchObject({ status: 'failed', detail: 'Recipient address rejected' });
    expect(await world.campaign(first.id)).toMatchObject({ emails_failed: 1, status: 'completed' });
    expect(await world.item(pitched.PK, pitched.SK)).toMatchObject({ campaign_id: 'insisting-campaign' });
  });
});

describe("sender: the claim is the limits' last word", () => {
  /**
   * The read said one email was left today (this month); the counter moved before the claim. Today only
   * a claim moves it up, and the cursor's pace condition already refuses a second claim in one interval,
   * so this checks the claim's own condition on the DAY (MONTH) counter, alone: it must refuse the slot.
   */
  async function slotTakenAfterTheRead(world: SendingWorld, counterSk: string, usedBefore: number) {
    const counterKey = { PK: key.user(world.userId), SK: counterSk };
    await world.db.send(new PutCommand({ TableName: world.tableName, Item: { ...counterKey, entity: 'counter', sent: usedBefore } }));
    const store = world.senderStore;
    world.withDeps({
      store: Object.assign(Object.create(store) as typeof store, {
        claim: async (...args: Parameters<typeof store.claim>) => {
          await world.db.send(
            new UpdateCommand({ TableName: world.tableName, Key: counterKey, UpdateExpression: 'ADD sent :one', ExpressionAttributeValues: { ':one': 1 } }),
          );
          return store.claim(...args);
        },
      }),
    });
  }

  it('the last daily slot taken after the read: the claim refuses it, nothing is sent, the rest waits for Pacific midnight', async () => {
    const world = await sendingWorld({ dailyLimit: 2 });
    const { campaign } = await queued(world, 2);
    await slotTakenAfterTheRead(world, key.dayCounter(pacificDate(world.now)), 1);
    await world.tick();
    expect(world.mailer.calls).toEqual([]);
    expect((await world.recipients(campaign.id)).map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(await world.counters()).toEqual({ day: 2, month: 0 });
    // 18:00Z on 21 November is 10:00 PST: the next Pacific midnight is 08:00Z on the 22nd.
    expect((await world.cursor())?.due_at).toBe('2026-11-22T08:00:00.000Z');
  });

  it("the month's last email taken after the read: the claim refuses it, and the rest is held at the plan's monthly limit", async () => {
    const world = await sendingWorld({ profile: { tier: 'free' } });
    const { campaign } = await queued(world, 2);
    await slotTakenAfterTheRead(world, key.monthCounter(pacificMonth(world.now)), 49);
    await world.tick();
    expect(world.mailer.calls).toEqual([]);
    expect((await world.recipients(campaign.id)).map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(await world.counters()).toEqual({ day: 0, month: 50 });
    expect(await world.campaign(campaign.id)).toMatchObject({ sending_status: 'paused', pause_reason: 'monthly_limit', resume_position: 0 });
    // 18:00Z on 21 November: the next Pacific month starts at 08:00Z on 1 December.
    expect((await world.cursor())?.due_at).toBe('2026-12-01T08:00:00.000Z');
  });

  it('a downgrade to Free while the email is being written: the claim made on Pro limits is refused, nothing sent or counted, and the campaign is held', async () => {
    const world = await sendingWorld({ profile: { tier: 'pro', email_limit: 500 } });
    const monthCounter = { PK: key.user(world.userId), SK: key.monthCounter(pacificMonth(world.now)) };
    await world.db.send(new PutCommand({ TableName: world.tableName, Item: { ...monthCounter, entity: 'counter', sent: 60 } }));
    const { campaign } = await queued(world, 2);
    const store = world.senderStore;
    const claimedOn: Tier[] = [];
    world.withDeps({
      store: Object.assign(Object.create(store) as typeof store, {
        claim: async (...args: Parameters<typeof store.claim>) => {
          claimedOn.push(args[1].tier);
          // The billing webhook writes Free between the sender's read (Pro: 500) and its claim.
          await world.db.send(
            new UpdateCommand({
              TableName: world.tableName,
              Key: { PK: key.user(world.userId), SK: key.profile() },
              UpdateExpression: 'SET tier = :free, email_limit = :limit',
              ExpressionAttributeValues: { ':free': 'free', ':limit': 50 },
            }),
          );
          return store.claim(...args);
        },
      }),
    });
    await world.tick();
    expect(claimedOn).toEqual(['pro']);
    expect(world.mailer.calls).toEqual([]);
    expect(await world.counters()).toEqual({ day: 0, month: 60 });
    expect((await world.recipients(campaign.id)).map((r) => r.status)).toEqual(['pending', 'pending']);
    // Read again in the same tick: Free, 60 used, so the campaign is held at the limit.
    expect(await world.campaign(campaign.id)).toMatchObject({ sending_status: 'paused', pause_reason: 'monthly_limit', resume_position: 0 });
    expect((await world.cursor())?.due_at).toBe('2026-12-01T08:00:00.000Z');
  });
});

/**
 * The plan's monthly limit at send time (issue 14 §5): the sender reads the tier before each email, so
 * a plan change applies to emails already queued. The tier is written onto the profile as the billing
 * webhook writes it (tier and email_limit together).
 */
describe('sender: limits follow the plan', () => {
  const onPlan = (world: SendingWorld, tier: Tier) =>
    world.db.send(
      new UpdateCommand({
        TableName: world.tableName,
        Key: { PK: key.user(world.userId), SK: key.profile() },
        UpdateExpression: 'SET tier = :tier, email_limit = :limit',
        ExpressionAttributeValues: { ':tier': tier, ':limit': tier === 'free' ? 50 : tier === 'pro' ? 500 : null },
      }),
    );
  const usedThisMonth = (world: SendingWorld, sent: number) =>
    world.db.send(
      new PutCommand({
        TableName: world.tableName,
        Item: { PK: key.user(world.userId), SK: key.monthCounter(pacificMonth(world.now)), entity: 'counter', sent },
      }),
    );
  const held = { sending_status: 'paused', pause_reason: 'monthly_limit' };

  it('a Free user is stopped at 50: the campaign is held (Paused, monthly limit) on the cursor until the next Pacific month', async () => {
    const world = await sendingWorld({ profile: { tier: 'free' } });
    await usedThisMonth(world, 49);
    const { campaign } = await queued(world, 3);
    await world.tick();
    const heldTick = await world.tick();
    expect(world.mailer.sent).toHaveLength(1);
    expect(await world.campaign(campaign.id)).toMatchObject({ ...held, status: 'sending', resume_position: 1, next_send_at: null });
    expect(await world.cursor()).toMatchObject({ queue: { [campaign.id]: { position: 1 } }, due_at: '2026-12-01T08:00:00.000Z' });
    // The same tick again (a redelivery) is stale: nothing more this month.
    await world.deliver(heldTick!);
    expect(world.mailer.calls).toHaveLength(1);
    expect(await world.counters()).toMatchObject({ month: 50 });
  });

  it('a campaign queued while another is held at the limit is paused at it too, not left sending until the month turns', async () => {
    const world = await sendingWorld({ profile: { tier: 'free' } });
    await usedThisMonth(world, 49);
    const { campaign } = await queued(world, 3);
    await world.tick();
    await world.tick();
    expect(await world.campaign(campaign.id)).toMatchObject({ ...held, resume_position: 1 });

    // Queued for later (Scheduled mode is not checked against the month's capacity): the cursor is due at its time.
    const later = await world.draft(1, { track_name: 'Later', track_url: 'https://music.test/later' });
    await world.queue(later, [contactFor(world.userId, 9)], new Date(world.now.getTime() + INTERVAL_MS));
    world.advance(INTERVAL_MS);
    await world.tick();
    expect(world.mailer.calls).toHaveLength(1);
    expect(await world.counters()).toMatchObject({ month: 50 });
    // Never claimed, so still Scheduled in the list; its sending is held at the limit, with that reason.
    expect(await world.campaign(later.id)).toMatchObject({ ...held, status: 'scheduled', resume_position: 0, next_send_at: null });
    expect(await world.campaign(campaign.id)).toMatchObject({ ...held, resume_position: 1 });
    expect(await world.cursor()).toMatchObject({
      queue: { [campaign.id]: { position: 1 }, [later.id]: { position: 0 } },
      due_at: '2026-12-01T08:00:00.000Z',
    });
  });

  it('a Pro user sends past 50; its month stops at 500', async () => {
    const world = await sendingWorld({ profile: { tier: 'pro', email_limit: 500 } });
    await usedThisMonth(world, 50);
    const { campaign } = await queued(world, 2);
    await world.runUntilIdle();
    expect(world.mailer.sent).toHaveLength(2);
    expect(await world.campaign(campaign.id)).toMatchObject({ status: 'completed', emails_sent: 2 });

    await usedThisMonth(world, 499);
    const next = await world.draft(2, { track_name: 'Second', track_url: 'https://music.test/second' });
    await world.queue(next, [contactFor(world.userId, 5), contactFor(world.userId, 6)]);
    await world.tick();
    await world.tick();
    expect(world.mailer.sent).toHaveLength(3);
    expect(await world.counters()).toMatchObject({ month: 500 });
    expect(await world.campaign(next.id)).toMatchObject({ ...held, resume_position: 1 });
  });

  it('a Label user sends past 500 (no monthly cap), held only by the mailbox’s daily limit until Pacific midnight', async () => {
    const world = await sendingWorld({ profile: { tier: 'label', email_limit: null }, dailyLimit: 2 });
    await usedThisMonth(world, 600);
    const { campaign } = await queued(world, 3);
    await world.tick();
    await world.tick();
    await world.tick();
    expect(world.mailer.sent).toHaveLength(2);
    // 18:00Z on 21 November is 10:00 PST: the daily limit waits for 08:00Z on the 22nd; the campaign is not held.
    expect((await world.cursor())?.due_at).toBe('2026-11-22T08:00:00.000Z');
    expect(await world.campaign(campaign.id)).toMatchObject({ sending_status: 'sending', pause_reason: null });
    await world.runUntilIdle();
    expect(world.mailer.sent.map((s) => s.at.toISOString())).toContain('2026-11-22T08:00:00.000Z');
    expect(await world.counters()).toMatchObject({ month: 603 });
  });

  it('a downgrade while queued: the sender stops at the Free limit, every queued campaign shows Paused (monthly limit); the next Pacific month releases them', async () => {
    const world = await sendingWorld({ profile: { tier: 'pro', email_limit: 500 } });
    await usedThisMonth(world, 48);
    const { campaign } = await queued(world, 5);
    const later = await world.draft(1, { track_name: 'Later', track_url: 'https://music.test/later' });
    const laterAt = new Date(world.now.getTime() + 3 * 60 * INTERVAL_MS);
    await world.queue(later, [contactFor(world.userId, 9)], laterAt);
    await world.tick();
    expect(world.mailer.sent).toHaveLength(1);

    // The subscription ends (cancelled at period end, or deleted): the webhook writes Free.
    await onPlan(world, 'free');
    await world.tick();
    await world.tick();
    expect(world.mailer.calls).toHaveLength(2);
    expect(await world.counters()).toMatchObject({ month: 50 });
    expect((await world.recipients(campaign.id)).map((r) => r.status)).toEqual(['sent', 'sent', 'pending', 'pending', 'pending']);
    expect(await world.campaign(campaign.id)).toMatchObject({ ...held, status: 'sending', resume_position: 2 });
    expect(await world.campaign(later.id)).toMatchObject({ ...held, resume_position: 0 });
    const cursor = await world.cursor();
    expect(Object.keys(cursor?.queue ?? {}).sort()).toEqual([campaign.id, later.id].sort());
    expect(cursor?.due_at).toBe('2026-12-01T08:00:00.000Z');

    // The first instant of December in Los Angeles: a new month's count, the campaigns go on by themselves.
    await world.tick();
    expect(world.now.toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(world.mailer.sent).toHaveLength(3);
    expect(await world.campaign(campaign.id)).toMatchObject({ sending_status: 'sending', pause_reason: null, emails_sent: 3 });
    expect(await world.campaign(later.id)).toMatchObject({ sending_status: 'sending', pause_reason: null, next_send_at: '2026-12-01T08:00:00.000Z' });
    await world.runUntilIdle();
    expect((await world.recipients(campaign.id)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    expect(await world.campaign(later.id)).toMatchObject({ status: 'completed', emails_sent: 1 });
    expect(await world.counters()).toMatchObject({ month: 4 });
  });

  it('after an upgrade the artist’s Resume sends on at once; a Resume still on Free is held again, sending nothing', async () => {
    const world = await sendingWorld({ profile: { tier: 'free' } });
    await usedThisMonth(world, 50);
    const { campaign } = await queued(world, 3);
    await world.tick();
    expect(world.mailer.calls).toHaveLength(0);
    expect(await world.campaign(campaign.id)).toMatchObject({ ...held, resume_position: 0 });

    expect((await world.sendQueue.resume(world.userId, campaign.id, world.now)).outcome).toBe('resumed');
    await world.tick();
    expect(world.mailer.calls).toHaveLength(0);
    expect(await world.campaign(campaign.id)).toMatchObject({ ...held, resume_position: 0 });

    await onPlan(world, 'pro');
    world.advance(INTERVAL_MS);
    expect((await world.sendQueue.resume(world.userId, campaign.id, world.now)).outcome).toBe('resumed');
    const resumedAt = world.now.getTime();
    await world.tick();
    expect(world.mailer.sent.map((s) => s.at.getTime())).toEqual([resumedAt]);
    await world.runUntilIdle();
    expect(await world.campaign(campaign.id)).toMatchObject({ status: 'completed', emails_sent: 3, sending_status: null });
    expect(await world.counters()).toMatchObject({ month: 53 });
  });
});

describe('sender: paid work only for a claimed recipient, and within the invocation', () => {
  it('writes an AI email only after the claim: an unsubscribed recipient is never written, and a writer failure gives the claim back as a retry', async () => {
    const world = await sendingWorld();
    const { campaign, contacts } = await queued(world, 2);
    await world.db.send(
      new UpdateCommand({
        TableName: world.tableName,
        Key: { PK: key.user(world.userId), SK: key.campaign(campaign.id) },
        UpdateExpression: 'SET personalised_by_writer = :true',
        ExpressionAttributeValues: { ':true': true },
      }),
    );
    await world.unsubscribes.record(world.userId, {
      contact_name: contacts[0]!.name,
      contact_email: contacts[0]!.email,
      unsubscribed_at: world.now.toISOString(),
      unsubscribe_reason: null,
      unsubscribe_reason_details: null,
      campaign_id: null,
      track_name: null,
    });
    const written: string[] = [];
    let failures = 1;
    world.withDeps({
      writer: {
        write: (request) => {
          written.push(request.contact.name);
          if (failures-- > 0) return Promise.reject(new WriterError('timeout', 'The AI writer took too long to answer.'));
          return new LocalWriter().write(request);
        },
      },
    });
    const start = world.now.getTime();
    await world.tick();
    // The unsubscribed one was skipped at the claim, unwritten; the next was claimed, then its writer failed.
    expect(written).toEqual([contacts[1]!.name]);
    const [skipped, waiting] = await world.recipients(campaign.id);
    expect(skipped).toMatchObject({ status: 'skipped', detail: recipientDetails.unsubscribed });
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, detail: 'The AI writer took too long to answer.' });
    expect(await world.counters()).toEqual({ day: 0, month: 0 });
    await world.runUntilIdle();
    expect(written).toEqual([contacts[1]!.name, contacts[1]!.name]);
    expect(world.mailer.sent.map((s) => [s.email.to.email, s.at.getTime() - start])).toEqual([[contacts[1]!.email, 60_000]]);
    expect(await world.counters()).toEqual({ day: 1, month: 1 });
  });

  it('starts no send that would not fit in the invocation: the tick ends, the cursor stays due, and the next one sends', async () => {
    const world = await sendingWorld();
    await queued(world, 1);
    const tick = await world.dueTick();
    const handler = makeHandler(world.deps);
    const event = {
      Records: [{ messageId: 'm-late', body: JSON.stringify(tick), attributes: { MessageGroupId: world.userId } }],
    } as unknown as SQSEvent;
    const nearlyOut = await handler(event, { getRemainingTimeInMillis: () => SEND_STEP_MS - 1 });
    expect(nearlyOut.batchItemFailures).toEqual([]);
    expect(world.mailer.calls).toHaveLength(0);
    expect((await world.cursor())?.due_at).toBe(tick!.dueAt);
    await handler(event, { getRemainingTimeInMillis: () => SEND_STEP_MS + 5_000 });
    expect(world.mailer.sent).toHaveLength(1);
  });
});
