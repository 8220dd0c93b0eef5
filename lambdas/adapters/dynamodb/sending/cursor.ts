/**
 * The sending cursors' due times as seen from outside the sender: the dispatcher's read of the users
 * whose cursor is due, from the sparse DUE index (a cursor is in it only while it has a due time), each
 * with its queue's head; and another group's wake of one cursor (due now instead of later).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { indexes, key } from '../../../../schema/table';
import type { DueCursorWithHead } from '../../../core/dispatch';
import { headOf } from '../../../core/sender';
import type { SenderQueueEntry, SenderWake, SendingCursorStore } from '../../../ports';
import { queryAll } from '../query';
import { senderKey } from './items';
import { dueSet } from './updates';

export class DynamoSendingCursorStore implements SendingCursorStore, SenderWake {
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

  /**
   * The cursor due at `now`, only while it exists and is due later (ISO times of one format compare as
   * strings in time order): an idle cursor (no due time) stays idle, an earlier due time stays. A tick
   * already queued for the old due time is stale then; the dispatcher's next run queues the new one.
   */
  async wakeSender(userId: string, now: Date): Promise<boolean> {
    const due = dueSet(userId, now);
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: senderKey(userId),
          UpdateExpression: `SET ${due.set.join(', ')}`,
          ConditionExpression: 'attribute_exists(PK) AND due_at > :due',
          ExpressionAttributeNames: due.names,
          ExpressionAttributeValues: due.values,
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
