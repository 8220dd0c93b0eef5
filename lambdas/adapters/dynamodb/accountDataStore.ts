/**
 * The user's items, all kinds at once (issue 26 §3; schema/ACCESS_PATTERNS.md "the user's own data"): the
 * data export's reads and the account's erasure. Nothing scans: the user's partition (`USER#<sub>`) names
 * every campaign, whose own partition (`CAMPAIGN#<id>`: emails, written emails, link clicks, listen
 * windows) names each sent email's token (`TOKEN#<token>`); `BILLING#CUSTOMER` names the customer's link
 * (`BILLINGCUSTOMER#<customer>`). The index entries (GSI1 `USER#<sub>#CONTACTS`, `USER#<sub>#SENT`,
 * `USER#<sub>#TODOS`, DUE) are attributes of those items and go with them.
 */
import { DeleteCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Contact } from '../../../schema/api/contacts';
import { contactFields } from '../../../schema/api/recordFields';
import { indexes, key } from '../../../schema/table';
import type { AccountDataStore, CampaignStore, ErasureCount, ExportedCampaign } from '../../ports';
import { batchWriteAll } from './batch';
import { projectionOf, queryAll } from './query';
import { RECIPIENT_FIELDS, senderKey, toRecipient, type ItemKey } from './sending/items';

const contactProjection = projectionOf(contactFields);
const recipientProjection = projectionOf(RECIPIENT_FIELDS);

export class DynamoAccountDataStore implements AccountDataStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly deps: { campaigns: Pick<CampaignStore, 'list'> },
  ) {}

  async contacts(userId: string): Promise<Contact[]> {
    // The timeline index is sorted by creation: oldest first, as the contacts were added.
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: indexes.byLookup.name,
      KeyConditionExpression: '#pk = :pk',
      ...contactProjection,
      ExpressionAttributeNames: { ...contactProjection.ExpressionAttributeNames, '#pk': indexes.byLookup.partitionKey },
      ExpressionAttributeValues: { ':pk': key.contactTimeline(userId) },
    });
    return items as Contact[];
  }

  async *campaigns(userId: string): AsyncIterable<ExportedCampaign> {
    for (const campaign of await this.deps.campaigns.list(userId)) {
      const items = await queryAll(this.db, {
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ...recipientProjection,
        ExpressionAttributeValues: { ':pk': key.campaignPartition(campaign.id), ':prefix': key.recipientPrefix() },
      });
      yield { campaign, emails: items.map(toRecipient) };
    }
  }

  async trackIds(userId: string): Promise<string[]> {
    const items = await this.userKeys(userId, key.trackPrefix());
    return items.map((item) => item.SK.slice(key.trackPrefix().length));
  }

  async erase(userId: string): Promise<ErasureCount> {
    // The sending cursor first: a tick that is due finds no cursor and sends nothing more.
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: senderKey(userId) }));
    let linkedItems = 0;
    // Each campaign's partition and its emails' tokens before the campaign item that leads to them.
    for (const campaign of await this.userKeys(userId, key.campaignPrefix())) {
      const partition = await queryAll(this.db, {
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk',
        ProjectionExpression: 'PK, SK, #token, follow_up_1, follow_up_2',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: { ':pk': key.campaignPartition(campaign.SK.slice(key.campaignPrefix().length)) },
      });
      // Each email's token, and its follow-up steps' own tokens (issue 27).
      const tokens = partition
        .flatMap((item) => [item.token, ...[item.follow_up_1, item.follow_up_2].map((outcome) => (outcome as { token?: unknown } | undefined)?.token)])
        .flatMap((token) => (typeof token === 'string' ? [{ PK: key.tokenPartition(token), SK: key.tokenSort() }] : []));
      await this.deleteKeys(tokens);
      await this.deleteKeys(partition.map(keyOf));
      linkedItems += tokens.length + partition.length;
    }
    // The billing customer's link back to the user, before the user's item that names the customer.
    const { Item: billing } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { PK: key.user(userId), SK: key.billingCustomer() }, ConsistentRead: true }),
    );
    if (typeof billing?.customerId === 'string') {
      await this.deleteKeys([{ PK: key.customerPartition(billing.customerId), SK: key.customerSort() }]);
      linkedItems += 1;
    }
    // Then the user's partition, whole.
    const own = await this.userKeys(userId);
    await this.deleteKeys(own);
    return { linkedItems, userItems: own.length };
  }

  /** The keys of the user's items (under a sort-key prefix when given), consistent: what the erasure deletes. */
  private async userKeys(userId: string, prefix?: string): Promise<ItemKey[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: prefix === undefined ? 'PK = :pk' : 'PK = :pk AND begins_with(SK, :prefix)',
      ProjectionExpression: 'PK, SK',
      ExpressionAttributeValues: { ':pk': key.user(userId), ...(prefix === undefined ? {} : { ':prefix': prefix }) },
      ConsistentRead: true,
    });
    return items.map(keyOf);
  }

  private deleteKeys(keys: readonly ItemKey[]): Promise<void> {
    return batchWriteAll(
      this.db,
      this.tableName,
      keys.map((Key) => ({ DeleteRequest: { Key } })),
    );
  }
}

const keyOf = (item: Record<string, unknown>): ItemKey => ({ PK: String(item.PK), SK: String(item.SK) });
