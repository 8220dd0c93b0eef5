import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { indexes } from '../../../schema/table';
import type { DueCursor, SendingCursorStore } from '../../ports';

/** The sparse DUE index: DuePK `DUE#<shard>`, DueSK `<due at ISO>#<user id>`. */
export const dueKeys = {
  partition: (shard: number) => `DUE#${shard}`,
  sort: (dueAt: string, userId: string) => `${dueAt}#${userId}`,
};

export class DynamoSendingCursorStore implements SendingCursorStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async listDue(shard: number, now: Date, limit: number): Promise<DueCursor[]> {
    const cursors: DueCursor[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: indexes.due.name,
          KeyConditionExpression: '#pk = :pk AND #sk <= :upto',
          ExpressionAttributeNames: { '#pk': indexes.due.partitionKey, '#sk': indexes.due.sortKey },
          // '~' sorts after every character of a user id, so the bound includes all of `now`'s cursors.
          ExpressionAttributeValues: { ':pk': dueKeys.partition(shard), ':upto': `${now.toISOString()}#~` },
          Limit: limit - cursors.length,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const sortKey = String(item[indexes.due.sortKey]);
        const separator = sortKey.indexOf('#');
        cursors.push({ dueAt: sortKey.slice(0, separator), userId: sortKey.slice(separator + 1) });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey && cursors.length < limit);
    return cursors;
  }
}
