import { describe, expect, it, vi } from 'vitest';
import { queueLagSeconds, shardNumbers, slotOf, ticksFor } from '../../lambdas/core/dispatch';
import { makeHandler } from '../../lambdas/workers/dispatcher';
import type { DueCursor, Queue, QueueMessage, SendingCursorStore } from '../../lambdas/ports';
import { DUE_SHARDS } from '../../schema/table';
import { MetricNames } from '../../schema/metrics';
import { RecordingMetrics } from '../fakes/metrics';

describe('ticksFor', () => {
  const SLOT = new Date('2026-11-21T10:01:00.000Z');

  it('makes one message per due user for the slot, grouped by user, deduplicated by user and slot', () => {
    const messages = ticksFor(
      [
        { userId: 'a', dueAt: '2026-11-21T10:00:00.000Z' },
        { userId: 'b', dueAt: '2026-11-21T10:00:30.000Z' },
        { userId: 'a', dueAt: '2026-11-21T10:00:00.000Z' },
      ],
      SLOT,
    );
    expect(messages.map((m) => [m.groupId, m.deduplicationId])).toEqual([
      ['a', 'a#2026-11-21T10:01:00.000Z'],
      ['b', 'b#2026-11-21T10:01:00.000Z'],
    ]);
    expect(JSON.parse(messages[0]!.body)).toEqual({ userId: 'a', dueAt: '2026-11-21T10:00:00.000Z', slot: '2026-11-21T10:01:00.000Z' });
  });

  it('names each slot apart, so a cursor whose due time did not change is still heard at the next slot', () => {
    const cursor = { userId: 'a', dueAt: '2026-11-21T10:00:00.000Z' };
    const [first] = ticksFor([cursor], SLOT);
    const [next] = ticksFor([cursor], new Date(SLOT.getTime() + 60_000));
    expect(first!.deduplicationId).not.toBe(next!.deduplicationId);
  });

  it("carries the head of the user's queue when the store knows it", () => {
    const [message] = ticksFor([{ userId: 'a', dueAt: '2026-11-21T10:00:00.000Z', head: { campaignId: 'C1', position: 7 } }], SLOT);
    expect(JSON.parse(message!.body)).toEqual({
      userId: 'a',
      dueAt: '2026-11-21T10:00:00.000Z',
      slot: '2026-11-21T10:01:00.000Z',
      head: { campaignId: 'C1', position: 7 },
    });
    // The head is a read hint, not part of the tick's identity: the dedup id stays user and slot.
    expect(message!.deduplicationId).toBe('a#2026-11-21T10:01:00.000Z');
  });
});

describe('slotOf', () => {
  it('puts a scheduled time on the interval grid, so a late or doubled firing stays in its slot', () => {
    expect(slotOf(new Date('2026-11-21T10:01:00.000Z'), 60_000).toISOString()).toBe('2026-11-21T10:01:00.000Z');
    expect(slotOf(new Date('2026-11-21T10:01:59.999Z'), 60_000).toISOString()).toBe('2026-11-21T10:01:00.000Z');
    expect(slotOf(new Date('2026-11-21T10:01:07.400Z'), 3_000).toISOString()).toBe('2026-11-21T10:01:06.000Z');
  });
});

describe('queueLagSeconds', () => {
  it("is the time from the tick's slot to now, in seconds (fractions kept)", () => {
    const tick = { slot: '2026-11-21T10:00:00.000Z' };
    expect(queueLagSeconds(tick, new Date('2026-11-21T10:02:30.500Z'))).toBe(150.5);
    expect(queueLagSeconds(tick, new Date('2026-11-21T10:00:00.000Z'))).toBe(0);
  });
});

describe('dispatcher', () => {
  const cursorsByShard: Record<number, DueCursor[]> = {
    0: [{ userId: 'a', dueAt: '2026-11-21T09:59:00.000Z' }],
    2: [{ userId: 'c', dueAt: '2026-11-21T10:00:00.000Z' }],
  };

  function fakes() {
    const asked: { shard: number; now: string }[] = [];
    const sent: QueueMessage[] = [];
    const cursors: SendingCursorStore = {
      listDue: (shard, now) => {
        asked.push({ shard, now: now.toISOString() });
        return Promise.resolve(cursorsByShard[shard] ?? []);
      },
    };
    const queue: Queue = {
      send: (messages) => {
        sent.push(...messages);
        return Promise.resolve();
      },
    };
    return { asked, sent, cursors, queue };
  }

  it('reads every shard at the scheduled time and queues one tick per due user', async () => {
    const { asked, sent, cursors, queue } = fakes();
    const run = makeHandler({ cursors, queue, clock: { now: () => new Date('2030-01-01T00:00:00.000Z') }, intervalMs: 60_000 });
    const result = await run({ scheduledTime: '2026-11-21T10:00:00Z' });
    expect(result).toEqual({ dispatched: 2 });
    expect(asked.map((a) => a.shard).sort()).toEqual(shardNumbers());
    expect(shardNumbers()).toHaveLength(DUE_SHARDS);
    expect(new Set(asked.map((a) => a.now))).toEqual(new Set(['2026-11-21T10:00:00.000Z']));
    expect(sent.map((m) => m.groupId)).toEqual(['a', 'c']);
  });

  it('publishes the tick duration, from the first shard read to the queued ticks, under the metric name the alarms read', async () => {
    const { cursors: shards, queue: fifo } = fakes();
    // The run's own time, not the scheduler's: the shard reads take 120 ms, the queue 35 ms.
    vi.useFakeTimers();
    const cursors: SendingCursorStore = {
      listDue: async (shard, now, limit) => {
        if (shard === 0) vi.advanceTimersByTime(120);
        return shards.listDue(shard, now, limit);
      },
    };
    const queue: Queue = {
      send: async (messages) => {
        vi.advanceTimersByTime(35);
        return fifo.send(messages);
      },
    };
    const metrics = new RecordingMetrics();
    try {
      await makeHandler({ cursors, queue, clock: { now: () => new Date('2026-11-21T10:00:00.000Z') }, intervalMs: 60_000, metrics })({});
    } finally {
      vi.useRealTimers();
    }
    expect(metrics.recorded).toEqual([{ name: MetricNames.DispatcherTickMs, unit: 'Milliseconds', value: 155 }]);
    expect(metrics.published).toBe(1);
  });

  it('uses the clock when the event carries no valid scheduled time', async () => {
    const { asked, cursors, queue } = fakes();
    const run = makeHandler({ cursors, queue, clock: { now: () => new Date('2026-11-21T12:00:00.000Z') }, intervalMs: 60_000 });
    await run({ scheduledTime: 'not a date' });
    expect(asked[0]?.now).toBe('2026-11-21T12:00:00.000Z');
  });

  it('fails the run when the queue refuses, so the next tick retries', async () => {
    const { cursors } = fakes();
    const queue: Queue = { send: async () => Promise.reject(new Error('Queue refused 1 message(s)')) };
    const run = makeHandler({ cursors, queue, clock: { now: () => new Date() }, intervalMs: 60_000 });
    await expect(run({})).rejects.toThrow('Queue refused');
  });
});
