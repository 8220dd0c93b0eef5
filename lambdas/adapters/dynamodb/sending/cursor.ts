/**
 * The dispatcher's read of the sending cursors: the users whose cursor is due, from the sparse DUE
 * index (a cursor is in it only while it has a due time), each with its queue's head.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { indexes, key } from '../../../../schema/table';
import type { DueCursorWithHead } from '../../../core/dispatch';
import { headOf } from '../../../core/sender';
import type { SenderQueueEntry, SendingCursorStore } from '../../../ports';
import { queryAll } from '../query';

export class DynamoSendingCursorStore implements SendingCursorStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Due cursors with their queue's head at `now` (the index projects the whole cursor). */
  async listDue(shard: number, now: Date, limit: number): Promise<DueCursorWithHead[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        IndexName: indexes.due.name,
        KeyConditionExpression: '#pk = :pk AND #sk <= :upto',
        ExpressionAttributeNames: { '#pk': indexes.due.partitionKey, '#sk': indexes.due.sortKey },
        // '~' sorts after every character of a user id, so the bound includes all of `now`'s cursors.
        ExpressionAttributeValues: { ':pk': key.duePartition(shard), ':upto': key.dueSort(now.toISOString(), '~') },
      },
      limit,
    );
    return items.map((item) => {
      const sortKey = String(item[indexes.due.sortKey]);
      const separator = sortKey.indexOf('#');
      const queue = item.queue as Record<string, SenderQueueEntry> | undefined;
      const head = queue ? headOf(queue, now) : undefined;
      return { dueAt: sortKey.slice(0, separator), userId: sortKey.slice(separator + 1), ...(head ? { head } : {}) };
    });
  }
}
