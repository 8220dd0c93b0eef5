import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WaitlistEntry } from '../../../schema/api/waitlist';
import { key } from '../../../schema/table';
import type { WaitlistStore } from '../../ports';
import { withoutKeys } from './client';
import { queryAll } from './query';

export class DynamoWaitlistStore implements WaitlistStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(): Promise<WaitlistEntry[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :entry)',
      ExpressionAttributeValues: { ':pk': key.waitlistPartition(), ':entry': key.waitlistEntryPrefix() },
      ScanIndexForward: false, // newest first
    });
    return items.map((item) => withoutKeys<WaitlistEntry>(item));
  }
}
