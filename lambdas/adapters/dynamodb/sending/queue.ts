/**
 * The send flow's side of the paced queue: batches of recipients queued onto a campaign (the first one
 * puts the campaign on the user's sending cursor), pause and resume, and what the pages read (usage,
 * recipients, which addresses a track was pitched to). The sender's side is in sender.ts.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Campaign } from '../../../../schema/api/campaigns';
import type { Contact } from '../../../../schema/api/contacts';
import { SEND_BATCH_SIZE } from '../../../../schema/api/sendingValues';
import { indexes, key } from '../../../../schema/table';
import type { QueueBatchOutcome, RecipientRecord, SenderQueueEntry, SendQueueStore } from '../../../ports';
import { batchGetAll, batchWriteAll } from '../batch';
import { contractCampaign } from '../campaignStore';
import { counterUpdates } from '../counters';
import { queryAll } from '../query';
import {
  campaignKey,
  dueAttributes,
  findItem,
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
import { pausedAt } from './updates';
import { readUsage } from './usage';

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
            remove: ['resume_position', 'resume_waiting'],
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

  async pitchedAddressIds(userId: string, trackKey: string): Promise<Set<string>> {
    const prefix = key.pitchedPrefix(trackKey);
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
