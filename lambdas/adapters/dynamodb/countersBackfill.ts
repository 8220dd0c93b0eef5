/**
 * Reads and rebuilds a user's counters (`STATS`, `STATS#<Pacific day>`) from the logs: every email of the user's
 * campaigns (their RCPT items) and the user's unsubscribes from an email, and from the user's items:
 * how many contacts there are (`contacts_count`) and the day each campaign left draft (`campaigns_sent`: its
 * `started_sending_at`, else its `created_at`; core `campaignSentAt`).
 * It writes what these say (whole items, so running it twice changes nothing) and deletes day items
 * they have nothing on.
 * For accounts from before the counters, or to repair them; meant for a quiet account (an event
 * counted while it runs may be overwritten by the rebuilt value, and is then counted on the next run).
 * Link click counters (`LINK#<index>`) are not rebuilt: no log says which link a click was on.
 * Reads: one Query of the campaigns, one per campaign, one of the unsubscribes, a COUNT Query of the
 * contacts (all pages each).
 */
import { GetCommand, paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { key } from '../../../schema/table';
import {
  countersFromLogs,
  DAY_COUNTERS,
  emptyDay,
  emptyTotals,
  type CountersFromLogs,
  type DayCounters,
  type LoggedEmail,
  type LoggedUnsubscribe,
  type StoredCampaign,
  type TotalCounters,
} from '../../core/counters';
import { batchWriteAll, type WriteRequest } from './batch';
import { COUNTER_ENTITY, statsDayKey, statsTotalsKey } from './counters';
import { countAll, projectionOf, queryAll, queryPartition } from './query';

const LOGGED_EMAIL_FIELDS = [
  'status',
  'sent_at',
  'opened_at',
  'open_count',
  'machine_opened_at',
  'machine_open_count',
  'clicked_at',
  'click_count',
  'listened_at',
  'first_answered_at',
  'play_count',
  'download_count',
] as const satisfies readonly (keyof LoggedEmail)[];

/** The counters one user's logs and items say, read from the table. */
export async function countersInLogs(db: DynamoDBDocumentClient, tableName: string, userId: string): Promise<CountersFromLogs> {
  const campaigns = await queryPartition<StoredCampaign & { id: string }>(db, tableName, {
    pk: key.user(userId),
    skPrefix: key.campaignPrefix(),
    projection: projectionOf(['id', 'status', 'created_at', 'started_sending_at']),
  });
  const contacts = await countAll(db, {
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :contact)',
    ExpressionAttributeValues: { ':pk': key.user(userId), ':contact': key.contactPrefix() },
    ConsistentRead: true,
  });
  const emails: LoggedEmail[] = [];
  for (const campaign of campaigns) {
    const logged = await queryPartition<Partial<LoggedEmail>>(db, tableName, {
      pk: key.campaignPartition(campaign.id),
      skPrefix: key.recipientPrefix(),
      projection: projectionOf(LOGGED_EMAIL_FIELDS),
    });
    for (const email of logged) {
      emails.push({
        status: email.status ?? 'pending',
        sent_at: email.sent_at ?? null,
        opened_at: email.opened_at ?? null,
        open_count: email.open_count ?? 0,
        machine_opened_at: email.machine_opened_at ?? null,
        machine_open_count: email.machine_open_count ?? 0,
        clicked_at: email.clicked_at ?? null,
        click_count: email.click_count ?? 0,
        listened_at: email.listened_at ?? null,
        first_answered_at: email.first_answered_at ?? null,
        play_count: email.play_count ?? 0,
        download_count: email.download_count ?? 0,
      });
    }
  }
  const unsubscribes = await queryPartition<{ unsubscribed_at?: string; campaign_id?: string | null }>(db, tableName, {
    pk: key.user(userId),
    skPrefix: key.unsubscribePrefix(),
    projection: projectionOf(['unsubscribed_at', 'campaign_id']),
  });
  // Only an unsubscribe from an email is counted (the tracking route's); its time is when it happened.
  const fromEmails = unsubscribes.filter((u): u is LoggedUnsubscribe & { campaign_id: string } => Boolean(u.campaign_id && u.unsubscribed_at));
  return countersFromLogs(emails, fromEmails, { contacts, campaigns });
}

/** Sets the user's counters to what the logs and items say (SET, never ADD); returns them. Idempotent. */
export async function rebuildCounters(db: DynamoDBDocumentClient, tableName: string, userId: string): Promise<CountersFromLogs> {
  const rebuilt = await countersInLogs(db, tableName, userId);
  const existingDays = await queryPartition<{ day: string }>(db, tableName, {
    pk: key.user(userId),
    skPrefix: key.statsDayPrefix(),
    projection: projectionOf(['day']),
  });
  const requests: WriteRequest[] = [
    { PutRequest: { Item: { ...statsTotalsKey(userId), entity: COUNTER_ENTITY, ...rebuilt.totals } } },
    ...[...rebuilt.days].map(([day, counters]) => ({ PutRequest: { Item: { ...statsDayKey(userId, day), entity: COUNTER_ENTITY, day, ...counters } } })),
    ...existingDays.filter(({ day }) => !rebuilt.days.has(day)).map(({ day }) => ({ DeleteRequest: { Key: statsDayKey(userId, day) } })),
  ];
  await batchWriteAll(db, tableName, requests);
  return rebuilt;
}

/**
 * The user's counters as stored: the totals (one GetItem) and the day items from `from` to `to`
 * (Pacific 'YYYY-MM-DD', inclusive; one Query, ≤ 366 items for a year). Missing counters read 0.
 */
export async function readCounters(
  db: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  range: { from: string; to: string } = { from: '0000-00-00', to: '9999-99-99' },
): Promise<CountersFromLogs> {
  const [{ Item: totalsItem }, dayItems] = await Promise.all([
    db.send(new GetCommand({ TableName: tableName, Key: statsTotalsKey(userId), ConsistentRead: true })),
    queryAll(db, {
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': key.user(userId), ':from': key.statsDay(range.from), ':to': key.statsDay(range.to) },
      ConsistentRead: true,
    }),
  ]);
  const totals = emptyTotals();
  for (const name of Object.keys(totals) as (keyof TotalCounters)[]) totals[name] = Number(totalsItem?.[name] ?? 0);
  const days = new Map<string, DayCounters>();
  for (const item of dayItems) {
    const day = emptyDay();
    for (const name of DAY_COUNTERS) day[name] = Number(item[name] ?? 0);
    days.set(String(item.day), day);
  }
  return { totals, days };
}

/**
 * Every user with a profile, for the rebuild of all accounts once at deploy (`counters:rebuild -- --all`):
 * a Scan, which no request path does, keys only.
 */
export async function* profiledUserIds(db: DynamoDBDocumentClient, tableName: string): AsyncGenerator<string> {
  const userPrefix = key.user('');
  const pages = paginateScan(
    { client: db },
    { TableName: tableName, FilterExpression: 'SK = :profile', ProjectionExpression: 'PK', ExpressionAttributeValues: { ':profile': key.profile() } },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const pk = String(item.PK);
      if (pk.startsWith(userPrefix)) yield pk.slice(userPrefix.length);
    }
  }
}
