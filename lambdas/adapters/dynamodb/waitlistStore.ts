import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WaitlistEntry } from '../../../schema/api/waitlist';
import { key } from '../../../schema/table';
import type { WaitlistStore } from '../../ports';
import { withoutKeys } from './client';

export class DynamoWaitlistStore implements WaitlistStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(): Promise<WaitlistEntry[]> {
    const entries: WaitlistEntry[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :entry)',
          ExpressionAttributeValues: { ':pk': key.waitlistPartition(), ':entry': 'ENTRY#' },
          ScanIndexForward: false, // SK is ENTRY#<submitted at>#<id>: newest first
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) entries.push(withoutKeys<WaitlistEntry>(item));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return entries;
  }
}
