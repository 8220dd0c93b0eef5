/**
 * The send flow's side of the queue (DynamoSendQueueStore) on DynamoDB Local: batches queued once
 * (first, later, retried), the campaign put on the user's sending cursor and in the DUE index, pause and
 * resume keeping the position, usage, "already pitched", the recipients list, and another user's
 * campaign never touched.
 */
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoSendQueueStore } from '../../lambdas/adapters/dynamodb/sending/queue';
import { sendingStepOf } from '../../lambdas/adapters/dynamodb/sending/transaction';
import { describe, expect, it } from 'vitest';
import { dueShard, pitchKey } from '../../lambdas/core/sender';
import type { Campaign } from '../../schema/api/campaigns';
import { indexes, key } from '../../schema/table';
import { contactFor, INTERVAL_MS, sendingWorld, type SendingWorld } from './sendingFixtures';

const contactsOf = (world: SendingWorld, n: number, from = 1) => Array.from({ length: n }, (_, i) => contactFor(world.userId, from + i));

const batch = (
  world: SendingWorld,
  campaign: Campaign,
  batchStart: number,
  total: number,
  contacts = contactsOf(world, Math.min(100, total - batchStart)),
  sendAfter = world.now,
) => world.sendQueue.queueBatch(world.userId, { campaignId: campaign.id, batchStart, total, contacts, sendAfter, now: world.now });

describe('queueBatch', () => {
  it('the first batch turns the draft into a sending campaign with pending recipients, on the cursor and due now', async () => {
    const world = await sendingWorld();
    const draft = await world.draft(3);
    const contacts = contactsOf(world, 3);
    const result = await batch(world, draft, 0, 3, contacts);
    expect(result).toMatchObject({ outcome: 'queued', queued: 3 });
    if (result.outcome !== 'queued') return;
    expect(result.campaign).toMatchObject({
      status: 'sending',
      sending_status: 'sending',
      total_queued: 3,
      total_recipients: 3,
      send_after: world.now.toISOString(),
      started_sending_at: world.now.toISOString(),
    });
    expect(result.campaign).not.toHaveProperty('queued_through');
    expect(await world.campaign(draft.id)).toMatchObject({ status: 'sending', total_queued: 3, queued_through: 3 });

    const recipients = await world.sendQueue.listRecipients(draft.id);
    expect(recipients.map((r) => [r.position, r.recipient_email, r.status, r.attempts])).toEqual(contacts.map((c, i) => [i, c.email, 'pending', 0]));
    expect(recipients[0]).toMatchObject({
      campaign_id: draft.id,
      user_id: world.userId,
      contact: contacts[0],
      recipient_name: 'Recipient 1',
      token: null,
      html: null,
      open_count: 0,
    });

    const cursor = await world.cursor();
    expect(cursor?.queue).toEqual({ [draft.id]: { position: 0, send_after: world.now.toISOString(), queued_at: world.now.toISOString() } });
    expect(cursor?.due_at).toBe(world.now.toISOString());
    expect(cursor?.DuePK).toBe(key.duePartition(dueShard(world.userId)));
    expect(cursor?.DueSK).toBe(key.dueSort(world.now.toISOString(), world.userId));
  });

  it('a scheduled first batch is due at its time; a later campaign does not move an earlier due time', async () => {
    const world = await sendingWorld();
    const later = new Date(world.now.getTime() + 6 * 3_600_000);
    const scheduled = await world.draft(1);
    const result = await batch(world, scheduled, 0, 1, contactsOf(world, 1), later);
    expect(result).toMatchObject({ outcome: 'queued', campaign: { status: 'scheduled', sending_status: 'sending', send_after: later.toISOString() } });
    expect((await world.cursor())?.due_at).toBe(later.toISOString());
    // An immediate campaign queued after it brings the cursor forward.
    world.advance(1000);
    const now = await world.draft(1);
    await batch(world, now, 0, 1, contactsOf(world, 1, 5));
    expect((await world.cursor())?.due_at).toBe(world.now.toISOString());
    // A third, scheduled later still, leaves it.
    const third = await world.draft(1);
    await batch(world, third, 0, 1, contactsOf(world, 1, 7), later);
    const cursor = await world.cursor();
    expect(cursor?.due_at).toBe(world.now.toISOString());
    expect(Object.keys(cursor?.queue ?? {}).sort()).toEqual([scheduled.id, now.id, third.id].sort());
  });

  it('later batches continue the positions; a retried batch is already queued; a gap or another total is a conflict', async () => {
    const world = await sendingWorld();
    const draft = await world.draft(250);
    expect(await batch(world, draft, 0, 250, contactsOf(world, 80))).toMatchObject({ outcome: 'queued', queued: 80 });
    // Batch 2 of the selection: 100 selected, 60 of them queued (the rest skipped by the send flow).
    const second = contactsOf(world, 60, 200);
    expect(await batch(world, draft, 100, 250, second)).toMatchObject({ outcome: 'queued', queued: 60, campaign: { total_queued: 140 } });
    // The same batch again (a retry after a lost answer): nothing queued twice.
    expect(await batch(world, draft, 100, 250, contactsOf(world, 60, 200))).toMatchObject({ outcome: 'already_queued', campaign: { total_queued: 140 } });
    expect(await batch(world, draft, 0, 250, contactsOf(world, 80))).toMatchObject({ outcome: 'already_queued' });
    expect(await batch(world, draft, 300, 250)).toMatchObject({ outcome: 'conflict' });
    expect(await batch(world, draft, 200, 999)).toMatchObject({ outcome: 'conflict' });
    expect(await batch(world, draft, 200, 250, contactsOf(world, 50, 400))).toMatchObject({ outcome: 'queued', campaign: { total_queued: 190 } });

    const recipients = await world.sendQueue.listRecipients(draft.id);
    expect(recipients.map((r) => r.position)).toEqual(Array.from({ length: 190 }, (_, i) => i));
    expect(recipients.slice(80, 140).map((r) => r.recipient_email)).toEqual(second.map((c) => c.email));
    expect(await world.campaign(draft.id)).toMatchObject({ queued_through: 250, total_queued: 190, total_recipients: 250 });
    // Only the first batch touched the cursor.
    expect((await world.cursor())?.queue[draft.id]).toMatchObject({ position: 0 });
  });

  it('a later batch of a draft, and a first batch of a campaign already sending, queue nothing', async () => {
    const world = await sendingWorld();
    const draft = await world.draft(150);
    expect(await batch(world, draft, 100, 150)).toMatchObject({ outcome: 'conflict', campaign: { status: 'draft' } });
    expect(await world.sendQueue.listRecipients(draft.id)).toEqual([]);
  });

  it("another user's campaign id is not found, and the campaign is untouched", async () => {
    const owner = await sendingWorld();
    const other = await sendingWorld();
    const draft = await owner.draft(2);
    const input = { campaignId: draft.id, batchStart: 0, total: 2, contacts: contactsOf(other, 2), sendAfter: other.now, now: other.now };
    expect(await other.sendQueue.queueBatch(other.userId, input)).toEqual({ outcome: 'not_found' });
    expect(await other.sendQueue.pause(other.userId, draft.id, other.now)).toEqual({ outcome: 'not_found' });
    expect(await other.sendQueue.resume(other.userId, draft.id, other.now)).toEqual({ outcome: 'not_found' });
    expect(await owner.campaign(draft.id)).toMatchObject({ status: 'draft', total_queued: 0 });
    expect(await owner.sendQueue.listRecipients(draft.id)).toEqual([]);
    expect(await other.cursor()).toBeUndefined();
  });

  it('a first batch whose mailbox is disconnected after its read is a conflict: the campaign stays a draft, on no cursor', async () => {
    const world = await sendingWorld();
    const draft = await world.draft(2);
    // The sender meets invalid_grant between the batch's read and its transaction.
    const disconnecting = new Proxy(world.db, {
      get(target, property) {
        if (property !== 'send') return Reflect.get(target, property, target) as unknown;
        return async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
          if (sendingStepOf(command)?.step === 'queueBatch') {
            await target.send(new DeleteCommand({ TableName: world.tableName, Key: { PK: key.user(world.userId), SK: key.mailbox() } }));
          }
          return target.send(command);
        };
      },
    });
    const store = new DynamoSendQueueStore(disconnecting, world.tableName, { intervalMs: INTERVAL_MS });
    const input = { campaignId: draft.id, batchStart: 0, total: 2, contacts: contactsOf(world, 2), sendAfter: world.now, now: world.now };
    expect(await store.queueBatch(world.userId, input)).toMatchObject({ outcome: 'conflict', campaign: { status: 'draft' } });
    expect(await world.campaign(draft.id)).toMatchObject({ status: 'draft', total_queued: 0 });
    expect((await world.cursor())?.queue ?? {}).toEqual({});
  });
});

describe('pause and resume', () => {
  it('pause takes the campaign off the cursor keeping its position; resume puts it back there', async () => {
    const world = await sendingWorld();
    const draft = await world.draft(3);
    await batch(world, draft, 0, 3);
    const queuedAt = world.now.toISOString();
    await world.tick();
    await world.tick();
    expect(world.mailer.sent).toHaveLength(2);

    world.advance(30_000);
    const paused = await world.sendQueue.pause(world.userId, draft.id, world.now);
    expect(paused).toMatchObject({ outcome: 'paused', campaign: { sending_status: 'paused', pause_reason: 'user', status: 'sending' } });
    expect(await world.campaign(draft.id)).toMatchObject({ resume_position: 2 });
    expect((await world.cursor())?.queue).toEqual({});
    expect(await world.sendQueue.pause(world.userId, draft.id, world.now)).toMatchObject({ outcome: 'conflict' });

    world.advance(3_600_000);
    const resumed = await world.sendQueue.resume(world.userId, draft.id, world.now);
    expect(resumed).toMatchObject({ outcome: 'resumed', campaign: { sending_status: 'sending', pause_reason: null } });
    const cursor = await world.cursor();
    expect(cursor?.queue[draft.id]).toEqual({ position: 2, send_after: world.now.toISOString(), queued_at: queuedAt });
    expect(cursor?.due_at).toBeDefined();
    expect(Date.parse(cursor!.due_at!)).toBeLessThanOrEqual(world.now.getTime());
    expect(await world.sendQueue.resume(world.userId, draft.id, world.now)).toMatchObject({ outcome: 'conflict' });

    await world.runUntilIdle();
    expect(world.mailer.sent.map((s) => s.email.meta.position)).toEqual([0, 1, 2]);
  });

  it('resume needs a connected mailbox; a draft cannot be paused', async () => {
    const world = await sendingWorld();
    const draft = await world.draft(2);
    expect(await world.sendQueue.pause(world.userId, draft.id, world.now)).toMatchObject({ outcome: 'conflict', campaign: { status: 'draft' } });
    await batch(world, draft, 0, 2);
    await world.sendQueue.pause(world.userId, draft.id, world.now);
    await world.db.send(new DeleteCommand({ TableName: world.tableName, Key: { PK: key.user(world.userId), SK: key.mailbox() } }));
    expect(await world.sendQueue.resume(world.userId, draft.id, world.now)).toMatchObject({ outcome: 'conflict', campaign: { sending_status: 'paused' } });
    expect((await world.cursor())?.queue).toEqual({});
  });

  it("a resume racing the sender's idle tick (after its read, before its write) leaves the campaign on a due cursor", async () => {
    const world = await sendingWorld();
    const draft = await world.draft(3);
    await batch(world, draft, 0, 3);
    await world.tick();
    // Paused: off the cursor, which stays due at the next interval with nothing on it.
    await world.sendQueue.pause(world.userId, draft.id, world.now);
    const tick = (await world.cursor())!.due_at!;
    // The resume reads the cursor (due then); the sender's tick finds it empty and takes it out of the
    // DUE index; then the resume's write lands.
    let raced = false;
    const racing = new Proxy(world.db, {
      get(target, property) {
        if (property !== 'send') return Reflect.get(target, property, target) as unknown;
        return async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
          if (sendingStepOf(command)?.step === 'resume' && !raced) {
            raced = true;
            expect(await world.senderStore.goIdle(world.userId, tick)).toBe(true);
          }
          return target.send(command);
        };
      },
    });
    const store = new DynamoSendQueueStore(racing, world.tableName, { intervalMs: INTERVAL_MS });
    expect(await store.resume(world.userId, draft.id, world.now)).toMatchObject({ outcome: 'resumed' });
    const cursor = await world.cursor();
    expect(cursor?.queue[draft.id]).toMatchObject({ position: 1 });
    expect(cursor?.due_at).toBe(tick);
    expect(cursor?.[indexes.due.sortKey as 'DueSK']).toBe(key.dueSort(tick, world.userId));
    await world.runUntilIdle();
    expect(world.mailer.sent.map((s) => s.email.meta.position)).toEqual([0, 1, 2]);
  });

  it('resume keeps a scheduled campaign waiting for its time', async () => {
    const world = await sendingWorld();
    const later = new Date(world.now.getTime() + 3_600_000);
    const draft = await world.draft(1);
    await batch(world, draft, 0, 1, contactsOf(world, 1), later);
    await world.sendQueue.pause(world.userId, draft.id, world.now);
    await world.sendQueue.resume(world.userId, draft.id, world.now);
    expect((await world.cursor())?.queue[draft.id]).toMatchObject({ position: 0, send_after: later.toISOString() });
  });
});

describe('usage, pitched addresses, recipients', () => {
  it("counts today's and this month's emails and says when the next is due", async () => {
    const world = await sendingWorld();
    expect(await world.sendQueue.usage(world.userId, world.now)).toEqual({ sentToday: 0, usedThisMonth: 0, nextSendAt: null });
    const draft = await world.draft(3);
    await batch(world, draft, 0, 3);
    await world.tick();
    await world.tick();
    expect(await world.sendQueue.usage(world.userId, world.now)).toEqual({
      sentToday: 2,
      usedThisMonth: 2,
      nextSendAt: new Date(world.now.getTime() + INTERVAL_MS).toISOString(),
    });
    // The next Pacific day starts at zero; the month goes on.
    expect(await world.sendQueue.usage(world.userId, new Date(world.now.getTime() + 24 * 3_600_000))).toMatchObject({ sentToday: 0, usedThisMonth: 2 });
  });

  it('lists the addresses that got this track, by its key only', async () => {
    const world = await sendingWorld();
    const draft = await world.draft(2);
    const contacts = contactsOf(world, 2);
    await batch(world, draft, 0, 2, contacts);
    await world.runUntilIdle();
    expect((await world.pitches.pitchesOf(world.userId, pitchKey(draft))).pitched).toEqual(new Set(contacts.map((c) => c.id)));
    expect((await world.pitches.pitchesOf(world.userId, pitchKey({ track_url: 'https://other.test', track_name: 'x' }))).pitched).toEqual(new Set());
    const other = await sendingWorld();
    expect((await other.pitches.pitchesOf(other.userId, pitchKey(draft))).pitched).toEqual(new Set());
  });

  it('lists recipients in queue order without content; one recipient with its content', async () => {
    const world = await sendingWorld();
    const draft = await world.draft(2);
    await batch(world, draft, 0, 2);
    await world.tick();
    const list = await world.sendQueue.listRecipients(draft.id);
    expect(list.map((r) => [r.position, r.status])).toEqual([
      [0, 'sent'],
      [1, 'pending'],
    ]);
    expect(list[0]).toMatchObject({ html: null, text: null, subject: 'New track for Recipient 1' });
    expect(list[0]!.sent_at).toBe(world.now.toISOString());
    const one = await world.sendQueue.getRecipient(draft.id, 0);
    expect(one?.html).toContain('/api/t/o/');
    expect(one?.text).toContain('Recipient 1');
    expect(one).not.toHaveProperty('PK');
    expect(one).not.toHaveProperty(indexes.byLookup.partitionKey);
    expect(await world.sendQueue.getRecipient(draft.id, 7)).toBeUndefined();
  });
});
