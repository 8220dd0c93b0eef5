import { GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Unsubscribe } from '../../../schema/api/contacts';
import { unsubscribeFields } from '../../../schema/api/recordFields';
import { key } from '../../../schema/table';
import { addressId } from '../../core/contacts';
import type { Resubscriber, UnsubscribeStore } from '../../ports';
import { withoutKeys } from './client';
import { countAll, queryAll } from './query';
import { conditionFailed } from './races';

/**
 * The addresses that unsubscribed from a user's emails (schema/ACCESS_PATTERNS.md):
 * `USER#<sub>` / `UNSUB#<addressId(sub, email)>`. Keyed by the address, so the sender checks one key
 * per recipient, and recording the same address again replaces its record instead of adding one.
 */
const UNSUBSCRIBE = 'unsubscribe';

/** The fields of an Unsubscribe, in the API's order. */
const UNSUBSCRIBE_FIELDS: readonly (keyof Unsubscribe)[] = unsubscribeFields;

const toUnsubscribe = (item: Record<string, unknown>) => withoutKeys<Unsubscribe>(item);

const unsubscribeKey = (userId: string, id: string) => ({ PK: key.user(userId), SK: key.unsubscribe(id) });

/** Newest unsubscribed_at first; the id breaks ties so the order is stable. */
const newestFirst = (a: Unsubscribe, b: Unsubscribe) => b.unsubscribed_at.localeCompare(a.unsubscribed_at) || a.id.localeCompare(b.id);

export class DynamoUnsubscribeStore implements UnsubscribeStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The user's unsubscribe records: `PK = USER#<sub>`, `begins_with(SK, UNSUB#)`. */
  private partition(userId: string) {
    return {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :unsub)',
      ExpressionAttributeValues: { ':pk': key.user(userId), ':unsub': key.unsubscribePrefix() },
    };
  }

  async list(userId: string): Promise<Unsubscribe[]> {
    // The sort key is the address id, not the time: read them all (one user's list), then sort.
    const items = await queryAll(this.db, {
      ...this.partition(userId),
      ProjectionExpression: UNSUBSCRIBE_FIELDS.map((_, i) => `#f${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(UNSUBSCRIBE_FIELDS.map((field, i) => [`#f${i}`, field])),
    });
    return items.map(toUnsubscribe).sort(newestFirst);
  }

  count(userId: string): Promise<number> {
    return countAll(this.db, this.partition(userId));
  }

  async record(userId: string, unsubscribe: Omit<Unsubscribe, 'id'>): Promise<Unsubscribe> {
    const stored: Unsubscribe = {
      id: addressId(userId, unsubscribe.contact_email),
      contact_name: unsubscribe.contact_name,
      contact_email: unsubscribe.contact_email,
      unsubscribed_at: unsubscribe.unsubscribed_at,
      unsubscribe_reason: unsubscribe.unsubscribe_reason,
      unsubscribe_reason_details: unsubscribe.unsubscribe_reason_details,
      campaign_id: unsubscribe.campaign_id,
      track_name: unsubscribe.track_name,
    };
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...unsubscribeKey(userId, stored.id), entity: UNSUBSCRIBE, ...stored } }));
    return stored;
  }

  async remove(userId: string, id: string, by: Resubscriber): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: unsubscribeKey(userId, id), ConsistentRead: true }));
    if (!Item) return false;
    const removed = toUnsubscribe(Item);
    const at = by.at.toISOString();
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              // The record as read: an unsubscribe recorded again meanwhile is a new opt-out, not this one.
              Delete: {
                TableName: this.tableName,
                Key: unsubscribeKey(userId, id),
                ConditionExpression: 'unsubscribed_at = :read',
                ExpressionAttributeValues: { ':read': removed.unsubscribed_at },
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: {
                  PK: key.user(userId),
                  SK: key.resubscribed(id, at),
                  entity: 'resubscribed',
                  contact_email: removed.contact_email,
                  unsubscribed_at: removed.unsubscribed_at,
                  unsubscribe_reason: removed.unsubscribe_reason,
                  campaign_id: removed.campaign_id,
                  resubscribed_at: at,
                  resubscribed_by: by.userId,
                  resubscribed_by_email: by.email,
                },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (conditionFailed(error)) return false;
      throw error;
    }
  }
}
