/**
 * The send flow's side of the paced queue: batches of recipients queued onto a campaign (the first one
 * puts the campaign on the user's sending cursor), pause and resume, and what the pages read (usage,
 * recipients, which addresses a track was pitched to). The sender's side is in sender.ts.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Campaign } from '../../../../schema/api/campaigns';
import type { Contact } from '../../../../schema/api/contacts';
import { NO_FOLLOW_UPS } from '../../../../schema/api/followUpValues';
import type { ContactEmail } from '../../../../schema/api/sending';
import { SEND_BATCH_SIZE } from '../../../../schema/api/sendingValues';
import { indexes, key } from '../../../../schema/table';
import type { ListedRecipient, QueueBatchOutcome, RecipientRecord, SenderQueueEntry, SendQueueStore } from '../../../ports';
import { batchGetAll, batchWriteAll } from '../batch';
import { contractCampaign } from '../campaignStore';
import { counterUpdates } from '../counters';
import { pitchedUpdate, repliedOnPitched, transactWithPitched } from '../pitchedEvents';
import { conditionFailed } from '../races';
import { queryAll } from '../query';
import {
  campaignKey,
  dueAttributes,
  findItem,
  FOLLOW_UP_OUTCOME_FACTS,
  FOLLOW_UP_STEPS,
  followUpAttribute,
  mailboxKey,
  RECIPIENT_DEFAULTS,
  RECIPIENT_FIELDS,
  recipientKey,
  senderKey,
  toCursor,
  toRecipient,
  toSendingCampaign,
  type Item,
  type ItemKey,
} from './items';
import { failedOnly, transaction, update, type TransactItem } from './transaction';
import { PAUSE_HOLD, pausedAt } from './updates';
import { readUsage } from './usage';

/** Recipient attributes a listing does not read whole: the email's content and the steps' outcomes (their facts only). */
const LISTED_APART: ReadonlySet<string> = new Set(['html', 'text', ...FOLLOW_UP_STEPS.map(followUpAttribute)]);

export class DynamoSendQueueStore implements SendQueueStore {
  constructor(
    readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
    readonly options: { intervalMs: number },
  ) {}

  /** The campaign and the cursor (and what else is asked), consistent, in one request. */
  private async readUser(userId: string, campaignId: string, extra: ItemKey[] = []) {
    const keys = [campaignKey(userId, campaignId), senderKey(userId), ...extra];
    const items = await batchGetAll(this.db, this.tableName, keys, { consistentRead: true });
    const find = (itemKey: ItemKey) => findItem(items, itemKey);
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
    const lastClaim = cursor?.last_slot ? Date.parse(cursor.last_slot) + this.options.intervalMs : 0;
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
   * conditional on `queued_through`, so a retried or concurrent batch is never counted twice. The first
   * batch's transaction, conditional on the draft status, also counts the campaign as sent
   * (`campaigns_sent`, on the Pacific day it is queued): only the one that takes it out of draft commits.
   */
  async queueBatch(userId: string, input: Parameters<SendQueueStore['queueBatch']>[1]): Promise<QueueBatchOutcome> {
    const { campaignId, batchStart, total, contacts, sendAfter, now, followUps = NO_FOLLOW_UPS } = input;
    const sendAgain = (contact: Contact) => input.sendAgain === true || input.sendAgainIds?.has(contact.id) === true;
    const sendWindow = input.sendWindow ?? null;
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
              send_again: sendAgain(contact),
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
          'follow_ups = :followUps',
          'send_window = :sendWindow',
        );
        Object.assign(values, {
          ':newStatus': scheduled ? 'scheduled' : 'sending',
          ':sending': 'sending',
          ':sendAfter': sendAfterIso,
          ':null': null,
          ':followUps': followUps,
          ':sendWindow': sendWindow,
        });
      }
      const sentCounters = first ? counterUpdates(this.tableName, userId, now, { campaigns_sent: 1 }) : undefined;
      const result = await transaction(
        this.db,
        { step: 'queueBatch', userId, campaignId },
        {
          campaign: update(this.tableName, campaignKey(userId, campaignId), {
            set,
            condition: `#status = :status AND ${campaign.queued_through === 0 ? '(attribute_not_exists(queued_through) OR queued_through = :zero)' : 'queued_through = :read'}`,
            names: { '#status': 'status' },
            values: { ...values, ...(campaign.queued_through === 0 ? { ':zero': 0 } : { ':read': campaign.queued_through }) },
          }),
          // The first batch puts the campaign on the cursor.
          cursor: first
            ? this.addToCursor(
                userId,
                senderItem,
                campaignId,
                { position: 0, send_after: sendAfterIso, queued_at: nowIso },
                new Date(Math.max(sendAfter.getTime(), now.getTime())),
              )
            : undefined,
          mailbox: first ? this.mailboxConnected(userId) : undefined,
          statsTotals: sentCounters?.statsTotals,
          statsDay: sentCounters?.statsDay,
        },
      );
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
                follow_ups: followUps,
                send_window: sendWindow,
              }
            : {}),
        };
        return { outcome: 'queued', campaign: contractCampaign(next), queued: contacts.length };
      }
      // The mailbox was disconnected meanwhile (invalid_grant): nothing may join a cursor being paused.
      if (failedOnly(result.failed, ['mailbox'])) return { outcome: 'conflict', campaign: contractCampaign(campaign) };
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
      const waiting = entry ? (entry.waiting ?? {}) : (campaign.resume_waiting ?? {});
      const nowIso = now.toISOString();
      const result = await transaction(
        this.db,
        { step: 'pause', userId, campaignId },
        {
          campaign: update(this.tableName, campaignKey(userId, campaignId), {
            ...pausedAt('user', { position, waiting }, now, { ':sending': 'sending' }),
            condition: 'sending_status = :sending',
          }),
          // Off the cursor, when it is on it, at the position read.
          cursor: entry
            ? update(this.tableName, senderKey(userId), {
                remove: ['queue.#c'],
                condition: 'queue.#c.#position = :position',
                names: { '#c': campaignId, '#position': 'position' },
                values: { ':position': position },
              })
            : undefined,
        },
      );
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
        // The recipients that were waiting alone when it paused wait on (each at its own time).
        ...(campaign.resume_waiting && Object.keys(campaign.resume_waiting).length > 0 ? { waiting: campaign.resume_waiting } : {}),
        send_after: sendAfter,
        // Back in its place among the user's campaigns: the time it was first queued.
        queued_at: campaign.started_sending_at ?? nowIso,
      };
      const result = await transaction(
        this.db,
        { step: 'resume', userId, campaignId },
        {
          campaign: update(this.tableName, campaignKey(userId, campaignId), {
            set: ['sending_status = :sending', 'pause_reason = :null', 'updated_at = :now', 'next_send_at = :sendAfter'],
            remove: ['resume_position', 'resume_waiting', PAUSE_HOLD],
            condition: 'sending_status = :paused',
            values: { ':sending': 'sending', ':null': null, ':now': nowIso, ':paused': 'paused', ':sendAfter': sendAfter },
          }),
          cursor: this.addToCursor(userId, senderItem, campaignId, entry, new Date(sendAfter)),
          // A disconnect after the read fails this; the next read sees no mailbox and answers conflict.
          mailbox: this.mailboxConnected(userId),
        },
      );
      if (result.ok) {
        return {
          outcome: 'resumed' as const,
          campaign: contractCampaign({ ...campaign, sending_status: 'sending', pause_reason: null, next_send_at: sendAfter, updated_at: nowIso }),
        };
      }
      if (attempt >= 5) throw new Error(`Could not resume campaign ${campaignId}: it kept changing`);
    }
  }

  async retryFailed(userId: string, campaignId: string, now: Date) {
    for (let attempt = 1; ; attempt++) {
      const { campaign, senderItem, find } = await this.readUser(userId, campaignId, [mailboxKey(userId)]);
      if (!campaign) return { outcome: 'not_found' as const };
      if (campaign.status !== 'completed' || find(mailboxKey(userId)) === undefined)
        return { outcome: 'conflict' as const, campaign: contractCampaign(campaign) };
      const recipients = await this.listRecipients(campaignId);
      // A pending one in a completed campaign was put back by a Retry failed that stopped before its last step.
      const again = recipients.filter((r) => (r.status === 'failed' && r.retryable === true) || r.status === 'pending');
      if (again.length === 0) return { outcome: 'none' as const };
      const nowIso = now.toISOString();
      // The recipients first, each on its own condition (a campaign may have more than a transaction holds).
      await Promise.all(
        again
          .filter((r) => r.status === 'failed')
          .map(async (r) => {
            try {
              await this.db.send(
                new UpdateCommand({
                  TableName: this.tableName,
                  Key: recipientKey(campaignId, r.position),
                  UpdateExpression: 'SET #status = :pending, attempts = :zero, retry_at = :null, detail = :null, retryable = :false',
                  ConditionExpression: '#status = :failed AND retryable = :true',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':pending': 'pending', ':zero': 0, ':null': null, ':false': false, ':failed': 'failed', ':true': true },
                }),
              );
            } catch (error) {
              if (!(error instanceof ConditionalCheckFailedException)) throw error;
            }
          }),
      );
      const refused = recipients.filter((r) => r.status === 'failed' && r.retryable !== true).length;
      const entry: SenderQueueEntry = {
        // Every position was processed: only the retried recipients wait, each ready now.
        position: campaign.total_queued,
        send_after: nowIso,
        queued_at: campaign.started_sending_at ?? nowIso,
        waiting: Object.fromEntries(again.map((r) => [String(r.position), nowIso])),
      };
      const result = await transaction(
        this.db,
        { step: 'retryFailed', userId, campaignId },
        {
          campaign: update(this.tableName, campaignKey(userId, campaignId), {
            set: [
              '#status = :sending',
              'sending_status = :sending',
              'pause_reason = :null',
              'completed_sending_at = :null',
              'emails_failed = :refused',
              'next_send_at = :now',
              'updated_at = :now',
            ],
            // A completed campaign still paused is sending again by the artist's own act.
            remove: [PAUSE_HOLD],
            condition: '#status = :completed',
            names: { '#status': 'status' },
            values: { ':sending': 'sending', ':null': null, ':refused': refused, ':now': nowIso, ':completed': 'completed' },
          }),
          cursor: this.addToCursor(userId, senderItem, campaignId, entry, now),
          mailbox: this.mailboxConnected(userId),
        },
      );
      if (result.ok) {
        const next = {
          ...campaign,
          status: 'sending' as const,
          sending_status: 'sending' as const,
          pause_reason: null,
          completed_sending_at: null,
          emails_failed: refused,
          next_send_at: nowIso,
          updated_at: nowIso,
        };
        return { outcome: 'queued' as const, campaign: contractCampaign(next), queued: again.length };
      }
      if (attempt >= 5) throw new Error(`Could not retry the failed emails of campaign ${campaignId}: it kept changing`);
    }
  }

  usage(userId: string, now: Date) {
    return readUsage(this.db, this.tableName, userId, now);
  }

  async listRecipients(campaignId: string): Promise<ListedRecipient[]> {
    // No content: the list is the campaign's queue, not its emails; of a step's outcome (which holds the
    // step's email when sent) only what became of it, when and why.
    const fields = RECIPIENT_FIELDS.filter((field) => !LISTED_APART.has(field));
    const stepNames = FOLLOW_UP_OUTCOME_FACTS.map((fact) => `#${fact}`);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': key.campaignPartition(campaignId), ':prefix': key.recipientPrefix() },
      ProjectionExpression: [...fields.map((_, i) => `#f${i}`), ...FOLLOW_UP_STEPS.flatMap((step) => stepNames.map((name) => `#step${step}.${name}`))].join(
        ', ',
      ),
      ExpressionAttributeNames: {
        ...Object.fromEntries(fields.map((field, i) => [`#f${i}`, field])),
        ...Object.fromEntries(FOLLOW_UP_STEPS.map((step) => [`#step${step}`, followUpAttribute(step)])),
        ...Object.fromEntries(FOLLOW_UP_OUTCOME_FACTS.map((fact) => [`#${fact}`, fact])),
      },
    });
    return items.map((item) => toRecipient(item) as ListedRecipient);
  }

  async getRecipient(campaignId: string, position: number): Promise<RecipientRecord | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: recipientKey(campaignId, position), ConsistentRead: true }));
    return Item ? toRecipient(Item) : undefined;
  }

  /**
   * One transaction: the recipient must exist and be sent; marking sets the time only while it is
   * unmarked (queueing writes `replied_at: null`), so a mark already there keeps its first time. The
   * track's PITCHED item of the address takes the mark with it (the pipeline's Replied), while it is there.
   * The recipient is read first: its address is the PITCHED item's key (and a missing or unsent one is
   * answered from that read).
   */
  async markReplied(campaignId: string, position: number, at: Date | null, track: { userId: string; trackKey: string }) {
    const current = await this.getRecipient(campaignId, position);
    if (!current) return { outcome: 'not_found' as const };
    if (current.status !== 'sent') return { outcome: 'not_sent' as const };
    if (at && current.replied_at) return { outcome: 'marked' as const, recipient: current };
    const unmarked = 'attribute_not_exists(replied_at) OR attribute_type(replied_at, :nullType)';
    const recipient = update(this.tableName, recipientKey(campaignId, position), {
      set: ['replied_at = :at'],
      condition: `attribute_exists(PK) AND #status = :sent${at ? ` AND (${unmarked})` : ''}`,
      names: { '#status': 'status' },
      values: { ':sent': 'sent', ':at': at ? at.toISOString() : null, ...(at ? { ':nullType': 'NULL' } : {}) },
    });
    const pitched = pitchedUpdate(
      this.tableName,
      { user_id: track.userId, contact_email: current.recipient_email, track_key: track.trackKey },
      repliedOnPitched(at ? at.toISOString() : null),
    );
    try {
      await transactWithPitched(this.db, [recipient], pitched);
    } catch (error) {
      // Marked meanwhile (another tab): the read below answers with that mark.
      if (!conditionFailed(error)) throw error;
    }
    const marked = await this.getRecipient(campaignId, position);
    return marked ? { outcome: 'marked' as const, recipient: marked } : { outcome: 'not_found' as const };
  }

  /**
   * The contact's `SENTTO#` items (newest first), then their recipients (no content) and campaigns' track
   * names in one BatchGetItem: a query and a batch read whatever the user's history.
   */
  async emailsSentTo(userId: string, contactId: string): Promise<ContactEmail[]> {
    const sent = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': key.user(userId), ':prefix': key.sentToPrefix(contactId) },
      ProjectionExpression: 'campaign_id, #position, sent_at',
      ExpressionAttributeNames: { '#position': 'position' },
      ScanIndexForward: false,
    });
    const emails = sent.map((item) => ({ campaignId: String(item.campaign_id), position: Number(item.position), sentAt: String(item.sent_at) }));
    if (emails.length === 0) return [];
    const campaignIds = [...new Set(emails.map((email) => email.campaignId))];
    const items = await batchGetAll(
      this.db,
      this.tableName,
      [...emails.map((email) => recipientKey(email.campaignId, email.position)), ...campaignIds.map((id) => campaignKey(userId, id))],
      { projection: ['PK', 'SK', 'subject', 'replied_at', 'answer', 'track_name'] },
    );
    return emails.map(({ campaignId, position, sentAt }) => {
      const recipient = findItem(items, recipientKey(campaignId, position));
      const campaign = findItem(items, campaignKey(userId, campaignId));
      return {
        campaign_id: campaignId,
        track_name: typeof campaign?.track_name === 'string' ? campaign.track_name : '',
        position,
        subject: typeof recipient?.subject === 'string' ? recipient.subject : null,
        sent_at: sentAt,
        replied_at: typeof recipient?.replied_at === 'string' ? recipient.replied_at : null,
        answer: (recipient?.answer as ContactEmail['answer'] | undefined) ?? null,
      };
    });
  }
}
