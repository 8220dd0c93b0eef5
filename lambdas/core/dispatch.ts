import { DUE_SHARDS } from '../../schema/table';
import type { DueCursor, QueueMessage, SenderHead } from '../ports';

/** What the sender receives for a due user: work on that user's next due email. */
export interface SendTick {
  userId: string;
  dueAt: string;
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
 * One message per due user. The group id makes the queue deliver a user's ticks one at a time (so
 * the per-user pace holds whatever the concurrency); the dedup id makes a scheduler firing twice,
 * or two overlapping dispatcher runs, produce one tick.
 */
export function ticksFor(cursors: DueCursorWithHead[]): QueueMessage[] {
  const seen = new Set<string>();
  const messages: QueueMessage[] = [];
  for (const cursor of cursors) {
    const deduplicationId = `${cursor.userId}#${cursor.dueAt}`;
    if (seen.has(deduplicationId)) continue;
    seen.add(deduplicationId);
    const tick: SendTick = { userId: cursor.userId, dueAt: cursor.dueAt, ...(cursor.head ? { head: cursor.head } : {}) };
    messages.push({ groupId: cursor.userId, deduplicationId, body: JSON.stringify(tick) });
  }
  return messages;
}
