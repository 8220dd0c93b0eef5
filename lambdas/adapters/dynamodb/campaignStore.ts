import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Campaign } from '../../../schema/api/campaigns';
import { campaignFields } from '../../../schema/api/recordFields';
import { key } from '../../../schema/table';
import type { CampaignStore, DraftContent, DraftDeleteResult, DraftWriteResult, IdGenerator } from '../../ports';
import { batchWriteAll } from './batch';
import { updatedItem, withoutKeys } from './client';
import { projectionOf, queryAll, queryPartition } from './query';
import { retryingRaces } from './races';
import { newDraftCampaign, withListenDefaults } from '../../core/campaign';

/**
 * A user's campaigns (schema/ACCESS_PATTERNS.md): `USER#<sub>` / `CAMPAIGN#<ulid>`. The ULID starts
 * with the creation time, so the partition read descending is the newest-first list. Compose only
 * creates drafts and changes them while they are drafts; the sending store (sending/queue.ts) moves them on
 * and counts them (`campaigns_sent`): a draft is in no counter, so creating or deleting one writes none.
 */
const CAMPAIGN = 'campaign';
const DRAFT: Campaign['status'] = 'draft';

/** The fields of a Campaign, in the API's order: what a read returns (attributes the sender adds stay inside). */
const CAMPAIGN_FIELDS: readonly (keyof Campaign)[] = campaignFields;

const projection = projectionOf(CAMPAIGN_FIELDS);

const campaignKey = (userId: string, id: string) => ({ PK: key.user(userId), SK: key.campaign(id) });

const toCampaign = (item: Record<string, unknown>) => withListenDefaults(withoutKeys<Campaign>(item));

export class DynamoCampaignStore implements CampaignStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly deps: { ids: IdGenerator },
  ) {}

  async createDraft(userId: string, content: DraftContent, now: Date): Promise<Campaign> {
    const campaign = newDraftCampaign(this.deps.ids.next(now), content, now.toISOString());
    await retryingRaces(() =>
      this.db.send(
        new TransactWriteCommand({
          // A transaction for its token: an SDK retry after a lost response then succeeds instead of failing on its own campaign.
          ClientRequestToken: randomUUID(),
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...campaignKey(userId, campaign.id), entity: CAMPAIGN, ...campaign },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
          ],
        }),
      ),
    );
    return campaign;
  }

  async get(userId: string, id: string): Promise<Campaign | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: campaignKey(userId, id), ConsistentRead: true, ...projection }));
    return Item ? toCampaign(Item) : undefined;
  }

  async list(userId: string): Promise<Campaign[]> {
    const stored = await queryPartition<Campaign>(this.db, this.tableName, {
      pk: key.user(userId),
      skPrefix: key.campaignPrefix(),
      projection,
      newestFirst: true,
    });
    return stored.map(withListenDefaults);
  }

  /**
   * One conditional UpdateItem: the draft check is part of the write, so a campaign that started
   * sending meanwhile is never rewritten. When the condition fails, a consistent read says why
   * (ReturnValuesOnConditionCheckFailure would hand back the raw item, which the document client
   * does not unmarshall; this path is rare, so one read is the simpler answer).
   */
  async updateDraft(userId: string, id: string, changes: Partial<DraftContent>, now: Date): Promise<DraftWriteResult> {
    const fields = Object.entries<unknown>({ ...changes, updated_at: now.toISOString() }).filter(([, value]) => value !== undefined);
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: campaignKey(userId, id),
          UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(PK) AND #status = :draft',
          ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(fields.map(([field], i) => [`#f${i}`, field])) },
          ExpressionAttributeValues: { ':draft': DRAFT, ...Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { outcome: 'saved', campaign: contractCampaign(toCampaign(updatedItem(Attributes))) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const stored = await this.get(userId, id);
      return stored ? { outcome: 'not_draft', campaign: stored } : { outcome: 'not_found' };
    }
  }

  /**
   * The campaign item's delete, conditional on the draft status (a campaign that started sending
   * meanwhile is kept; a consistent read then says why), then every item of the draft's own partition:
   * the writer's per-recipient emails, and the recipients of a first batch that was refused. Only after
   * the draft was found under the caller's partition, so no id reaches another user's items.
   */
  async deleteDraft(userId: string, id: string): Promise<DraftDeleteResult> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: campaignKey(userId, id),
          ConditionExpression: 'attribute_exists(PK) AND #status = :draft',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':draft': DRAFT },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return (await this.get(userId, id)) ? { outcome: 'not_draft' } : { outcome: 'not_found' };
    }
    await this.deleteDraftPartition(id);
    return { outcome: 'deleted' };
  }

  /** Every item under `CAMPAIGN#<id>`, keys only, deleted in batches. */
  private async deleteDraftPartition(id: string): Promise<void> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': key.campaignPartition(id) },
      ProjectionExpression: 'PK, SK',
      ConsistentRead: true,
    });
    await batchWriteAll(
      this.db,
      this.tableName,
      items.map((item) => ({ DeleteRequest: { Key: { PK: item.PK, SK: item.SK } } })),
    );
  }
}

/** Only the contract's fields: an item read whole (ALL_NEW, the sending store's reads) also holds internal attributes. */
export function contractCampaign(campaign: Campaign): Campaign {
  const full = withListenDefaults(campaign);
  return Object.fromEntries(CAMPAIGN_FIELDS.filter((field) => field in full).map((field) => [field, full[field]])) as Campaign;
}
