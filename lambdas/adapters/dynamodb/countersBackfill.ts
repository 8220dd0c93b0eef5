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
 *
 * The pipeline's backfill (rebuildPipeline, issue 28 §1) gives the PITCHED items of past sends what their
 * emails' records already say (the first open and listen, the latest answer, the Replied mark, when it
 * went) and the snapshot the claim now keeps (track, contact): each an update of an item that exists,
 * setting only what the item lacks, so the events recorded since win and a second run changes nothing.
 * An item whose answer (so kept, or so filled in) is a to-do answer is then put in the user's to-dos (the
 * GSI1 keys an answer now sets: pitchedEvents.ts todoIndexKeys), so older to-dos move to the index.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateScan, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isListenAnswer } from '../../../schema/api/listenValues';
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
import { addressId } from '../../core/addressId';
import { pitchFactsOf, type LoggedPitch } from '../../core/pipeline';
import { pitchKey } from '../../core/sender';
import { batchWriteAll, type WriteRequest } from './batch';
import { COUNTER_ENTITY, statsDayKey, statsTotalsKey } from './counters';
import { updatedItem } from './client';
import { todoIndexKeys, type PitchedPlace } from './pitchedEvents';
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

/** A sent email's record as the pipeline's backfill reads it. */
interface LoggedRecipient {
  status?: string;
  recipient_email?: string;
  recipient_name?: string | null;
  contact?: { id?: string; name?: string; label_name?: string | null };
  sent_at?: string | null;
  opened_at?: string | null;
  listened_at?: string | null;
  answer?: unknown;
  answer_note?: string | null;
  answered_at?: string | null;
  replied_at?: string | null;
}

const stringOrNull = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * Gives the user's PITCHED items of past sends what the sent emails' records say (see the header).
 * Returns how many items it updated (a released hold, never sent, has no item and is left out).
 */
export async function rebuildPipeline(db: DynamoDBDocumentClient, tableName: string, userId: string): Promise<number> {
  const campaigns = await queryPartition<{ id: string; track_name?: string; track_url?: string | null; track_id?: string | null }>(db, tableName, {
    pk: key.user(userId),
    skPrefix: key.campaignPrefix(),
    projection: projectionOf(['id', 'track_name', 'track_url', 'track_id']),
  });
  const pitches: LoggedPitch[] = [];
  const snapshots = new Map<string, Record<string, string | null>>();
  for (const campaign of campaigns) {
    const trackKey = pitchKey({ track_url: campaign.track_url ?? null, track_name: campaign.track_name ?? '' });
    const recipients = await queryPartition<LoggedRecipient>(db, tableName, {
      pk: key.campaignPartition(campaign.id),
      skPrefix: key.recipientPrefix(),
      projection: projectionOf([
        'status',
        'recipient_email',
        'recipient_name',
        'contact',
        'sent_at',
        'opened_at',
        'listened_at',
        'answer',
        'answer_note',
        'answered_at',
        'replied_at',
      ]),
    });
    for (const recipient of recipients) {
      if (recipient.status !== 'sent' || !recipient.sent_at || !recipient.recipient_email) continue;
      const address = addressId(userId, recipient.recipient_email);
      const answer = isListenAnswer(recipient.answer) ? recipient.answer : null;
      pitches.push({
        track_key: trackKey,
        address_id: address,
        sent_at: recipient.sent_at,
        opened_at: stringOrNull(recipient.opened_at),
        listened_at: stringOrNull(recipient.listened_at),
        answer,
        answer_note: answer ? stringOrNull(recipient.answer_note) : null,
        answered_at: answer ? stringOrNull(recipient.answered_at) : null,
        replied_at: stringOrNull(recipient.replied_at),
      });
      snapshots.set(`${trackKey}#${address}`, {
        track_key: trackKey,
        address_id: address,
        track_name: campaign.track_name ?? '',
        track_url: stringOrNull(campaign.track_url),
        track_id: stringOrNull(campaign.track_id),
        contact_id: stringOrNull(recipient.contact?.id),
        name: stringOrNull(recipient.recipient_name) ?? stringOrNull(recipient.contact?.name) ?? recipient.recipient_email,
        email: recipient.recipient_email,
        company: stringOrNull(recipient.contact?.label_name),
      });
    }
  }
  let updated = 0;
  for (const [id, { track_key, address_id, facts }] of pitchFactsOf(pitches)) {
    const given: Record<string, string | null> = { ...snapshots.get(id), sent_at: facts.sent_at };
    for (const fact of ['opened_at', 'listened_at', 'replied_at', 'answer', 'answer_note', 'answered_at'] as const)
      if (facts[fact] !== null) given[fact] = facts[fact];
    // A 'Not for us' the logs say is the latest answer: kept apart, so taking back a Passed mark leaves it passed.
    if (facts.answer === 'not_for_us' && facts.answered_at) given.not_for_us_at = facts.answered_at;
    const names = Object.keys(given);
    try {
      const { Attributes } = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { PK: key.user(userId), SK: key.pitched(track_key, address_id) },
          UpdateExpression: `SET ${names.map((_, i) => `#f${i} = if_not_exists(#f${i}, :v${i})`).join(', ')}`,
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, given[name]])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      updated++;
      await placeInTodos(db, tableName, { userId, trackKey: track_key, addressId: address_id }, updatedItem(Attributes));
    } catch (error) {
      // No item: the hold was given back (or the account is being deleted): nothing to fill in. Or the
      // item was answered since its read: that answer placed it in the to-dos itself.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  return updated;
}

/**
 * Puts a PITCHED item in the user's to-dos, or takes it out, as its answer says (pitchedEvents.ts
 * todoIndexKeys), when it is not so already: an item answered before the to-dos' index has the answer and
 * not the index keys. No write when it is so (a second run changes nothing); conditional on the answer
 * read, so an answer given since (which places the item itself) is not undone: that, or an item gone
 * since, throws ConditionalCheckFailed, which the caller leaves alone as it does for its own update.
 */
async function placeInTodos(db: DynamoDBDocumentClient, tableName: string, place: PitchedPlace, item: Record<string, unknown>): Promise<void> {
  const answer = isListenAnswer(item.answer) ? item.answer : null;
  const answeredAt = stringOrNull(item.answered_at);
  const todo = answer && answeredAt ? todoIndexKeys(place, answer, answeredAt) : undefined;
  const placed = todo ? item.GSI1PK === todo.GSI1PK && item.GSI1SK === todo.GSI1SK : item.GSI1PK === undefined && item.GSI1SK === undefined;
  if (placed) return;
  const values = { ...(todo ? { ':pk': todo.GSI1PK, ':sk': todo.GSI1SK } : {}), ...(answeredAt ? { ':at': answeredAt } : {}) };
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { PK: key.user(place.userId), SK: key.pitched(place.trackKey, place.addressId) },
      UpdateExpression: todo ? 'SET GSI1PK = :pk, GSI1SK = :sk' : 'REMOVE GSI1PK, GSI1SK',
      ConditionExpression: answeredAt ? 'attribute_exists(PK) AND answered_at = :at' : 'attribute_exists(PK) AND attribute_not_exists(answered_at)',
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    }),
  );
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
