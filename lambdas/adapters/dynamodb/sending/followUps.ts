/**
 * Follow-up steps in the table (issue 27 §1; DESIGN §14): `USER#<sub>` / `FOLLOWUP#<due at>#<campaign>#
 * <position>#<step>`, so the user's earliest step is one Query with Limit 1. A step is put with the
 * record of its first email, claimed like an email (pending → sending, on the condition that no stop rule
 * holds now), and deleted when settled; its outcome goes on the first email's recipient (`follow_up_<n>`).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { key } from '../../../../schema/table';
import type { FollowUpClaimInput, FollowUpItem, FollowUpOutcome, FollowUpRecordInput, SenderFollowUp } from '../../../ports';
import { batchGetAll } from '../batch';
import {
  campaignKey,
  findItem,
  pitchedKey,
  recipientKey,
  toRecipient,
  toSendingCampaign,
  tokenKey,
  unsubscribeKey,
  dayKey,
  followUpAttribute,
  monthKey,
  type Item,
  type ItemKey,
} from './items';
import { transaction, update, type SendingTable, type TransactItem } from './transaction';
import { claimedSlot, counterAdd, cursorAtDailyLimit, mailboxDisconnected, reservedCapacity } from './updates';

export const followUpKey = (userId: string, item: Pick<FollowUpItem, 'due_at' | 'campaign_id' | 'position' | 'step'>): ItemKey => ({
  PK: key.user(userId),
  SK: key.followUp(item.due_at, item.campaign_id, item.position, item.step),
});

export function toFollowUpItem(item: Item): FollowUpItem {
  return {
    campaign_id: String(item.campaign_id),
    position: Number(item.position),
    step: Number(item.step),
    due_at: String(item.due_at),
    status: item.status === 'sending' ? 'sending' : 'pending',
    claimed_at: typeof item.claimed_at === 'string' ? item.claimed_at : null,
    token: typeof item.token === 'string' ? item.token : null,
    attempts: Number(item.attempts ?? 0),
    address_id: String(item.address_id),
    track_key: String(item.track_key),
  };
}

/** A step's Put: new (a record is made once, but a retried transaction must not put it twice). */
export const followUpPut = (tableName: string, userId: string, item: FollowUpItem): TransactItem => ({
  Put: {
    TableName: tableName,
    Item: { ...followUpKey(userId, item), entity: 'follow_up', user_id: userId, ...item },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/**
 * The user's earliest step and, when it is due at `now`, the items its rules read: its campaign and
 * first email, the unsubscribe list's entry and the track's PITCHED item (its `passed_at`).
 */
export async function readFollowUp({ db, tableName }: SendingTable, userId: string, now: Date): Promise<SenderFollowUp | undefined> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': key.user(userId), ':prefix': key.followUpPrefix() },
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const stored = Items?.[0];
  if (!stored) return undefined;
  const item = toFollowUpItem(stored);
  if (Date.parse(item.due_at) > now.getTime()) return { item };
  const keys = {
    campaign: campaignKey(userId, item.campaign_id),
    recipient: recipientKey(item.campaign_id, item.position),
    unsubscribe: unsubscribeKey(userId, item.address_id),
    pitched: pitchedKey(userId, item.track_key, item.address_id),
  };
  const items = await batchGetAll(db, tableName, Object.values(keys), { consistentRead: true });
  const campaign = findItem(items, keys.campaign);
  const recipient = findItem(items, keys.recipient);
  return {
    item,
    ...(campaign ? { campaign: toSendingCampaign(campaign) } : {}),
    ...(recipient ? { recipient: toRecipient(recipient) } : {}),
    unsubscribed: findItem(items, keys.unsubscribe) !== undefined,
    passedOnTrack: typeof findItem(items, keys.pitched)?.passed_at === 'string',
  };
}

const unset = (attribute: string) => `(attribute_not_exists(${attribute}) OR attribute_type(${attribute}, :nullType))`;

/**
 * The claim: the step taken (pending, as read), the cursor's slot and the capacity as a first email's
 * claim, the step's token put, and every stop rule checked in the same transaction, so an answer,
 * listen, click, mark or unsubscribe recorded before it always stops the step.
 */
export async function claimFollowUp({ db, tableName, options }: SendingTable, userId: string, input: FollowUpClaimInput): Promise<boolean> {
  const { item, token, now, tickDueAt, slot, nextDueAt } = input;
  const stops = ['answered_at', 'clicked_at', 'replied_at', 'passed_at', ...(input.condition === 'not_listened' ? ['listened_at'] : [])];
  const result = await transaction(
    db,
    { step: 'claimFollowUp', userId, campaignId: item.campaign_id, position: item.position, followUpStep: item.step },
    {
      followUp: update(tableName, followUpKey(userId, item), {
        set: ['#status = :sending', 'claimed_at = :now', '#token = :token'],
        condition: '#status = :pending',
        names: { '#status': 'status', '#token': 'token' },
        values: { ':sending': 'sending', ':now': now.toISOString(), ':token': token.token, ':pending': 'pending' },
      }),
      cursor: claimedSlot({ tableName, userId, tickDueAt, slot, nextDueAt, intervalMs: options.intervalMs }),
      ...reservedCapacity({ tableName, userId, now, dailyLimit: input.dailyLimit, monthlyLimit: input.monthlyLimit, tier: input.tier }),
      recipient: {
        ConditionCheck: {
          TableName: tableName,
          Key: recipientKey(item.campaign_id, item.position),
          ConditionExpression: ['#status = :sent', ...stops.map(unset)].join(' AND '),
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':sent': 'sent', ':nullType': 'NULL' },
        },
      },
      unsubscribed: { ConditionCheck: { TableName: tableName, Key: unsubscribeKey(userId, item.address_id), ConditionExpression: 'attribute_not_exists(PK)' } },
      pitched: {
        ConditionCheck: {
          TableName: tableName,
          Key: pitchedKey(userId, item.track_key, item.address_id),
          ConditionExpression: unset('passed_at'),
          ExpressionAttributeValues: { ':nullType': 'NULL' },
        },
      },
      campaign: {
        ConditionCheck: {
          TableName: tableName,
          Key: campaignKey(userId, item.campaign_id),
          ConditionExpression:
            'attribute_exists(PK) AND (attribute_not_exists(sending_status) OR attribute_type(sending_status, :nullType) OR sending_status <> :paused)',
          ExpressionAttributeValues: { ':nullType': 'NULL', ':paused': 'paused' },
        },
      },
      token: {
        Put: {
          TableName: tableName,
          Item: { ...tokenKey(token.token), entity: 'token', ...token },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    },
  );
  return result.ok;
}

/** The recipient's outcome of a step, whatever else the recipient holds. */
const outcomeSet = (tableName: string, item: FollowUpItem, outcome: FollowUpOutcome): TransactItem =>
  update(tableName, recipientKey(item.campaign_id, item.position), {
    set: ['#outcome = :outcome'],
    condition: 'attribute_exists(PK)',
    names: { '#outcome': followUpAttribute(item.step) },
    values: { ':outcome': outcome },
  });

/** The step deleted, on the condition that it is still as read (its status, and the claim's time when claimed). */
const followUpDelete = (tableName: string, userId: string, item: FollowUpItem): TransactItem => ({
  Delete: {
    TableName: tableName,
    Key: followUpKey(userId, item),
    ConditionExpression: item.claimed_at === null ? '#status = :status' : '#status = :status AND claimed_at = :claimedAt',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':status': item.status, ...(item.claimed_at === null ? {} : { ':claimedAt': item.claimed_at }) },
  },
});

/** A claimed step back to pending (a send that did not happen). */
const backToPending = (tableName: string, userId: string, item: FollowUpItem, claimedAt: Date): TransactItem =>
  update(tableName, followUpKey(userId, item), {
    set: ['#status = :pending', 'claimed_at = :null'],
    condition: '#status = :sending AND claimed_at = :claimedAt',
    names: { '#status': 'status' },
    values: { ':pending': 'pending', ':null': null, ':sending': 'sending', ':claimedAt': claimedAt.toISOString() },
  });

export async function settleFollowUp(
  { db, tableName }: SendingTable,
  userId: string,
  { item, outcome }: { item: FollowUpItem; outcome: FollowUpOutcome | null },
): Promise<boolean> {
  const result = await transaction(
    db,
    { step: 'settleFollowUp', userId, campaignId: item.campaign_id, position: item.position, followUpStep: item.step },
    { followUp: followUpDelete(tableName, userId, item), recipient: outcome ? outcomeSet(tableName, item, outcome) : undefined },
  );
  return result.ok;
}

/** The step put back as pending with a new due time (a new key: the due time leads it). */
function moved(tableName: string, userId: string, item: FollowUpItem, until: Date, attempts: number) {
  return followUpPut(tableName, userId, { ...item, due_at: until.toISOString(), status: 'pending', claimed_at: null, token: null, attempts });
}

export async function delayFollowUp({ db, tableName }: SendingTable, userId: string, { item, until }: { item: FollowUpItem; until: Date }): Promise<boolean> {
  const result = await transaction(
    db,
    { step: 'delayFollowUp', userId, campaignId: item.campaign_id, position: item.position, followUpStep: item.step },
    { followUp: followUpDelete(tableName, userId, item), moved: moved(tableName, userId, item, until, item.attempts) },
  );
  return result.ok;
}

export async function recordFollowUp({ db, tableName }: SendingTable, userId: string, input: FollowUpRecordInput): Promise<void> {
  const { item, claimedAt, now } = input;
  const claimed: FollowUpItem = { ...item, status: 'sending', claimed_at: claimedAt.toISOString() };
  const release = { day: counterAdd(tableName, dayKey(userId, claimedAt), -1), month: counterAdd(tableName, monthKey(userId, claimedAt), -1) };
  const tag = { step: 'recordFollowUp' as const, userId, campaignId: item.campaign_id, position: item.position, followUpStep: item.step, record: input.kind };
  const at = now.toISOString();
  let items: Record<string, TransactItem | undefined>;
  switch (input.kind) {
    case 'sent':
      items = {
        followUp: followUpDelete(tableName, userId, claimed),
        recipient: outcomeSet(tableName, item, {
          state: 'sent',
          at,
          token: input.token,
          message_id: input.messageId,
          subject: input.subject,
          html: input.html,
          text: input.text,
        }),
        token: update(tableName, tokenKey(input.token), { set: ['links = :links'], condition: 'attribute_exists(PK)', values: { ':links': input.links } }),
        campaign: update(tableName, campaignKey(userId, item.campaign_id), {
          add: ['follow_ups_sent :one'],
          condition: 'attribute_exists(PK)',
          values: { ':one': 1 },
        }),
      };
      break;
    case 'retry':
      items = { followUp: followUpDelete(tableName, userId, claimed), moved: moved(tableName, userId, item, input.retryAt, input.attempts), ...release };
      break;
    case 'failed':
      items = {
        followUp: followUpDelete(tableName, userId, claimed),
        recipient: outcomeSet(tableName, item, { state: 'failed', at, token: input.token, detail: input.detail }),
        ...release,
      };
      break;
    case 'daily_limit':
      items = { followUp: backToPending(tableName, userId, item, claimedAt), ...release, cursor: cursorAtDailyLimit(tableName, userId, input.until) };
      break;
    case 'auth':
      items = { followUp: backToPending(tableName, userId, item, claimedAt), ...release, ...mailboxDisconnected(tableName, userId, now) };
      break;
  }
  // A failed condition: the step is no longer this claim's (recorded unknown meanwhile); nothing to record.
  await transaction(db, tag, items);
}
