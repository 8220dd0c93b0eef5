/**
 * The paced queue on DynamoDB (schema/ACCESS_PATTERNS.md, the pipeline design): the send flow's side
 * (DynamoSendQueueStore: queue batches, pause, resume, usage) and the sender's side (DynamoSenderStore:
 * one BatchGetItem to read, one TransactWriteItems to claim, one to record).
 *
 * Items: the cursor `USER#<sub>` / `SENDER` (queue map, due_at + the sparse DUE index keys,
 * last_claim_at); recipients `CAMPAIGN#<id>` / `RCPT#<position>`; counters `DAY#<date>` / `MONTH#<month>`
 * (`sent`); `TOKEN#<token>` / `TOKEN`; `PITCHED#<track key>#<addressId>`.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Campaign } from '../../../schema/api/campaigns';
import { contractCampaign } from './campaignStore';
import type { Contact } from '../../../schema/api/contacts';
import type { Profile } from '../../../schema/api/profile';
import { SEND_BATCH_SIZE } from '../../../schema/api/sending';
import { indexes, key } from '../../../schema/table';
import { dueShard, headOf } from '../../core/sender';
import { pacificDate, pacificMonth } from '../../core/sendingWindow';
import type {
  ClaimInput,
  ClaimOutcome,
  QueueBatchOutcome,
  RecipientMark,
  RecipientRecord,
  RecordInput,
  SenderCursor,
  SenderHead,
  SenderQueueEntry,
  SenderStore,
  SenderView,
  SendingCampaign,
  SendQueueStore,
  StoredMailbox,
} from '../../ports';
import { batchGetAll, batchWriteAll } from './batch';
import { withoutKeys } from './client';
import { queryAll } from './query';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Item = Record<string, unknown>;

// ---- keys ------------------------------------------------------------------------------------------

const userItem = (userId: string, sk: string) => ({ PK: key.user(userId), SK: sk });
const senderKey = (userId: string) => userItem(userId, key.sender());
const profileKey = (userId: string) => userItem(userId, key.profile());
const mailboxKey = (userId: string) => userItem(userId, key.mailbox());
const campaignKey = (userId: string, campaignId: string) => userItem(userId, key.campaign(campaignId));
const dayKey = (userId: string, at: Date) => userItem(userId, key.dayCounter(pacificDate(at)));
const monthKey = (userId: string, at: Date) => userItem(userId, key.monthCounter(pacificMonth(at)));
const unsubscribeKey = (userId: string, addressId: string) => userItem(userId, key.unsubscribe(addressId));
const recipientKey = (campaignId: string, position: number) => ({ PK: key.campaignPartition(campaignId), SK: key.recipient(position) });
const tokenKey = (token: string) => ({ PK: key.tokenPartition(token), SK: key.tokenSort() });
// The design's layout is PITCHED#<track key>#<addressId> (one prefix query per track); key.pitched
// names its parameters the other way round, so the track key goes first here.
const pitchedSort = (trackKey: string, addressId: string) => key.pitched(trackKey, addressId);
const pitchedPrefix = (trackKey: string) => key.pitched(trackKey, '');

/** The DUE index attributes of a cursor due at `dueAt`. */
const dueAttributes = (userId: string, dueAt: string) => ({
  [indexes.due.partitionKey]: key.duePartition(dueShard(userId)),
  [indexes.due.sortKey]: key.dueSort(dueAt, userId),
});

const sameKey = (a: Item, b: { PK: string; SK: string }) => a.PK === b.PK && a.SK === b.SK;

// ---- items as read -----------------------------------------------------------------------------------

function toCursor(item: Item | undefined): SenderCursor | undefined {
  if (!item) return undefined;
  return {
    queue: (item.queue as Record<string, SenderQueueEntry> | undefined) ?? {},
    due_at: typeof item.due_at === 'string' ? item.due_at : null,
    last_claim_at: typeof item.last_claim_at === 'string' ? item.last_claim_at : null,
  };
}

/** A campaign item with the sending attributes defaulted (a draft has none yet). */
function toSendingCampaign(item: Item): SendingCampaign {
  const campaign = withoutKeys<SendingCampaign>(item);
  return {
    ...campaign,
    queued_through: Number(item.queued_through ?? 0),
    last_batch_at: (item.last_batch_at as string | undefined) ?? null,
    resume_position: typeof item.resume_position === 'number' ? item.resume_position : null,
  };
}

const RECIPIENT_DEFAULTS: Omit<RecipientRecord, 'campaign_id' | 'user_id' | 'position' | 'contact' | 'recipient_name' | 'recipient_email'> = {
  status: 'pending',
  attempts: 0,
  retry_at: null,
  claimed_at: null,
  token: null,
  message_id: null,
  subject: null,
  html: null,
  text: null,
  sent_at: null,
  opened_at: null,
  open_count: 0,
  machine_open_count: 0,
  clicked_at: null,
  click_count: 0,
  detail: null,
  send_again: false,
};
const RECIPIENT_FIELDS = [
  'campaign_id',
  'user_id',
  'position',
  'contact',
  'recipient_name',
  'recipient_email',
  ...Object.keys(RECIPIENT_DEFAULTS),
] as (keyof RecipientRecord)[];

function toRecipient(item: Item): RecipientRecord {
  const stored = withoutKeys<Partial<RecipientRecord>>(item);
  return Object.fromEntries(
    RECIPIENT_FIELDS.map((field) => [field, stored[field] ?? (RECIPIENT_DEFAULTS as Partial<RecipientRecord>)[field] ?? null]),
  ) as unknown as RecipientRecord;
}

function toMailbox(item: Item | undefined): StoredMailbox | undefined {
  if (!item) return undefined;
  const { email, accountType, dailyLimit, sealedRefreshToken, connectedAt } = item as unknown as StoredMailbox;
  return { email, accountType, dailyLimit, sealedRefreshToken, connectedAt };
}

const counterOf = (item: Item | undefined) => Number(item?.sent ?? 0);

// ---- step tags ---------------------------------------------------------------------------------------

/**
 * The pipeline's transactions by name (the store methods that send them). Each one carries its tag:
 * instrumentation reads it with `sendingStepOf(command)` (the fault-injection suite crashes "after the
 * claim" by it), never the expression text, which a correct refactor may rename.
 */
export const SENDING_STEPS = [
  'queueBatch',
  'pause',
  'resume',
  'reschedule',
  'goIdle',
  'advance',
  'complete',
  'forget',
  'postpone',
  'pauseAll',
  'claim',
  'record',
] as const;
export type SendingStep = (typeof SENDING_STEPS)[number];

export interface SendingStepTag {
  step: SendingStep;
  userId: string;
  /** The recipient it is about (advance, postpone, claim, record), or the campaign. */
  campaignId?: string;
  position?: number;
  /** A record's outcome. */
  record?: RecordInput['kind'];
}

const stepTags = new WeakMap<object, SendingStepTag>();

/** What a command these stores sent is in the pipeline (undefined for any other command). */
export const sendingStepOf = (command: object): SendingStepTag | undefined => stepTags.get(command);

// ---- transactions ------------------------------------------------------------------------------------

/** failed[i]: item i's condition failed; oldItems[i]: the item as it was, when item i asked for it (ALL_OLD). */
type TransactResult = { ok: true } | { ok: false; failed: boolean[]; oldItems: (Item | undefined)[] };

/**
 * One TransactWriteItems. A cancellation is answered by index: failed[i] is true when item i's
 * condition failed. A cancellation for another reason (a concurrent transaction on an item) is
 * reported as every item failing, so callers read again; anything else is thrown.
 */
async function transact(db: DynamoDBDocumentClient, tag: SendingStepTag, items: TransactItem[]): Promise<TransactResult> {
  const command = new TransactWriteCommand({ TransactItems: items });
  stepTags.set(command, tag);
  try {
    await db.send(command);
    return { ok: true };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    const codes = reasons.map((reason) => reason.Code ?? 'None');
    if (codes.some((code) => code === 'TransactionConflict')) return { ok: false, failed: items.map(() => true), oldItems: [] };
    if (!codes.every((code) => code === 'None' || code === 'ConditionalCheckFailed')) throw error;
    const oldItems = reasons.map((reason) => reason.Item as Item | undefined);
    return { ok: false, failed: items.map((_, i) => codes[i] === 'ConditionalCheckFailed'), oldItems };
  }
}

/** A string attribute of an item from a cancellation reason (the document client leaves those marshalled). */
const stringAttribute = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof (value as { S?: unknown } | undefined)?.S === 'string' ? (value as { S: string }).S : undefined;

/** An UpdateItem in a transaction; names and values are merged from the parts that build it. */
function update(
  tableName: string,
  itemKey: Item,
  parts: { set?: string[]; add?: string[]; remove?: string[]; condition?: string; names?: Record<string, string>; values?: Item },
): TransactItem {
  const clauses = [
    parts.set?.length ? `SET ${parts.set.join(', ')}` : '',
    parts.add?.length ? `ADD ${parts.add.join(', ')}` : '',
    parts.remove?.length ? `REMOVE ${parts.remove.join(', ')}` : '',
  ].filter(Boolean);
  const values = parts.values && Object.keys(parts.values).length > 0 ? parts.values : undefined;
  const names = parts.names && Object.keys(parts.names).length > 0 ? parts.names : undefined;
  return {
    Update: {
      TableName: tableName,
      Key: itemKey,
      UpdateExpression: clauses.join(' '),
      ...(parts.condition ? { ConditionExpression: parts.condition } : {}),
      ...(names ? { ExpressionAttributeNames: names } : {}),
      ...(values ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/** A counter's ADD (a claim reserves +1, a send that did not happen releases −1). */
const counterAdd = (tableName: string, itemKey: Item, delta: number): TransactItem =>
  update(tableName, itemKey, { set: ['entity = if_not_exists(entity, :counter)'], add: ['sent :delta'], values: { ':delta': delta, ':counter': 'counter' } });

/** The campaign's completion: all batches in, every position processed. */
const completionSet = ['#status = :completed', 'sending_status = :null', 'completed_sending_at = :now', 'next_send_at = :null', 'updated_at = :now'];
const completionValues = (now: Date) => ({ ':completed': 'completed', ':null': null, ':now': now.toISOString() });

/** Tries of pauseAll when the queue keeps changing under it. */
const PAUSE_ALL_ATTEMPTS = 5;

// =====================================================================================================
// The send flow's side.

export class DynamoSendQueueStore implements SendQueueStore {
  constructor(
    readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
    readonly options: { intervalMs: number },
  ) {}

  /** The campaign and the cursor (and what else is asked), consistent, in one request. */
  private async readUser(userId: string, campaignId: string, extra: { PK: string; SK: string }[] = []) {
    const keys = [campaignKey(userId, campaignId), senderKey(userId), ...extra];
    const items = await batchGetAll(this.db, this.tableName, keys, { consistentRead: true });
    const find = (k: { PK: string; SK: string }) => items.find((item) => sameKey(item, k));
    const campaignItem = find(campaignKey(userId, campaignId));
    const senderItem = find(senderKey(userId));
    return { campaign: campaignItem ? toSendingCampaign(campaignItem) : undefined, senderItem, cursor: toCursor(senderItem), find };
  }

  /**
   * The cursor's update that adds (or puts back) a campaign: the queue map is created with the entry
   * when the cursor has none (a nested SET needs the map to exist), and the cursor becomes due at
   * `earliest` when it is not due or due later. Conditional on what was read, its due time included
   * even when it stays: the sender's idle tick may take an empty cursor out of the DUE index between
   * the read and this write, and a campaign added then would wait on a cursor nothing dispatches.
   */
  private addToCursor(userId: string, senderItem: Item | undefined, campaignId: string, entry: SenderQueueEntry, earliest: Date): TransactItem {
    const cursor = toCursor(senderItem);
    const hasQueue = senderItem !== undefined && typeof senderItem.queue === 'object' && senderItem.queue !== null;
    const lastClaim = cursor?.last_claim_at ? Date.parse(cursor.last_claim_at) + this.options.intervalMs : 0;
    const dueAt = new Date(Math.max(earliest.getTime(), lastClaim)).toISOString();
    const moveDue = !cursor?.due_at || dueAt < cursor.due_at;
    const set = [hasQueue ? 'queue.#c = :entry' : 'queue = :queue', 'entity = :sender'];
    const conditions = [
      hasQueue ? 'attribute_exists(queue)' : 'attribute_not_exists(queue)',
      cursor?.due_at ? 'due_at = :readDue' : 'attribute_not_exists(due_at)',
    ];
    const values: Item = {
      ':sender': 'sender',
      ...(hasQueue ? { ':entry': entry } : { ':queue': { [campaignId]: entry } }),
      ...(cursor?.due_at ? { ':readDue': cursor.due_at } : {}),
    };
    if (moveDue) {
      set.push('due_at = :due', '#duePk = :duePk', '#dueSk = :dueSk');
      const due = dueAttributes(userId, dueAt);
      Object.assign(values, { ':due': dueAt, ':duePk': due[indexes.due.partitionKey], ':dueSk': due[indexes.due.sortKey] });
    }
    return update(this.tableName, senderKey(userId), {
      set,
      condition: conditions.join(' AND '),
      names: { ...(hasQueue ? { '#c': campaignId } : {}), ...(moveDue ? { '#duePk': indexes.due.partitionKey, '#dueSk': indexes.due.sortKey } : {}) },
      values,
    });
  }

  /**
   * The mailbox still connected, checked in the transaction that puts a campaign on the cursor: once the
   * sender met invalid_grant (the MAILBOX item deleted), nothing joins the cursor it is about to pause.
   */
  private mailboxConnected(userId: string): TransactItem {
    return { ConditionCheck: { TableName: this.tableName, Key: mailboxKey(userId), ConditionExpression: 'attribute_exists(PK)' } };
  }

  /**
   * Batch n of a selection covers positions [batchStart, batchStart + SEND_BATCH_SIZE) of it (the web
   * sends SEND_BATCH_SIZE per batch, the last one fewer); `contacts` are those of it that are queued.
   * RCPT items are written first (BatchWriteItem), then one transaction moves the campaign on,
   * conditional on `queued_through`, so a retried or concurrent batch is never counted twice.
   */
  async queueBatch(
    userId: string,
    input: { campaignId: string; batchStart: number; total: number; contacts: Contact[]; sendAfter: Date; now: Date; sendAgain?: boolean },
  ): Promise<QueueBatchOutcome> {
    const { campaignId, batchStart, total, contacts, sendAfter, now } = input;
    const sendAgain = input.sendAgain === true;
    for (let attempt = 1; ; attempt++) {
      const { campaign, senderItem } = await this.readUser(userId, campaignId);
      if (!campaign) return { outcome: 'not_found' };
      const first = campaign.status === 'draft';
      if (!first && batchStart < campaign.queued_through) return { outcome: 'already_queued', campaign: contractCampaign(campaign) };
      const acceptable = first
        ? batchStart === 0
        : batchStart === campaign.queued_through && total === campaign.total_recipients && (campaign.status === 'sending' || campaign.status === 'scheduled');
      if (!acceptable || batchStart >= total) return { outcome: 'conflict', campaign: contractCampaign(campaign) };

      const start = first ? 0 : campaign.total_queued;
      const nowIso = now.toISOString();
      await batchWriteAll(
        this.db,
        this.tableName,
        contacts.map((contact, i) => ({
          PutRequest: {
            Item: {
              ...recipientKey(campaignId, start + i),
              entity: 'recipient',
              ...RECIPIENT_DEFAULTS,
              campaign_id: campaignId,
              user_id: userId,
              position: start + i,
              contact,
              recipient_name: contact.name,
              recipient_email: contact.email,
              send_again: sendAgain,
            },
          },
        })),
      );

      const queuedThrough = Math.min(batchStart + SEND_BATCH_SIZE, total);
      const totalQueued = start + contacts.length;
      const sendAfterIso = sendAfter.toISOString();
      const scheduled = sendAfter.getTime() > now.getTime();
      const set = ['queued_through = :through', 'total_queued = :queued', 'total_recipients = :total', 'last_batch_at = :now', 'updated_at = :now'];
      const values: Item = { ':through': queuedThrough, ':queued': totalQueued, ':total': total, ':now': nowIso, ':status': campaign.status };
      if (first) {
        set.push(
          '#status = :newStatus',
          'sending_status = :sending',
          'send_after = :sendAfter',
          'started_sending_at = :now',
          'pause_reason = :null',
          'next_send_at = :sendAfter',
        );
        Object.assign(values, { ':newStatus': scheduled ? 'scheduled' : 'sending', ':sending': 'sending', ':sendAfter': sendAfterIso, ':null': null });
      }
      const items: TransactItem[] = [
        update(this.tableName, campaignKey(userId, campaignId), {
          set,
          condition: `#status = :status AND ${campaign.queued_through === 0 ? '(attribute_not_exists(queued_through) OR queued_through = :zero)' : 'queued_through = :read'}`,
          names: { '#status': 'status' },
          values: { ...values, ...(campaign.queued_through === 0 ? { ':zero': 0 } : { ':read': campaign.queued_through }) },
        }),
      ];
      if (first) {
        items.push(
          this.addToCursor(
            userId,
            senderItem,
            campaignId,
            { position: 0, send_after: sendAfterIso, queued_at: nowIso },
            new Date(Math.max(sendAfter.getTime(), now.getTime())),
          ),
          this.mailboxConnected(userId),
        );
      }
      const result = await transact(this.db, { step: 'queueBatch', userId, campaignId }, items);
      if (result.ok) {
        const next: Campaign = {
          ...campaign,
          total_queued: totalQueued,
          total_recipients: total,
          updated_at: nowIso,
          ...(first
            ? {
                status: scheduled ? 'scheduled' : 'sending',
                sending_status: 'sending',
                send_after: sendAfterIso,
                started_sending_at: nowIso,
                pause_reason: null,
                next_send_at: sendAfterIso,
              }
            : {}),
        } as Campaign;
        return { outcome: 'queued', campaign: contractCampaign(next), queued: contacts.length };
      }
      // The mailbox was disconnected meanwhile (invalid_grant): nothing may join a cursor being paused.
      if (first && result.failed.every((failed, i) => failed === (i === items.length - 1)))
        return { outcome: 'conflict', campaign: contractCampaign(campaign) };
      // The campaign or the cursor changed since the read (another batch, a sender tick): read again.
      if (attempt >= 5) throw new Error(`Could not queue the batch of campaign ${campaignId}: it kept changing`);
    }
  }

  async pause(userId: string, campaignId: string, now: Date) {
    for (let attempt = 1; ; attempt++) {
      const { campaign, cursor } = await this.readUser(userId, campaignId);
      if (!campaign) return { outcome: 'not_found' as const };
      if (campaign.sending_status !== 'sending' || (campaign.status !== 'sending' && campaign.status !== 'scheduled')) {
        return { outcome: 'conflict' as const, campaign: contractCampaign(campaign) };
      }
      const entry = cursor?.queue[campaignId];
      const position = entry?.position ?? campaign.resume_position ?? 0;
      const nowIso = now.toISOString();
      const items: TransactItem[] = [
        update(this.tableName, campaignKey(userId, campaignId), {
          set: ['sending_status = :paused', 'pause_reason = :user', 'resume_position = :position', 'next_send_at = :null', 'updated_at = :now'],
          condition: 'sending_status = :sending',
          values: { ':paused': 'paused', ':user': 'user', ':position': position, ':null': null, ':now': nowIso, ':sending': 'sending' },
        }),
      ];
      if (entry) {
        items.push(
          update(this.tableName, senderKey(userId), {
            remove: ['queue.#c'],
            condition: 'queue.#c.#position = :position',
            names: { '#c': campaignId, '#position': 'position' },
            values: { ':position': position },
          }),
        );
      }
      const result = await transact(this.db, { step: 'pause', userId, campaignId }, items);
      if (result.ok) {
        return {
          outcome: 'paused' as const,
          campaign: contractCampaign({ ...campaign, sending_status: 'paused', pause_reason: 'user', next_send_at: null, updated_at: nowIso }),
        };
      }
      if (attempt >= 5) throw new Error(`Could not pause campaign ${campaignId}: it kept changing`);
    }
  }

  async resume(userId: string, campaignId: string, now: Date) {
    for (let attempt = 1; ; attempt++) {
      const { campaign, senderItem, find } = await this.readUser(userId, campaignId, [mailboxKey(userId)]);
      if (!campaign) return { outcome: 'not_found' as const };
      const connected = find(mailboxKey(userId)) !== undefined;
      if (campaign.sending_status !== 'paused' || !connected) return { outcome: 'conflict' as const, campaign: contractCampaign(campaign) };
      const nowIso = now.toISOString();
      const sendAfter = campaign.send_after && campaign.send_after > nowIso ? campaign.send_after : nowIso;
      const entry: SenderQueueEntry = {
        position: campaign.resume_position ?? 0,
        send_after: sendAfter,
        // Back in its place among the user's campaigns: the time it was first queued.
        queued_at: campaign.started_sending_at ?? nowIso,
      };
      const result = await transact(this.db, { step: 'resume', userId, campaignId }, [
        update(this.tableName, campaignKey(userId, campaignId), {
          set: ['sending_status = :sending', 'pause_reason = :null', 'updated_at = :now', 'next_send_at = :sendAfter'],
          remove: ['resume_position'],
          condition: 'sending_status = :paused',
          values: { ':sending': 'sending', ':null': null, ':now': nowIso, ':paused': 'paused', ':sendAfter': sendAfter },
        }),
        this.addToCursor(userId, senderItem, campaignId, entry, new Date(sendAfter)),
        // A disconnect after the read fails this; the next read sees no mailbox and answers conflict.
        this.mailboxConnected(userId),
      ]);
      if (result.ok) {
        return {
          outcome: 'resumed' as const,
          campaign: contractCampaign({ ...campaign, sending_status: 'sending', pause_reason: null, next_send_at: sendAfter, updated_at: nowIso }),
        };
      }
      if (attempt >= 5) throw new Error(`Could not resume campaign ${campaignId}: it kept changing`);
    }
  }

  async usage(userId: string, now: Date) {
    const keys = [dayKey(userId, now), monthKey(userId, now), senderKey(userId)];
    const items = await batchGetAll(this.db, this.tableName, keys, { consistentRead: true });
    const find = (k: { PK: string; SK: string }) => items.find((item) => sameKey(item, k));
    const cursor = toCursor(find(senderKey(userId)));
    const active = cursor && Object.keys(cursor.queue).length > 0;
    return {
      sentToday: counterOf(find(dayKey(userId, now))),
      usedThisMonth: counterOf(find(monthKey(userId, now))),
      nextSendAt: active ? cursor.due_at : null,
    };
  }

  async pitchedAddressIds(userId: string, trackKey: string): Promise<Set<string>> {
    const prefix = pitchedPrefix(trackKey);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': key.user(userId), ':prefix': prefix },
      ProjectionExpression: 'SK',
    });
    return new Set(items.map((item) => String(item.SK).slice(prefix.length)));
  }

  async listRecipients(campaignId: string): Promise<RecipientRecord[]> {
    // No content: the list is the campaign's queue, not its emails.
    const fields = RECIPIENT_FIELDS.filter((field) => field !== 'html' && field !== 'text');
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': key.campaignPartition(campaignId), ':prefix': key.recipientPrefix() },
      ProjectionExpression: fields.map((_, i) => `#f${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(fields.map((field, i) => [`#f${i}`, field])),
    });
    return items.map(toRecipient);
  }

  async getRecipient(campaignId: string, position: number): Promise<RecipientRecord | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: recipientKey(campaignId, position), ConsistentRead: true }));
    return Item ? toRecipient(Item) : undefined;
  }
}

// =====================================================================================================
// The sender's side.

export class DynamoSenderStore implements SenderStore {
  constructor(
    readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
    readonly options: { intervalMs: number },
  ) {}

  async read(userId: string, now: Date, hint?: SenderHead): Promise<SenderView> {
    const base = [senderKey(userId), profileKey(userId), mailboxKey(userId), dayKey(userId, now), monthKey(userId, now)];
    const headKeys = (head: SenderHead) => [campaignKey(userId, head.campaignId), recipientKey(head.campaignId, head.position)];
    let items = await batchGetAll(this.db, this.tableName, hint ? [...base, ...headKeys(hint)] : base, { consistentRead: true });
    const find = (k: { PK: string; SK: string }) => items.find((item) => sameKey(item, k));
    const cursor = toCursor(find(senderKey(userId)));
    const head = cursor ? headOf(cursor.queue, now) : undefined;
    if (head && (!hint || hint.campaignId !== head.campaignId || hint.position !== head.position)) {
      // The tick's head was stale (or it carried none): the head's two items in a second request.
      items = [...items, ...(await batchGetAll(this.db, this.tableName, headKeys(head), { consistentRead: true }))];
    }
    const profileItem = find(profileKey(userId));
    const campaignItem = head ? find(campaignKey(userId, head.campaignId)) : undefined;
    const recipientItem = head ? find(recipientKey(head.campaignId, head.position)) : undefined;
    return {
      cursor,
      profile: profileItem ? withoutKeys<Profile>(profileItem) : undefined,
      mailbox: toMailbox(find(mailboxKey(userId))),
      sentToday: counterOf(find(dayKey(userId, now))),
      usedThisMonth: counterOf(find(monthKey(userId, now))),
      head: head && {
        ...head,
        campaign: campaignItem ? toSendingCampaign(campaignItem) : undefined,
        recipient: recipientItem ? toRecipient(recipientItem) : undefined,
      },
    };
  }

  /** The cursor's SET of a new due time (with the DUE index keys). */
  private dueSet(userId: string, dueAt: Date) {
    const due = dueAttributes(userId, dueAt.toISOString());
    return {
      set: ['due_at = :due', '#duePk = :duePk', '#dueSk = :dueSk'],
      names: { '#duePk': indexes.due.partitionKey, '#dueSk': indexes.due.sortKey },
      values: { ':due': dueAt.toISOString(), ':duePk': due[indexes.due.partitionKey], ':dueSk': due[indexes.due.sortKey] },
    };
  }

  async reschedule(userId: string, tickDueAt: string, until: Date): Promise<boolean> {
    const due = this.dueSet(userId, until);
    const result = await transact(this.db, { step: 'reschedule', userId }, [
      update(this.tableName, senderKey(userId), { ...due, condition: 'due_at = :tick', values: { ...due.values, ':tick': tickDueAt } }),
    ]);
    return result.ok;
  }

  async goIdle(userId: string, tickDueAt: string): Promise<boolean> {
    const result = await transact(this.db, { step: 'goIdle', userId }, [
      update(this.tableName, senderKey(userId), {
        remove: ['due_at', '#duePk', '#dueSk'],
        condition: 'due_at = :tick AND size(queue) = :zero',
        names: { '#duePk': indexes.due.partitionKey, '#dueSk': indexes.due.sortKey },
        values: { ':tick': tickDueAt, ':zero': 0 },
      }),
    ]);
    return result.ok;
  }

  /** The cursor's move past `position` (or off the campaign when it completes), on the tick's condition. */
  private cursorAdvance(userId: string, campaignId: string, position: number, completes: boolean, tickDueAt?: string): TransactItem {
    const tick = tickDueAt !== undefined;
    return update(this.tableName, senderKey(userId), {
      ...(completes ? { remove: ['queue.#c'] } : { set: ['queue.#c.#position = :next'] }),
      condition: `queue.#c.#position = :position${tick ? ' AND due_at = :tick' : ''}`,
      names: { '#c': campaignId, '#position': 'position' },
      values: { ':position': position, ...(completes ? {} : { ':next': position + 1 }), ...(tick ? { ':tick': tickDueAt } : {}) },
    });
  }

  /** The campaign's counter for a final recipient status, and its completion. */
  private campaignOutcome(
    userId: string,
    campaignId: string,
    counter: string | undefined,
    completes: boolean,
    now: Date,
    extraSet: string[] = [],
    extraValues: Item = {},
  ): TransactItem {
    return update(this.tableName, campaignKey(userId, campaignId), {
      set: [...(completes ? completionSet : []), ...extraSet],
      add: counter ? [`${counter} :one`] : [],
      condition: 'attribute_exists(PK)',
      names: completes ? { '#status': 'status' } : {},
      values: { ...(counter ? { ':one': 1 } : {}), ...(completes ? completionValues(now) : {}), ...extraValues },
    });
  }

  async advance(
    userId: string,
    input: { tickDueAt: string; campaignId: string; position: number; mark?: RecipientMark; completes: boolean; now: Date },
  ): Promise<boolean> {
    const { tickDueAt, campaignId, position, mark, completes, now } = input;
    const items: TransactItem[] = [this.cursorAdvance(userId, campaignId, position, completes, tickDueAt)];
    if (mark) {
      items.push(
        update(this.tableName, recipientKey(campaignId, position), {
          set: ['#status = :status', 'detail = :detail', 'retry_at = :null'],
          condition: '#status = :from',
          names: { '#status': 'status' },
          values: { ':status': mark.status, ':detail': mark.detail, ':from': mark.from, ':null': null },
        }),
      );
    }
    if (mark || completes) items.push(this.campaignOutcome(userId, campaignId, mark ? `emails_${mark.status}` : undefined, completes, now));
    return (await transact(this.db, { step: 'advance', userId, campaignId, position }, items)).ok;
  }

  async complete(userId: string, input: { tickDueAt: string; campaignId: string; now: Date }): Promise<boolean> {
    const { tickDueAt, campaignId, now } = input;
    const result = await transact(this.db, { step: 'complete', userId, campaignId }, [
      update(this.tableName, senderKey(userId), {
        remove: ['queue.#c'],
        condition: 'due_at = :tick AND attribute_exists(queue.#c)',
        names: { '#c': campaignId },
        values: { ':tick': tickDueAt },
      }),
      this.campaignOutcome(userId, campaignId, undefined, true, now),
    ]);
    return result.ok;
  }

  async forget(userId: string, input: { tickDueAt: string; campaignId: string }): Promise<boolean> {
    const result = await transact(this.db, { step: 'forget', userId, campaignId: input.campaignId }, [
      update(this.tableName, senderKey(userId), {
        remove: ['queue.#c'],
        condition: 'due_at = :tick',
        names: { '#c': input.campaignId },
        values: { ':tick': input.tickDueAt },
      }),
    ]);
    return result.ok;
  }

  async postpone(
    userId: string,
    input: { tickDueAt: string; campaignId: string; position: number; attempts: number; retryAt: Date; detail: string },
  ): Promise<boolean> {
    const due = this.dueSet(userId, input.retryAt);
    const result = await transact(this.db, { step: 'postpone', userId, campaignId: input.campaignId, position: input.position }, [
      update(this.tableName, recipientKey(input.campaignId, input.position), {
        set: ['attempts = :attempts', 'retry_at = :retryAt', 'detail = :detail'],
        condition: '#status = :pending',
        names: { '#status': 'status' },
        values: { ':attempts': input.attempts, ':retryAt': input.retryAt.toISOString(), ':detail': input.detail, ':pending': 'pending' },
      }),
      update(this.tableName, senderKey(userId), { ...due, condition: 'due_at = :tick', values: { ...due.values, ':tick': input.tickDueAt } }),
    ]);
    return result.ok;
  }

  /** Each campaign of `queue` paused because the mailbox is gone, keeping its position. */
  private pauseCampaigns(userId: string, queue: Record<string, SenderQueueEntry>, now: Date): TransactItem[] {
    return Object.entries(queue).map(([campaignId, entry]) =>
      update(this.tableName, campaignKey(userId, campaignId), {
        set: ['sending_status = :paused', 'pause_reason = :reason', 'resume_position = :position', 'next_send_at = :null', 'updated_at = :now'],
        condition: 'attribute_exists(PK)',
        values: { ':paused': 'paused', ':reason': 'mailbox_disconnected', ':position': entry.position, ':null': null, ':now': now.toISOString() },
      }),
    );
  }

  /**
   * The cursor emptied and out of the DUE index, on the tick's condition and only while its queue is
   * `queue` as read (the same campaigns at the same positions): a campaign queued, resumed or paused
   * meanwhile fails it, so none is dropped from the cursor without being paused.
   */
  private cursorEmptied(userId: string, tickDueAt: string, queue: Record<string, SenderQueueEntry>): TransactItem {
    const entries = Object.entries(queue);
    const names: Record<string, string> = { '#duePk': indexes.due.partitionKey, '#dueSk': indexes.due.sortKey };
    const values: Item = { ':empty': {}, ':tick': tickDueAt, ':size': entries.length };
    const conditions = ['due_at = :tick', entries.length === 0 ? '(attribute_not_exists(queue) OR size(queue) = :size)' : 'size(queue) = :size'];
    if (entries.length > 0) names['#position'] = 'position';
    entries.forEach(([campaignId, entry], i) => {
      names[`#c${i}`] = campaignId;
      values[`:p${i}`] = entry.position;
      conditions.push(`queue.#c${i}.#position = :p${i}`);
    });
    return update(this.tableName, senderKey(userId), {
      set: ['queue = :empty'],
      remove: ['due_at', '#duePk', '#dueSk'],
      names,
      values,
      condition: conditions.join(' AND '),
    });
  }

  async pauseAll(userId: string, input: { tickDueAt: string; queue: Record<string, SenderQueueEntry>; now: Date }): Promise<boolean> {
    const { tickDueAt, now } = input;
    let queue = input.queue;
    for (let attempt = 1; ; attempt++) {
      const result = await transact(this.db, { step: 'pauseAll', userId }, [
        this.cursorEmptied(userId, tickDueAt, queue),
        ...this.pauseCampaigns(userId, queue, now),
      ]);
      if (result.ok) return true;
      // Bounded: the cursor stays due at the tick, so a later tick pauses what is left.
      if (attempt >= PAUSE_ALL_ATTEMPTS) return false;
      // The queue changed since the read (a campaign resumed, queued or paused meanwhile): read it again.
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: senderKey(userId), ConsistentRead: true }));
      const cursor = toCursor(Item);
      if (!cursor || cursor.due_at !== tickDueAt) return false;
      queue = cursor.queue;
    }
  }

  async claim(userId: string, input: ClaimInput): Promise<ClaimOutcome> {
    const { tickDueAt, now, campaignId, position, token, addressId, trackKey, sendAgain, dailyLimit, monthlyLimit, nextDueAt } = input;
    const nowIso = now.toISOString();
    const due = this.dueSet(userId, nextDueAt);
    const items: TransactItem[] = [
      update(this.tableName, recipientKey(campaignId, position), {
        set: ['#status = :sending', 'claimed_at = :now', '#token = :token'],
        condition: '#status = :pending AND (attribute_not_exists(retry_at) OR attribute_type(retry_at, :nullType) OR retry_at <= :now)',
        names: { '#status': 'status', '#token': 'token' },
        values: { ':sending': 'sending', ':now': nowIso, ':token': token.token, ':pending': 'pending', ':nullType': 'NULL' },
      }),
      update(this.tableName, senderKey(userId), {
        set: [...due.set, 'last_claim_at = :now'],
        condition: 'due_at = :tick AND queue.#c.#position = :position AND (attribute_not_exists(last_claim_at) OR last_claim_at <= :paceFloor)',
        names: { ...due.names, '#c': campaignId, '#position': 'position' },
        values: {
          ...due.values,
          ':now': nowIso,
          ':tick': tickDueAt,
          ':position': position,
          ':paceFloor': new Date(now.getTime() - this.options.intervalMs).toISOString(),
        },
      }),
      update(this.tableName, dayKey(userId, now), {
        set: ['entity = if_not_exists(entity, :counter)'],
        add: ['sent :one'],
        condition: 'attribute_not_exists(sent) OR sent < :limit',
        values: { ':one': 1, ':limit': dailyLimit, ':counter': 'counter' },
      }),
      update(this.tableName, monthKey(userId, now), {
        set: ['entity = if_not_exists(entity, :counter)'],
        add: ['sent :one'],
        ...(monthlyLimit === null ? {} : { condition: 'attribute_not_exists(sent) OR sent < :limit' }),
        values: { ':one': 1, ':counter': 'counter', ...(monthlyLimit === null ? {} : { ':limit': monthlyLimit }) },
      }),
      { ConditionCheck: { TableName: this.tableName, Key: unsubscribeKey(userId, addressId), ConditionExpression: 'attribute_not_exists(PK)' } },
      update(this.tableName, campaignKey(userId, campaignId), {
        // A scheduled campaign is sending from its first claim on.
        set: ['#status = :sending', 'next_send_at = :next'],
        condition: 'sending_status = :sending',
        names: { '#status': 'status' },
        values: { ':sending': 'sending', ':next': nextDueAt.toISOString() },
      }),
      {
        Put: {
          TableName: this.tableName,
          Item: { ...tokenKey(token.token), entity: 'token', ...token },
          // A retry puts the same token again (its links as sent this time); never another email's token.
          ConditionExpression: 'attribute_not_exists(PK) OR (campaign_id = :campaign AND #position = :position)',
          ExpressionAttributeNames: { '#position': 'position' },
          ExpressionAttributeValues: { ':campaign': campaignId, ':position': position },
        },
      },
      {
        // At most one email of a track per address (DESIGN §4, §6): this position's claim holds the
        // address for the track (a retry of it puts the same item again). Another position of this
        // campaign never gets it; another campaign's pitch is fine only when the artist insisted.
        Put: {
          TableName: this.tableName,
          Item: { ...userItem(userId, pitchedSort(trackKey, addressId)), entity: 'pitched', campaign_id: campaignId, position, pitched_at: nowIso },
          ConditionExpression: sendAgain
            ? 'attribute_not_exists(PK) OR campaign_id <> :campaign OR #position = :position'
            : 'attribute_not_exists(PK) OR (campaign_id = :campaign AND #position = :position)',
          ExpressionAttributeNames: { '#position': 'position' },
          ExpressionAttributeValues: { ':campaign': campaignId, ':position': position },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ];
    const result = await transact(this.db, { step: 'claim', userId, campaignId, position }, items);
    if (result.ok) return 'claimed';
    const UNSUBSCRIBED = 4;
    const PITCHED = items.length - 1;
    // Only the recipient's own checks failed: it is skipped. Anything else changed since the read.
    const onlyRecipientChecks = result.failed.some(Boolean) && result.failed.every((failed, i) => !failed || i === UNSUBSCRIBED || i === PITCHED);
    if (!onlyRecipientChecks) return 'conflict';
    if (result.failed[UNSUBSCRIBED]) return 'unsubscribed';
    return stringAttribute(result.oldItems[PITCHED]?.campaign_id) === campaignId ? 'duplicate' : 'already_pitched';
  }

  async record(userId: string, input: RecordInput): Promise<void> {
    const { campaignId, position, token, claimedAt, now } = input;
    const nowIso = now.toISOString();
    const recipient = (set: string[], values: Item, names: Record<string, string> = {}) =>
      update(this.tableName, recipientKey(campaignId, position), {
        set,
        condition: '#status = :claimed AND #token = :token',
        names: { '#status': 'status', '#token': 'token', ...names },
        values: { ...values, ':claimed': 'sending', ':token': token },
      });
    const release = () => [counterAdd(this.tableName, dayKey(userId, claimedAt), -1), counterAdd(this.tableName, monthKey(userId, claimedAt), -1)];
    const due = (at: Date) => {
      const set = this.dueSet(userId, at);
      return update(this.tableName, senderKey(userId), { ...set, condition: 'attribute_exists(PK)' });
    };

    /**
     * Runs the record; when only optional items failed (the cursor's move: paused meanwhile, the entry
     * is gone; the PITCHED delete: the item is no longer this recipient's), again without them.
     */
    const tag: SendingStepTag = { step: 'record', userId, campaignId, position, record: input.kind };
    const run = async (items: TransactItem[], ...optional: number[]) => {
      const result = await transact(this.db, tag, items);
      if (result.ok) return;
      const failedOptional = optional.filter((i) => result.failed[i]);
      if (failedOptional.length > 0 && result.failed.every((failed, i) => !failed || failedOptional.includes(i))) {
        const retried = await transact(
          this.db,
          tag,
          items.filter((_, i) => !failedOptional.includes(i)),
        );
        if (retried.ok) return;
      }
      // The recipient is no longer this claim's (recorded unknown meanwhile): nothing to record.
    };

    switch (input.kind) {
      case 'sent': {
        const sentTimeline = { GSI1PK: key.sentTimeline(userId), GSI1SK: key.sentTimeSort(nowIso, campaignId, position) };
        return run(
          [
            recipient(
              [
                '#status = :sent',
                'sent_at = :now',
                'message_id = :messageId',
                'subject = :subject',
                'html = :html',
                '#text = :text',
                'GSI1PK = :g1pk',
                'GSI1SK = :g1sk',
                'detail = :null',
                'retry_at = :null',
              ],
              {
                ':sent': 'sent',
                ':now': nowIso,
                ':messageId': input.messageId,
                ':subject': input.subject,
                ':html': input.html,
                ':text': input.text,
                ':g1pk': sentTimeline.GSI1PK,
                ':g1sk': sentTimeline.GSI1SK,
                ':null': null,
              },
              // `text` is a reserved word.
              { '#text': 'text' },
            ),
            this.campaignOutcome(
              userId,
              campaignId,
              'emails_sent',
              input.completes,
              now,
              input.completes ? [] : ['next_send_at = :nextDue'],
              input.completes ? {} : { ':nextDue': input.nextDueAt.toISOString() },
            ),
            // The PITCHED item was put by the claim and stays.
            this.cursorAdvance(userId, campaignId, position, input.completes),
          ],
          2,
        );
      }
      case 'retry':
        return run([
          recipient(['#status = :pending', 'attempts = :attempts', 'retry_at = :retryAt', 'detail = :detail'], {
            ':pending': 'pending',
            ':attempts': input.attempts,
            ':retryAt': input.retryAt.toISOString(),
            ':detail': input.detail,
          }),
          ...release(),
          due(input.retryAt),
        ]);
      case 'failed':
        return run(
          [
            recipient(['#status = :failed', 'attempts = :attempts', 'detail = :detail', 'retry_at = :null'], {
              ':failed': 'failed',
              ':attempts': input.attempts,
              ':detail': input.detail,
              ':null': null,
            }),
            ...release(),
            this.campaignOutcome(userId, campaignId, 'emails_failed', input.completes, now),
            this.cursorAdvance(userId, campaignId, position, input.completes),
            {
              // Never sent: the claim's hold on the address for this track goes, so a later campaign may pitch it.
              Delete: {
                TableName: this.tableName,
                Key: userItem(userId, pitchedSort(input.trackKey, input.addressId)),
                ConditionExpression: 'campaign_id = :campaign AND #position = :position',
                ExpressionAttributeNames: { '#position': 'position' },
                ExpressionAttributeValues: { ':campaign': campaignId, ':position': position },
              },
            },
          ],
          4,
          5,
        );
      case 'daily_limit':
        return run([
          recipient(['#status = :pending', 'retry_at = :null'], { ':pending': 'pending', ':null': null }),
          // The provider says today is used up: the day's counter shows it, so the status and capacity agree.
          update(this.tableName, dayKey(userId, claimedAt), {
            set: ['sent = :limit', 'entity = :counter'],
            values: { ':limit': input.dailyLimit, ':counter': 'counter' },
          }),
          counterAdd(this.tableName, monthKey(userId, claimedAt), -1),
          due(input.until),
        ]);
      case 'auth':
        // The queue read at the tick's start may be out of date (a campaign resumed since), so the
        // cursor is left as it is and due at `now`: the next step reads it again, finds no mailbox and
        // pauses every campaign on it (pauseAll). Resume and a first batch check the mailbox, so none
        // joins the cursor after this.
        return run([
          recipient(['#status = :pending', 'retry_at = :null'], { ':pending': 'pending', ':null': null }),
          ...release(),
          due(now),
          update(this.tableName, profileKey(userId), { set: ['gmail_connected = :false'], condition: 'attribute_exists(PK)', values: { ':false': false } }),
          // The refresh token is dead: the mailbox is disconnected (connect again in Settings).
          { Delete: { TableName: this.tableName, Key: mailboxKey(userId) } },
        ]);
    }
  }
}
