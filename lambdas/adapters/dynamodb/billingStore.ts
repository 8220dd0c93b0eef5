/**
 * The billing group's items (schema/ACCESS_PATTERNS.md): the user ↔ provider customer mapping, created
 * once in one transaction; the ids of applied webhook events (TTL); and the one write of a profile's
 * tier, guarded by the time its provider read started so an older read never overwrites a newer one.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { key, ttlAttribute } from '../../../schema/table';
import { PROCESSED_EVENT_TTL_DAYS } from '../../core/billing';
import type { BillingStore, BillingWriteResult, ProfileBillingState } from '../../ports';
import { epochSeconds } from '../clock';
import { toProfile } from './profileStore';

const DAY_MS = 86_400_000;

export class DynamoBillingStore implements BillingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private readonly userCustomerKey = (userId: string) => ({ PK: key.user(userId), SK: key.billingCustomer() });
  private readonly customerUserKey = (customerId: string) => ({ PK: key.customerPartition(customerId), SK: key.customerSort() });
  private readonly eventKey = (eventId: string) => ({ PK: key.billingEventPartition(eventId), SK: key.billingEventSort() });

  async customerOf(userId: string): Promise<string | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.userCustomerKey(userId), ConsistentRead: true }));
    return typeof Item?.customerId === 'string' ? Item.customerId : undefined;
  }

  async userOfCustomer(customerId: string): Promise<string | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.customerUserKey(customerId), ConsistentRead: true }));
    return typeof Item?.userId === 'string' ? Item.userId : undefined;
  }

  async linkCustomer(userId: string, customerId: string): Promise<string> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...this.userCustomerKey(userId), entity: 'billingCustomer', customerId },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: { ...this.customerUserKey(customerId), entity: 'billingCustomerUser', userId },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
          ],
        }),
      );
      return customerId;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      // A concurrent first checkout linked its customer first: that one is the user's.
      const stored = await this.customerOf(userId);
      if (stored === undefined) throw error;
      return stored;
    }
  }

  async wasApplied(eventId: string): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.eventKey(eventId), ConsistentRead: true }));
    return Item !== undefined;
  }

  async markApplied(eventId: string, appliedAt: Date): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...this.eventKey(eventId),
          entity: 'billingEvent',
          appliedAt: appliedAt.toISOString(),
          [ttlAttribute]: epochSeconds(new Date(appliedAt.getTime() + PROCESSED_EVENT_TTL_DAYS * DAY_MS)),
        },
      }),
    );
  }

  async writeBillingState(userId: string, state: ProfileBillingState, readAt: Date): Promise<BillingWriteResult> {
    const profileKey = { PK: key.user(userId), SK: key.profile() };
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: profileKey,
          UpdateExpression:
            'SET tier = :tier, email_limit = :email_limit, subscription_status = :status, subscription_end = :end, ' +
            'cancel_at_period_end = :cancel, billing_synced_at = :read_at',
          // ISO times of one format compare as strings in time order.
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(billing_synced_at) OR billing_synced_at <= :read_at)',
          ExpressionAttributeValues: {
            ':tier': state.tier,
            ':email_limit': state.email_limit,
            ':status': state.subscription_status,
            ':end': state.subscription_end,
            ':cancel': state.cancel_at_period_end,
            ':read_at': readAt.toISOString(),
          },
          // The profile as it was, so the caller sees the tier this write replaced; the profile after is it with `state` set.
          ReturnValues: 'ALL_OLD',
        }),
      );
      if (!Attributes) throw new Error('DynamoDB returned no attributes for an UpdateItem on an existing item with ReturnValues ALL_OLD');
      const before = toProfile(Attributes);
      return { outcome: 'written', profile: { ...before, ...state }, previousTier: before.tier };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: profileKey, ConsistentRead: true }));
      return Item ? { outcome: 'stale', profile: toProfile(Item) } : { outcome: 'no_profile' };
    }
  }
}
