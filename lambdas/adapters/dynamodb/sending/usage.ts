/**
 * What a user's sending has used: today's and this month's counters and when the next email is due.
 * Apart from the queue (which delegates here) so the profile Lambda reads it without loading the
 * queue's schemas (zod).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SendQueueStore } from '../../../ports';
import { batchGetAll } from '../batch';
import { counterOf, dayKey, findItem, monthKey, senderKey, toCursor, type ItemKey } from './items';

export async function readUsage(db: DynamoDBDocumentClient, tableName: string, userId: string, now: Date): ReturnType<SendQueueStore['usage']> {
  const keys = [dayKey(userId, now), monthKey(userId, now), senderKey(userId)];
  const items = await batchGetAll(db, tableName, keys, { consistentRead: true });
  const find = (itemKey: ItemKey) => findItem(items, itemKey);
  const cursor = toCursor(find(senderKey(userId)));
  const active = cursor && Object.keys(cursor.queue).length > 0;
  return {
    sentToday: counterOf(find(dayKey(userId, now))),
    usedThisMonth: counterOf(find(monthKey(userId, now))),
    nextSendAt: active ? cursor.due_at : null,
  };
}

/** The usage side of the send queue store, for a composition that needs nothing else of it. */
export class DynamoSendingUsage implements Pick<SendQueueStore, 'usage'> {
  constructor(
    readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  usage(userId: string, now: Date) {
    return readUsage(this.db, this.tableName, userId, now);
  }
}
