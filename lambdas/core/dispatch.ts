import { DUE_SHARDS } from '../../schema/table';
import type { DueCursor, QueueMessage, SenderHead } from '../ports';

/** What the sender receives for a due user: work on that user's next due email. */
export interface SendTick {
  userId: string;
  /** The cursor's due time when the dispatcher listed it: the sender acts only while the cursor still says so. */
  dueAt: string;
  /**
   * The dispatcher's scheduled time on the interval grid (DESIGN §13): the pace is counted in slots, so
   * an email claimed at slot + δ makes the user due at the next slot, not at slot + δ + interval.
   */
  slot: string;
  /**
   * The head of the user's queue as the dispatcher saw it, so the sender reads the head campaign and
   * recipient in the same request as the cursor (a stale head costs one more read, nothing else).
   */
  head?: SenderHead;
}

/** A due cursor, with its queue's head when the store knows it. */
export type DueCursorWithHead = DueCursor & { head?: SenderHead };

export const shardNumbers = (): number[] => Array.from({ length: DUE_SHARDS }, (_, i) => i);

/**
 * The slot of a scheduled time: the interval grid point at or before it. The scheduler's times are
 * already a minute apart; the grid keeps a local timer's jitter (or a second firing seconds later) in
 * the same slot, so slots are always exactly one interval apart.
 */
export const slotOf = (at: Date, intervalMs: number): Date => new Date(Math.floor(at.getTime() / intervalMs) * intervalMs);

/** How long after its slot a tick is taken up, in seconds: the queue's lag (the QueueLagSeconds metric). */
export const queueLagSeconds = (tick: Pick<SendTick, 'slot'>, now: Date): number => (now.getTime() - Date.parse(tick.slot)) / 1000;

/**
 * One message per due user for the slot. The group id makes the queue deliver a user's ticks one at a
 * time (so the per-user pace holds whatever the concurrency). The dedup id names the user and the
 * slot: a scheduler firing twice, or two overlapping runs of one slot, make one tick, while the next
 * slot's tick is always heard, even when the cursor's due time did not change in between (SQS FIFO
 * drops an id seen in the last 5 minutes).
 */
export function ticksFor(cursors: DueCursorWithHead[], slot: Date): QueueMessage[] {
  const seen = new Set<string>();
  const messages: QueueMessage[] = [];
  const slotIso = slot.toISOString();
  for (const cursor of cursors) {
    const deduplicationId = `${cursor.userId}#${slotIso}`;
    if (seen.has(deduplicationId)) continue;
    seen.add(deduplicationId);
    const tick: SendTick = { userId: cursor.userId, dueAt: cursor.dueAt, slot: slotIso, ...(cursor.head ? { head: cursor.head } : {}) };
    messages.push({ groupId: cursor.userId, deduplicationId, body: JSON.stringify(tick) });
  }
  return messages;
}
