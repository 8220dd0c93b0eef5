/**
 * The sender's side of the paced queue: one BatchGetItem reads a user's cursor and its head, then one
 * transaction per step, each conditional on the tick's due time so two ticks never both act. The claim
 * and the record of a send, the pipeline's two central steps, are in claim.ts and record.ts.
 */
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { indexes } from '../../../../schema/table';
import { headOf, heldAtMonthlyLimit } from '../../../core/sender';
import type {
  ClaimInput,
  ClaimOutcome,
  FollowUpClaimInput,
  FollowUpItem,
  FollowUpOutcome,
  FollowUpRecordInput,
  RecipientMark,
  RecordInput,
  SenderHead,
  SenderQueueEntry,
  SenderFollowUp,
  SenderStore,
  SenderView,
} from '../../../ports';
import { batchGetAll } from '../batch';
import { claimRecipient } from './claim';
import { claimFollowUp, delayFollowUp, readFollowUp, recordFollowUp, settleFollowUp } from './followUps';
import {
  campaignKey,
  counterOf,
  dayKey,
  findItem,
  mailboxKey,
  monthKey,
  profileKey,
  recipientKey,
  senderKey,
  toCursor,
  toMailbox,
  toProfile,
  toRecipient,
  toSendingCampaign,
  type Item,
  type ItemKey,
} from './items';
import { recordSend } from './record';
import { transaction, update, type TransactItem } from './transaction';
import { campaignOutcome, cursorAdvance, cursorWait, dueSet, PAUSE_HOLD, pausedAt } from './updates';

/** Tries of pauseAll when the queue keeps changing under it. */
const PAUSE_ALL_ATTEMPTS = 5;

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
    const find = (itemKey: ItemKey) => findItem(items, itemKey);
    const cursor = toCursor(find(senderKey(userId)));
    const head = cursor ? headOf(cursor.queue, now) : undefined;
    if (head && (!hint || hint.campaignId !== head.campaignId || hint.position !== head.position)) {
      // The tick's head was stale (or it carried none): the head's two items in a second request.
      items = [...items, ...(await batchGetAll(this.db, this.tableName, headKeys(head), { consistentRead: true }))];
    }
    const campaignItem = head ? find(campaignKey(userId, head.campaignId)) : undefined;
    const recipientItem = head ? find(recipientKey(head.campaignId, head.position)) : undefined;
    return {
      cursor,
      profile: toProfile(find(profileKey(userId))),
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

  async reschedule(userId: string, tickDueAt: string, until: Date): Promise<boolean> {
    const due = dueSet(userId, until);
    const result = await transaction(
      this.db,
      { step: 'reschedule', userId },
      { cursor: update(this.tableName, senderKey(userId), { ...due, condition: 'due_at = :tick', values: { ...due.values, ':tick': tickDueAt } }) },
    );
    return result.ok;
  }

  async goIdle(userId: string, tickDueAt: string): Promise<boolean> {
    const result = await transaction(
      this.db,
      { step: 'goIdle', userId },
      {
        cursor: update(this.tableName, senderKey(userId), {
          remove: ['due_at', '#duePk', '#dueSk'],
          condition: 'due_at = :tick AND size(queue) = :zero',
          names: { '#duePk': indexes.due.partitionKey, '#dueSk': indexes.due.sortKey },
          values: { ':tick': tickDueAt, ':zero': 0 },
        }),
      },
    );
    return result.ok;
  }

  async advance(userId: string, input: { tickDueAt: string; head: SenderHead; mark?: RecipientMark; completes: boolean; now: Date }): Promise<boolean> {
    const { tickDueAt, head, mark, completes, now } = input;
    const { campaignId, position } = head;
    const result = await transaction(
      this.db,
      { step: 'advance', userId, campaignId, position },
      {
        cursor: cursorAdvance(this.tableName, userId, head, completes, { tickDueAt }),
        recipient: mark
          ? update(this.tableName, recipientKey(campaignId, position), {
              set: ['#status = :status', 'detail = :detail', 'retry_at = :null'],
              condition: '#status = :from',
              names: { '#status': 'status' },
              values: { ':status': mark.status, ':detail': mark.detail, ':from': mark.from, ':null': null },
            })
          : undefined,
        campaign:
          mark || completes ? campaignOutcome(this.tableName, userId, campaignId, mark ? `emails_${mark.status}` : undefined, completes, now) : undefined,
      },
    );
    return result.ok;
  }

  async complete(userId: string, input: { tickDueAt: string; campaignId: string; now: Date }): Promise<boolean> {
    const { tickDueAt, campaignId, now } = input;
    const result = await transaction(
      this.db,
      { step: 'complete', userId, campaignId },
      {
        cursor: update(this.tableName, senderKey(userId), {
          remove: ['queue.#c'],
          condition: 'due_at = :tick AND attribute_exists(queue.#c)',
          names: { '#c': campaignId },
          values: { ':tick': tickDueAt },
        }),
        campaign: campaignOutcome(this.tableName, userId, campaignId, undefined, true, now),
      },
    );
    return result.ok;
  }

  async postpone(userId: string, input: { tickDueAt: string; head: SenderHead; until: Date; hasWaiting: boolean; detail: string }): Promise<boolean> {
    const { tickDueAt, head, until, hasWaiting, detail } = input;
    const { campaignId, position } = head;
    const result = await transaction(
      this.db,
      { step: 'postpone', userId, campaignId, position },
      {
        cursor: cursorWait(this.tableName, userId, head, until, hasWaiting, tickDueAt),
        recipient: update(this.tableName, recipientKey(campaignId, position), {
          set: ['retry_at = :until', 'detail = :detail'],
          condition: '#status = :pending',
          names: { '#status': 'status' },
          values: { ':until': until.toISOString(), ':detail': detail, ':pending': 'pending' },
        }),
      },
    );
    return result.ok;
  }

  async forget(userId: string, input: { tickDueAt: string; campaignId: string }): Promise<boolean> {
    const result = await transaction(
      this.db,
      { step: 'forget', userId, campaignId: input.campaignId },
      {
        cursor: update(this.tableName, senderKey(userId), {
          remove: ['queue.#c'],
          condition: 'due_at = :tick',
          names: { '#c': input.campaignId },
          values: { ':tick': input.tickDueAt },
        }),
      },
    );
    return result.ok;
  }

  async defer(userId: string, input: { tickDueAt: string; campaignId: string; until: Date }): Promise<boolean> {
    const result = await transaction(
      this.db,
      { step: 'defer', userId, campaignId: input.campaignId },
      {
        cursor: update(this.tableName, senderKey(userId), {
          set: ['queue.#c.send_after = :until'],
          condition: 'due_at = :tick AND attribute_exists(queue.#c)',
          names: { '#c': input.campaignId },
          values: { ':tick': input.tickDueAt, ':until': input.until.toISOString() },
        }),
        // What the campaign shows as its next send: its first waiting recipient's time.
        campaign: update(this.tableName, campaignKey(userId, input.campaignId), {
          set: ['next_send_at = :until'],
          condition: 'attribute_exists(PK)',
          values: { ':until': input.until.toISOString() },
        }),
      },
    );
    return result.ok;
  }

  /** Each campaign of `queue` paused because the mailbox is gone, keeping its position (named `campaign <id>`). */
  private pauseCampaigns(userId: string, queue: Record<string, SenderQueueEntry>, now: Date): Record<string, TransactItem> {
    return Object.fromEntries(
      Object.entries(queue).map(([campaignId, entry]) => [
        `campaign ${campaignId}`,
        update(this.tableName, campaignKey(userId, campaignId), { ...pausedAt('mailbox_disconnected', entry, now), condition: 'attribute_exists(PK)' }),
      ]),
    );
  }

  /**
   * The cursor's condition that it is still the tick's and its queue is `queue` as read (the same
   * campaigns at the same positions): a campaign queued, resumed or paused meanwhile fails it, so no
   * campaign is left out of a step that is about all of them.
   */
  private queueAsRead(tickDueAt: string, queue: Record<string, SenderQueueEntry>) {
    const entries = Object.entries(queue);
    const names: Record<string, string> = {};
    const values: Item = { ':tick': tickDueAt, ':size': entries.length };
    const conditions = ['due_at = :tick', entries.length === 0 ? '(attribute_not_exists(queue) OR size(queue) = :size)' : 'size(queue) = :size'];
    if (entries.length > 0) names['#position'] = 'position';
    entries.forEach(([campaignId, entry], i) => {
      names[`#c${i}`] = campaignId;
      values[`:p${i}`] = entry.position;
      conditions.push(`queue.#c${i}.#position = :p${i}`);
    });
    return { condition: conditions.join(' AND '), names, values };
  }

  /** The cursor emptied and out of the DUE index, on the tick's condition and only while its queue is `queue` as read. */
  private cursorEmptied(userId: string, tickDueAt: string, queue: Record<string, SenderQueueEntry>): TransactItem {
    const asRead = this.queueAsRead(tickDueAt, queue);
    return update(this.tableName, senderKey(userId), {
      set: ['queue = :empty'],
      remove: ['due_at', '#duePk', '#dueSk'],
      names: { ...asRead.names, '#duePk': indexes.due.partitionKey, '#dueSk': indexes.due.sortKey },
      values: { ...asRead.values, ':empty': {} },
      condition: asRead.condition,
    });
  }

  async pauseAll(userId: string, input: { tickDueAt: string; queue: Record<string, SenderQueueEntry>; now: Date }): Promise<boolean> {
    const { tickDueAt, now } = input;
    let queue = input.queue;
    for (let attempt = 1; ; attempt++) {
      const result = await transaction(
        this.db,
        { step: 'pauseAll', userId },
        { cursor: this.cursorEmptied(userId, tickDueAt, queue), ...this.pauseCampaigns(userId, queue, now) },
      );
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

  /**
   * Each campaign of the cursor paused at the plan's monthly limit, keeping its position, and the cursor
   * due again at `until`: the campaigns stay on it, so the sender itself releases them when the plan
   * allows. A campaign is held only while it is sending (or already held): never over a pause of another kind.
   */
  async holdAtMonthlyLimit(userId: string, input: { tickDueAt: string; queue: Record<string, SenderQueueEntry>; until: Date; now: Date }): Promise<boolean> {
    const { tickDueAt, queue, until, now } = input;
    const asRead = this.queueAsRead(tickDueAt, queue);
    const due = dueSet(userId, until);
    const result = await transaction(
      this.db,
      { step: 'holdAtMonthlyLimit', userId },
      {
        cursor: update(this.tableName, senderKey(userId), {
          set: due.set,
          condition: asRead.condition,
          names: { ...asRead.names, ...due.names },
          values: { ...asRead.values, ...due.values },
        }),
        ...Object.fromEntries(
          Object.entries(queue).map(([campaignId, entry]) => [
            `campaign ${campaignId}`,
            update(this.tableName, campaignKey(userId, campaignId), {
              ...pausedAt('monthly_limit', entry, now, { ':sending': 'sending' }),
              condition: 'attribute_exists(PK) AND (sending_status = :sending OR pause_reason = :reason)',
            }),
          ]),
        ),
      },
    );
    return result.ok;
  }

  /**
   * The campaigns of the cursor held at the monthly limit sending again, from where they were held; the
   * cursor stays due at the tick. The campaigns are read first: only the held ones change (another
   * campaign of the cursor may be sending already, and keeps its next send time).
   */
  async releaseFromMonthlyLimit(userId: string, input: { tickDueAt: string; queue: Record<string, SenderQueueEntry>; now: Date }): Promise<boolean> {
    const { tickDueAt, queue, now } = input;
    const nowIso = now.toISOString();
    const items = await batchGetAll(
      this.db,
      this.tableName,
      Object.keys(queue).map((campaignId) => campaignKey(userId, campaignId)),
      { consistentRead: true },
    );
    const held = Object.entries(queue).filter(([campaignId]) => {
      const item = findItem(items, campaignKey(userId, campaignId));
      return item !== undefined && heldAtMonthlyLimit(toSendingCampaign(item));
    });
    const asRead = this.queueAsRead(tickDueAt, queue);
    const result = await transaction(
      this.db,
      { step: 'releaseFromMonthlyLimit', userId },
      {
        cursor: update(this.tableName, senderKey(userId), {
          set: ['entity = :sender'],
          condition: asRead.condition,
          names: asRead.names,
          values: { ...asRead.values, ':sender': 'sender' },
        }),
        ...Object.fromEntries(
          held.map(([campaignId, entry]) => [
            `campaign ${campaignId}`,
            update(this.tableName, campaignKey(userId, campaignId), {
              set: ['sending_status = :sending', 'pause_reason = :null', 'next_send_at = :next', 'updated_at = :now'],
              remove: ['resume_position', 'resume_waiting', PAUSE_HOLD],
              condition: 'sending_status = :paused AND pause_reason = :reason',
              values: {
                ':sending': 'sending',
                ':null': null,
                ':next': entry.send_after > nowIso ? entry.send_after : nowIso,
                ':now': nowIso,
                ':paused': 'paused',
                ':reason': 'monthly_limit',
              },
            }),
          ]),
        ),
      },
    );
    return result.ok;
  }

  claim(userId: string, input: ClaimInput): Promise<ClaimOutcome> {
    return claimRecipient(this, userId, input);
  }

  record(userId: string, input: RecordInput): Promise<void> {
    return recordSend(this, userId, input);
  }

  readFollowUp(userId: string, now: Date): Promise<SenderFollowUp | undefined> {
    return readFollowUp(this, userId, now);
  }

  claimFollowUp(userId: string, input: FollowUpClaimInput): Promise<boolean> {
    return claimFollowUp(this, userId, input);
  }

  recordFollowUp(userId: string, input: FollowUpRecordInput): Promise<void> {
    return recordFollowUp(this, userId, input);
  }

  settleFollowUp(userId: string, input: { item: FollowUpItem; outcome: FollowUpOutcome | null }): Promise<boolean> {
    return settleFollowUp(this, userId, input);
  }

  delayFollowUp(userId: string, input: { item: FollowUpItem; until: Date }): Promise<boolean> {
    return delayFollowUp(this, userId, input);
  }
}
