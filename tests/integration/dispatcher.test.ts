/**
 * The dispatcher on DynamoDB Local: it reads due sending cursors from the sparse DUE index across
 * every shard and puts one tick per due user on the queue (the in-process FIFO, SQS's local twin).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { DynamoSendingCursorStore } from '../../lambdas/adapters/dynamodb/sending/cursor';
import { MemoryFifoQueue } from '../../lambdas/adapters/local-queue/memoryFifoQueue';
import { makeHandler } from '../../lambdas/workers/dispatcher';
import { DUE_SHARDS, indexes, key } from '../../schema/table';
import type { SenderQueueEntry } from '../../lambdas/ports';
import { stack } from './helpers';

const db = () => makeDocumentClient({ tableName: stack().tableName, region: stack().region, endpoint: stack().dynamoEndpoint });

/** A sending cursor as the sending feature stores it: in the DUE index only while work is pending. */
async function putCursor(userId: string, dueAt: string | undefined, shard: number, queue: Record<string, SenderQueueEntry> = {}) {
  await db().send(
    new PutCommand({
      TableName: stack().tableName,
      Item: {
        PK: key.user(userId),
        SK: key.sender(),
        queue,
        ...(dueAt ? { [indexes.due.partitionKey]: key.duePartition(shard), [indexes.due.sortKey]: key.dueSort(dueAt, userId) } : {}),
      },
    }),
  );
}

describe('dispatcher on DynamoDB Local', () => {
  it('queues one tick per user due by the scheduled time, from every shard, and none for later or idle users', async () => {
    // A far-future tick time keeps cursors written by other tests out of the picture.
    const tick = '2099-01-01T00:00:00.000Z';
    const run = randomUUID().slice(0, 8);
    const due = Array.from({ length: DUE_SHARDS * 2 }, (_, i) => ({ userId: `due-${run}-${i}`, shard: i % DUE_SHARDS }));
    for (const [i, user] of due.entries()) await putCursor(user.userId, `2098-12-31T23:${String(50 + (i % 10)).padStart(2, '0')}:00.000Z`, user.shard);
    await putCursor(`exact-${run}`, tick, 1);
    await putCursor(`later-${run}`, '2099-01-01T00:00:01.000Z', 2);
    await putCursor(`idle-${run}`, undefined, 0);

    const queue = new MemoryFifoQueue({ clock: { now: () => new Date(tick) }, visibilityTimeoutMs: 60_000, maxReceiveCount: 3 });
    const dispatch = makeHandler({
      cursors: new DynamoSendingCursorStore(db(), stack().tableName),
      queue,
      clock: { now: () => new Date('2000-01-01T00:00:00.000Z') },
      intervalMs: 60_000,
    });
    await dispatch({ scheduledTime: tick });

    // Other tests' cursors may be due too: only this run's users are looked at.
    const received = queue.receive(1000);
    const ticked = received.map((m) => m.groupId).filter((id) => id.includes(run));
    expect(new Set(ticked)).toEqual(new Set([...due.map((u) => u.userId), `exact-${run}`]));
    for (const message of received) queue.delete(message.receiptHandle);

    // The scheduler firing twice for the same minute (or seconds later, in the same slot) adds nothing: FIFO deduplication by user and slot.
    await dispatch({ scheduledTime: tick });
    await dispatch({ scheduledTime: '2099-01-01T00:00:05.000Z' });
    expect(queue.receive(1000).filter((m) => m.groupId.includes(run))).toEqual([]);
  });

  it("carries the head of the user's queue at the tick's time, so the sender reads it in the same request", async () => {
    const tick = '2099-02-01T00:00:00.000Z';
    const userId = `head-${randomUUID().slice(0, 8)}`;
    await putCursor(userId, '2099-01-31T23:59:00.000Z', 3, {
      later: { position: 0, send_after: '2099-02-02T08:00:00.000Z', queued_at: '2099-01-01T00:00:00.000Z' },
      second: { position: 9, send_after: '2099-01-20T00:00:00.000Z', queued_at: '2099-01-20T00:00:00.000Z' },
      first: { position: 4, send_after: '2099-01-10T00:00:00.000Z', queued_at: '2099-01-10T00:00:00.000Z' },
    });
    const queue = new MemoryFifoQueue({ clock: { now: () => new Date(tick) }, visibilityTimeoutMs: 60_000, maxReceiveCount: 3 });
    await makeHandler({ cursors: new DynamoSendingCursorStore(db(), stack().tableName), queue, clock: { now: () => new Date(tick) }, intervalMs: 60_000 })({
      scheduledTime: tick,
    });
    const mine = queue.receive(1000).find((m) => m.groupId === userId);
    expect(JSON.parse(mine!.body)).toEqual({ userId, dueAt: '2099-01-31T23:59:00.000Z', slot: tick, head: { campaignId: 'first', position: 4 } });
  });
});
