import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Profile, ProfileUpdate } from '../../../schema/api/profile';
import { key } from '../../../schema/table';
import type { ProfileStore } from '../../ports';
import { withoutKeys } from './client';

/**
 * Attributes stored on the profile item that the API never returns: the mailbox token, and when the
 * billing state was read from the provider (the billing store's guard against an older read).
 */
const PRIVATE_FIELDS = ['gmail_refresh_token', 'billing_synced_at'];

/** The fields a profile stored before they existed lacks. */
type LaterFields = 'gmail_email' | 'subscription_status' | 'subscription_end' | 'cancel_at_period_end' | 'tour_completed' | 'time_zone';

export function toProfile(item: Record<string, unknown>): Profile {
  const stored = withoutKeys<Omit<Profile, LaterFields> & Partial<Pick<Profile, LaterFields>>>(item, PRIVATE_FIELDS);
  return {
    ...stored,
    // Profiles stored before the mailbox connection existed have no address field.
    gmail_email: stored.gmail_email ?? null,
    // Profiles stored before billing existed have never subscribed.
    subscription_status: stored.subscription_status ?? 'none',
    subscription_end: stored.subscription_end ?? null,
    cancel_at_period_end: stored.cancel_at_period_end ?? false,
    // Profiles stored before the tour's flag moved here kept it in the browser only (the tour still reads that).
    tour_completed: stored.tour_completed ?? false,
    // Profiles stored before send windows (issue 27) have no zone: the web offers the browser's.
    time_zone: stored.time_zone ?? null,
  };
}

export class DynamoProfileStore implements ProfileStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(userId: string): Promise<Profile | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { PK: key.user(userId), SK: key.profile() } }));
    return Item ? toProfile(Item) : undefined;
  }

  async createIfMissing(profile: Profile): Promise<Profile> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { PK: key.user(profile.id), SK: key.profile(), entity: 'profile', ...profile },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
      return profile;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // Another first request won the race: the stored profile is the truth.
      const stored = await this.get(profile.id);
      if (!stored) throw error;
      return stored;
    }
  }

  async update(userId: string, update: ProfileUpdate): Promise<Profile | undefined> {
    const fields = Object.entries<unknown>(update).filter(([, value]) => value !== undefined);
    if (fields.length === 0) return this.get(userId);
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { PK: key.user(userId), SK: key.profile() },
          UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
          ConditionExpression: 'attribute_exists(PK)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? toProfile(Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}
