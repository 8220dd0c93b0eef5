import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Campaign } from '../../../schema/api/campaigns';
import { campaignFields } from '../../../schema/api/recordFields';
import { key } from '../../../schema/table';
import type { CampaignStore, DraftContent, DraftDeleteResult, DraftWriteResult, IdGenerator } from '../../ports';
import { updatedItem, withoutKeys } from './client';
import { counterUpdates } from './counters';
import { projectionOf, queryPartition } from './query';
import { retryingRaces } from './races';
import { newDraftCampaign, withListenDefaults } from '../../core/campaign';

/**
 * A user's campaigns (schema/ACCESS_PATTERNS.md): `USER#<sub>` / `CAMPAIGN#<ulid>`. The ULID starts
 * with the creation time, so the partition read descending is the newest-first list. Compose only
 * creates drafts and changes them while they are drafts; the sending store (sending/queue.ts) moves them on.
 * `campaigns_created` (`STATS` and `STATS#<Pacific day of created_at>`) rises in the creating
 * transaction and falls in the one deleting a draft (a sent campaign is never deleted), so it counts the
 * campaigns that exist, as the backfill does.
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
    const { statsTotals, statsDay } = counterUpdates(this.tableName, userId, new Date(campaign.created_at), { campaigns_created: 1 });
    await retryingRaces(() =>
      this.db.send(
        new TransactWriteCommand({
          // An SDK retry after a lost response then succeeds instead of failing on its own campaign.
          ClientRequestToken: randomUUID(),
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...campaignKey(userId, campaign.id), entity: CAMPAIGN, ...campaign },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
            statsTotals,
            ...(statsDay ? [statsDay] : []),
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
   * One transaction: the delete, conditional on the draft status, and the counters it leaves (the day of
   * its created_at, read first). A campaign that started sending between the read and the write is kept.
   */
  async deleteDraft(userId: string, id: string): Promise<DraftDeleteResult> {
    const stored = await this.get(userId, id);
    if (!stored) return { outcome: 'not_found' };
    if (stored.status !== DRAFT) return { outcome: 'not_draft' };
    const { statsTotals, statsDay } = counterUpdates(this.tableName, userId, new Date(stored.created_at), { campaigns_created: -1 });
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.tableName,
                Key: campaignKey(userId, id),
                ConditionExpression: 'attribute_exists(PK) AND #status = :draft',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':draft': DRAFT },
              },
            },
            statsTotals,
            ...(statsDay ? [statsDay] : []),
          ],
        }),
      );
      return { outcome: 'deleted' };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException) || cancellationCodes(error)[0] !== 'ConditionalCheckFailed') throw error;
      return (await this.get(userId, id)) ? { outcome: 'not_draft' } : { outcome: 'not_found' };
    }
  }
}

/** Why a transaction was cancelled: one reason per item, in order. */
const cancellationCodes = (error: unknown): string[] =>
  ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');

/** Only the contract's fields: an item read whole (ALL_NEW, the sending store's reads) also holds internal attributes. */
export function contractCampaign(campaign: Campaign): Campaign {
  const full = withListenDefaults(campaign);
  return Object.fromEntries(CAMPAIGN_FIELDS.filter((field) => field in full).map((field) => [field, full[field]])) as Campaign;
}
