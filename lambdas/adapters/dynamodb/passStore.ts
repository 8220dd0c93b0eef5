import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { key } from '../../../schema/table';
import type { PassStore } from '../../ports';
import { queryAll } from './query';

/**
 * The passes on a track (issue 28 §2), read from the PITCHED items of (track, address) the claim puts and
 * a 'Not for us' answer marks (`passed_at`): only the items that carry it come back, key and date only.
 */
export class DynamoPassStore implements PassStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async passedOn(userId: string, trackKey: string): Promise<Map<string, string>> {
    const prefix = key.pitchedPrefix(trackKey);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      FilterExpression: 'attribute_type(passed_at, :string)',
      ExpressionAttributeValues: { ':pk': key.user(userId), ':prefix': prefix, ':string': 'S' },
      ProjectionExpression: 'SK, passed_at',
    });
    return new Map(items.map((item) => [String(item.SK).slice(prefix.length), String(item.passed_at)]));
  }
}
