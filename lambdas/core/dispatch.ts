import { DUE_SHARDS } from '../../schema/table';
import type { DueCursor, QueueMessage } from '../ports';

/** What the sender receives for a due user: work on that user's next due email. */
export interface SendTick {
  userId: string;
  dueAt: string;
}

export const shardNumbers = (): number[] => Array.from({ length: DUE_SHARDS }, (_, i) => i);

/**
 * One message per due user. The group id makes the queue deliver a user's ticks one at a time (so
 * the per-user pace holds whatever the concurrency); the dedup id makes a scheduler firing twice,
 * or two overlapping dispatcher runs, produce one tick.
 */
export function ticksFor(cursors: DueCursor[]): QueueMessage[] {
  const seen = new Set<string>();
  const messages: QueueMessage[] = [];
  for (const cursor of cursors) {
    const deduplicationId = `${cursor.userId}#${cursor.dueAt}`;
    if (seen.has(deduplicationId)) continue;
    seen.add(deduplicationId);
    const tick: SendTick = { userId: cursor.userId, dueAt: cursor.dueAt };
    messages.push({ groupId: cursor.userId, deduplicationId, body: JSON.stringify(tick) });
  }
  return messages;
}
