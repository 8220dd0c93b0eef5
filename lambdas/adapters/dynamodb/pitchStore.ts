import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { key } from '../../../schema/table';
import type { PitchStore, TrackPitches } from '../../ports';
import { queryAll } from './query';

/**
 * Who the artist pitched a track to, read from the PITCHED items of (track, address) the claim puts, and
 * who of them passed ('Not for us' or the artist's Passed mark sets `passed_at`): key and date only.
 */
export class DynamoPitchStore implements PitchStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async pitchesOf(userId: string, trackKey: string): Promise<TrackPitches> {
    const prefix = key.pitchedPrefix(trackKey);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': key.user(userId), ':prefix': prefix },
      ProjectionExpression: 'SK, passed_at',
    });
    const pitched = new Set<string>();
    const passed = new Map<string, string>();
    for (const item of items) {
      const addressId = String(item.SK).slice(prefix.length);
      pitched.add(addressId);
      if (typeof item.passed_at === 'string') passed.set(addressId, item.passed_at);
    }
    return { pitched, passed };
  }
}
