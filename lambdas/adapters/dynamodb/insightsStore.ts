/**
 * The insights group's reads (schema/ACCESS_PATTERNS.md "counters", "recent sends"; DESIGN §11), all
 * read-only and bounded whatever the history:
 *  - dashboard: GetItem `STATS`; one Query `STATS#<from>`…`STATS#<to>`; GSI1 `USER#<sub>#SENT`
 *    descending, Limit RECENT_SENDS; one BatchGetItem of those sends' campaigns (their track names).
 *  - analytics: one Query of the period's day items (≤ 366) and one of the campaign items, projected (their
 *    counters, per follow-up step too, and the steps' days only).
 *  - links: GetItem of the caller's campaign (another user's id is not there), then `LINK#` of its partition.
 *  - activity: GSI1 `USER#<sub>#SENT` from the period's first instant, descending, a page at a time,
 *    with the campaigns' track names in one BatchGetItem.
 */
import { GetCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { indexes, key } from '../../../schema/table';
import type { Activity, ActivityFilter, EmailListen, LinkClicks, RecentSend } from '../../../schema/api/insights';
import { ACTIVITY_PAGE_SIZE, RECENT_SENDS } from '../../../schema/api/insightsValues';
import { FOLLOW_UP_STEPS_MAX } from '../../../schema/api/followUpValues';
import { EMAIL_COUNTERS, STEP_COUNTERS, type StepCounters } from '../../core/counters';
import { isUlid } from '../../core/ids';
import { emailListen, ENGAGEMENT_TIMES, type CampaignCounters, type DayRange, type StoredDay, type UserTotals } from '../../core/insights';
import type { ActivityPageResult, InsightsStore } from '../../ports';
import { batchGetAll } from './batch';
import { statsDayKey, statsTotalsKey } from './counters';
import { projectionOf, queryAll, queryPartition, type Projection } from './query';

type Item = Record<string, unknown>;

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A sent email's listen attributes (issue 16), as emailListen reads them. */
const LISTEN_FIELDS = ['listen_max_percent', 'play_count', 'download_count', 'answer', 'answer_note'] as const satisfies readonly (keyof EmailListen)[];
/** The attributes a sent email's activity row needs (never its body), plus the keys a cursor is made of. */
const ACTIVITY_FIELDS = [
  'campaign_id',
  'position',
  'recipient_name',
  'recipient_email',
  'sent_at',
  'opened_at',
  'last_opened_at',
  'open_count',
  'machine_open_count',
  'clicked_at',
  'last_clicked_at',
  'click_count',
  ...LISTEN_FIELDS,
] as const satisfies readonly (keyof Activity)[];
/** A recent send's attributes: the index holds every attribute (projection ALL), so the listen's cost no extra read. */
const RECENT_FIELDS = [
  'campaign_id',
  'position',
  'recipient_name',
  'recipient_email',
  'subject',
  'sent_at',
  'opened_at',
  'clicked_at',
  ...LISTEN_FIELDS,
] as const satisfies readonly (keyof RecentSend)[];
const CAMPAIGN_FIELDS = ['id', 'track_name', 'created_at', 'started_sending_at', ...EMAIL_COUNTERS, ...STEP_COUNTERS] as const;

/**
 * The campaign items' projection: the counters, and of the follow-ups (issue 27 §1) only each step's
 * days, enough to count the steps without reading their texts.
 */
const campaignProjection = (): Projection => {
  const fields = projectionOf(CAMPAIGN_FIELDS);
  const steps = Array.from({ length: FOLLOW_UP_STEPS_MAX }, (_, i) => `#fu.#fs[${i}].#fd`);
  return {
    ProjectionExpression: [fields.ProjectionExpression, ...steps].join(', '),
    ExpressionAttributeNames: { ...fields.ExpressionAttributeNames, '#fu': 'follow_ups', '#fs': 'steps', '#fd': 'after_days' },
  };
};

/** How many follow-up steps a campaign item has (as projected): 0 without follow-ups. */
const followUpStepsOf = (item: Item): number => {
  const followUps = item.follow_ups as { steps?: unknown } | undefined;
  return Array.isArray(followUps?.steps) ? followUps.steps.length : 0;
};
/** Day item attributes: `campaigns_sent` is kept per day by the first queued batch (absent: 0). */
const DAY_FIELDS = ['day', 'campaigns_sent', ...EMAIL_COUNTERS] as const;

/**
 * `engaged`: any of the times that say a person did something with the email is there. The sender
 * writes null before (attribute_type, not attribute_exists). A filter, not a key: each Query reads as
 * many emails as before, it only keeps more of them.
 */
const ENGAGED_FILTER = {
  expression: ENGAGEMENT_TIMES.map((_, i) => `attribute_type(#e${i}, :s)`).join(' OR '),
  names: Object.fromEntries(ENGAGEMENT_TIMES.map((name, i) => [`#e${i}`, name])),
  values: { ':s': 'S' },
};

/**
 * The Queries one activity page may take before it answers short (with a cursor): an `engaged` page
 * reads past emails nobody opened (nor listened to), and the request must stay well inside the
 * Lambda's time (each Query evaluates at most a page's worth of emails).
 */
export const ACTIVITY_MAX_QUERIES = 10;

const toStoredDay = (item: Item): StoredDay => ({
  day: String(item.day),
  campaigns_sent: count(item.campaigns_sent),
  ...(Object.fromEntries(EMAIL_COUNTERS.map((name) => [name, count(item[name])])) as Record<(typeof EMAIL_COUNTERS)[number], number>),
});

const toCampaignCounters = (item: Item): CampaignCounters => ({
  id: String(item.id),
  track_name: text(item.track_name) ?? '',
  created_at: text(item.created_at) ?? '',
  started_sending_at: text(item.started_sending_at),
  ...(Object.fromEntries(EMAIL_COUNTERS.map((name) => [name, count(item[name])])) as Record<(typeof EMAIL_COUNTERS)[number], number>),
  ...(Object.fromEntries(STEP_COUNTERS.map((name) => [name, count(item[name])])) as StepCounters),
  follow_up_steps: followUpStepsOf(item),
});

const toActivity = (item: Item, trackName: string): Activity => ({
  campaign_id: String(item.campaign_id),
  track_name: trackName,
  position: count(item.position),
  recipient_name: text(item.recipient_name),
  recipient_email: text(item.recipient_email) ?? '',
  sent_at: text(item.sent_at) ?? '',
  opened_at: text(item.opened_at),
  last_opened_at: text(item.last_opened_at),
  open_count: count(item.open_count),
  machine_open_count: count(item.machine_open_count),
  clicked_at: text(item.clicked_at),
  last_clicked_at: text(item.last_clicked_at),
  click_count: count(item.click_count),
  ...emailListen(item),
});

const toRecentSend = (item: Item, trackName: string): RecentSend => ({
  campaign_id: String(item.campaign_id),
  position: count(item.position),
  track_name: trackName,
  recipient_name: text(item.recipient_name),
  recipient_email: text(item.recipient_email) ?? '',
  subject: text(item.subject),
  sent_at: text(item.sent_at) ?? '',
  opened_at: text(item.opened_at),
  clicked_at: text(item.clicked_at),
  ...emailListen(item),
});

// ---- the activity cursor ---------------------------------------------------------------------------

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * An activity cursor is the base64url of the last row's GSI1 sort key (`<sent at>#<campaign>#<position>`),
 * nothing more: the rest of the start key (the index partition, the item's own key) is rebuilt from it
 * and the caller's id, so no cursor can start a read in another user's partition.
 */
const encodeCursor = (sortKey: string) => Buffer.from(sortKey, 'utf8').toString('base64url');

/** The start key a cursor stands for, or undefined unless this store could have made it for a read from `fromSortKey`. */
function startKeyOf(cursor: string, userId: string, fromSortKey: string): Record<string, string> | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  const [sentAt, campaignId, position, ...rest] = sortKey.split('#');
  if (rest.length > 0 || !sentAt || !campaignId || !position || !ISO_TIME.test(sentAt) || !isUlid(campaignId) || !/^\d{6}$/.test(position)) return undefined;
  // Exactly one encoding of exactly one sort key, inside this period (a cursor of a longer period is not).
  const index = Number(position);
  if (key.sentTimeSort(sentAt, campaignId, index) !== sortKey || encodeCursor(sortKey) !== cursor || sortKey < fromSortKey) return undefined;
  return {
    PK: key.campaignPartition(campaignId),
    SK: key.recipient(index),
    [indexes.byLookup.partitionKey]: key.sentTimeline(userId),
    [indexes.byLookup.sortKey]: sortKey,
  };
}

export interface InsightsStoreOptions {
  /** Rows of an activity page (default ACTIVITY_PAGE_SIZE; tests page with fewer). */
  activityPageSize?: number;
  /** Queries an activity page may take (default ACTIVITY_MAX_QUERIES). */
  activityMaxQueries?: number;
  /** Items a filtered Query evaluates (default: the page size; tests read a few at a time). */
  activityReadLimit?: number;
}

export class DynamoInsightsStore implements InsightsStore {
  private readonly pageSize: number;
  private readonly maxQueries: number;
  private readonly readLimit: number;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: InsightsStoreOptions = {},
  ) {
    this.pageSize = options.activityPageSize ?? ACTIVITY_PAGE_SIZE;
    this.maxQueries = options.activityMaxQueries ?? ACTIVITY_MAX_QUERIES;
    this.readLimit = options.activityReadLimit ?? this.pageSize;
  }

  async dashboard(userId: string, days: DayRange): Promise<{ totals: UserTotals; days: StoredDay[]; recentSends: RecentSend[] }> {
    const [{ Item: totals }, dayItems, sent] = await Promise.all([
      this.db.send(new GetCommand({ TableName: this.tableName, Key: statsTotalsKey(userId) })),
      this.dayItems(userId, days),
      this.db.send(
        new QueryCommand({
          ...this.sentTimeline(userId, RECENT_FIELDS),
          ScanIndexForward: false,
          Limit: RECENT_SENDS,
        }),
      ),
    ]);
    const sends = sent.Items ?? [];
    const trackNames = await this.trackNames(userId, sends);
    return {
      totals: {
        ...(Object.fromEntries(EMAIL_COUNTERS.map((name) => [name, count(totals?.[name])])) as Record<(typeof EMAIL_COUNTERS)[number], number>),
        contacts_count: count(totals?.contacts_count),
        campaigns_sent: count(totals?.campaigns_sent),
      },
      days: dayItems,
      recentSends: sends.map((item) => toRecentSend(item, trackNames.get(String(item.campaign_id)) ?? '')),
    };
  }

  async analytics(userId: string, days: DayRange): Promise<{ days: StoredDay[]; campaigns: CampaignCounters[] }> {
    const [dayItems, campaigns] = await Promise.all([
      this.dayItems(userId, days),
      queryPartition<Item>(this.db, this.tableName, {
        pk: key.user(userId),
        skPrefix: key.campaignPrefix(),
        projection: campaignProjection(),
        newestFirst: true,
      }),
    ]);
    return { days: dayItems, campaigns: campaigns.map(toCampaignCounters) };
  }

  async campaignLinks(userId: string, campaignId: string): Promise<LinkClicks[] | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { PK: key.user(userId), SK: key.campaign(campaignId) }, ProjectionExpression: 'PK' }),
    );
    if (!Item) return undefined;
    // The index is in the sort key (`LINK#<index>`), so the read keeps it: queryAll, not queryPartition (which drops keys).
    const projection = projectionOf(['SK', 'url', 'click_count']);
    const links = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ProjectionExpression: projection.ProjectionExpression,
      ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK', ...projection.ExpressionAttributeNames },
      ExpressionAttributeValues: { ':pk': key.campaignPartition(campaignId), ':prefix': key.linkClicksPrefix() },
    });
    return links.map((link) => ({
      index: Number(String(link.SK).slice(key.linkClicksPrefix().length)),
      url: text(link.url) ?? '',
      click_count: count(link.click_count),
    }));
  }

  /**
   * Reads until the page is full, the index is exhausted or ACTIVITY_MAX_QUERIES Queries are spent:
   * with the `engaged` filter a Query may match few or none of what it read while more are there.
   * The cursor is the last row's sort key (a page may end inside a Query's items) or, for a page that
   * ran out of Queries, where the last Query stopped.
   */
  async activity(userId: string, query: { since: Date; filter: ActivityFilter; cursor?: string }): Promise<ActivityPageResult> {
    const fromSortKey = query.since.toISOString();
    let startKey: Record<string, unknown> | undefined;
    if (query.cursor !== undefined) {
      startKey = startKeyOf(query.cursor, userId, fromSortKey);
      if (!startKey) return { outcome: 'bad_cursor' };
    }
    const engaged = query.filter === 'engaged';
    const timeline = this.sentTimeline(userId, [...ACTIVITY_FIELDS, indexes.byLookup.sortKey]);
    const input: QueryCommandInput = {
      ...timeline,
      KeyConditionExpression: `${timeline.KeyConditionExpression} AND #sk >= :from`,
      ExpressionAttributeNames: { ...timeline.ExpressionAttributeNames, '#sk': indexes.byLookup.sortKey, ...(engaged ? ENGAGED_FILTER.names : {}) },
      ExpressionAttributeValues: { ...timeline.ExpressionAttributeValues, ':from': fromSortKey, ...(engaged ? ENGAGED_FILTER.values : {}) },
      ...(engaged ? { FilterExpression: ENGAGED_FILTER.expression } : {}),
      ScanIndexForward: false,
    };
    const rows: Item[] = [];
    let more = false;
    for (let queries = 0; queries < this.maxQueries && rows.length < this.pageSize; queries++) {
      // Unfiltered, read exactly what is missing; filtered, a page's worth at a time (an unbounded Query
      // would read 1 MB of emails, bodies included, for a page that may need far fewer).
      const limit = engaged ? this.readLimit : this.pageSize - rows.length;
      const page = await this.db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey, Limit: limit }));
      rows.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
      more = startKey !== undefined;
      if (!more) break;
    }
    const activityRows = rows.slice(0, this.pageSize);
    const cutShort = rows.length > this.pageSize;
    const last = activityRows.at(-1);
    let nextCursor: string | null = null;
    if (cutShort && last) nextCursor = encodeCursor(String(last[indexes.byLookup.sortKey]));
    else if (more && startKey) nextCursor = encodeCursor(String(startKey[indexes.byLookup.sortKey]));
    const trackNames = await this.trackNames(userId, activityRows);
    return {
      outcome: 'page',
      activity: activityRows.map((item) => toActivity(item, trackNames.get(String(item.campaign_id)) ?? '')),
      nextCursor,
    };
  }

  /** The user's day items from `from` to `to` (one Query: ≤ 366 small items; pages followed if any). */
  private async dayItems(userId: string, { from, to }: DayRange): Promise<StoredDay[]> {
    const projection = projectionOf(DAY_FIELDS);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ProjectionExpression: projection.ProjectionExpression,
      ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK', ...projection.ExpressionAttributeNames },
      ExpressionAttributeValues: { ':pk': key.user(userId), ':from': statsDayKey(userId, from).SK, ':to': statsDayKey(userId, to).SK },
    });
    return items.map(toStoredDay);
  }

  /** A Query of the user's sent-email timeline (GSI1), projected to `fields`. */
  private sentTimeline(userId: string, fields: readonly string[]) {
    const projection = projectionOf(fields);
    return {
      TableName: this.tableName,
      IndexName: indexes.byLookup.name,
      KeyConditionExpression: '#gpk = :gpk',
      ProjectionExpression: projection.ProjectionExpression,
      ExpressionAttributeNames: { '#gpk': indexes.byLookup.partitionKey, ...projection.ExpressionAttributeNames },
      ExpressionAttributeValues: { ':gpk': key.sentTimeline(userId) } as Record<string, unknown>,
    };
  }

  /** The track name of each campaign these sends belong to: one BatchGetItem of the user's own campaign items. */
  private async trackNames(userId: string, sends: readonly Item[]): Promise<Map<string, string>> {
    const ids = [...new Set(sends.map((item) => String(item.campaign_id)))];
    if (ids.length === 0) return new Map();
    const campaigns = await batchGetAll(
      this.db,
      this.tableName,
      ids.map((id) => ({ PK: key.user(userId), SK: key.campaign(id) })),
      { projection: ['id', 'track_name'] },
    );
    return new Map(campaigns.map((item) => [String(item.id), text(item.track_name) ?? '']));
  }
}
