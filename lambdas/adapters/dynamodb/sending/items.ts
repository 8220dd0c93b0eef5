/**
 * The sending pipeline's items (schema/ACCESS_PATTERNS.md): their keys, and what each becomes when read.
 * The cursor `USER#<sub>` / `SENDER` (queue map, due_at and the sparse DUE index keys, last_slot);
 * recipients `CAMPAIGN#<id>` / `RCPT#<position>`; counters `DAY#<date>` / `MONTH#<month>` (`sent`);
 * `TOKEN#<token>` / `TOKEN`; `PITCHED#<track key>#<addressId>` (one prefix query per track).
 */
import { FOLLOW_UP_STEPS_MAX } from '../../../../schema/api/followUpValues';
import type { Profile } from '../../../../schema/api/profile';
import { indexes, key } from '../../../../schema/table';
import { dueShard } from '../../../core/dueShard';
import { RECIPIENT_LISTEN_FIELDS, recipientListen, type RecipientListenField } from '../../../core/listen';
import { pacificDate, pacificMonth } from '../../../core/sendingWindow';
import type { RecipientRecord, SenderCursor, SenderQueueEntry, SendingCampaign, StoredMailbox } from '../../../ports';
import { withoutKeys } from '../client';

export type Item = Record<string, unknown>;
export type ItemKey = { PK: string; SK: string };

// ---- keys ------------------------------------------------------------------------------------------

const userItem = (userId: string, sk: string): ItemKey => ({ PK: key.user(userId), SK: sk });
export const senderKey = (userId: string) => userItem(userId, key.sender());
export const profileKey = (userId: string) => userItem(userId, key.profile());
export const mailboxKey = (userId: string) => userItem(userId, key.mailbox());
export const campaignKey = (userId: string, campaignId: string) => userItem(userId, key.campaign(campaignId));
export const dayKey = (userId: string, at: Date) => userItem(userId, key.dayCounter(pacificDate(at)));
export const monthKey = (userId: string, at: Date) => userItem(userId, key.monthCounter(pacificMonth(at)));
export const unsubscribeKey = (userId: string, addressId: string) => userItem(userId, key.unsubscribe(addressId));
export const pitchedKey = (userId: string, trackKey: string, addressId: string) => userItem(userId, key.pitched(trackKey, addressId));
export const recipientKey = (campaignId: string, position: number): ItemKey => ({ PK: key.campaignPartition(campaignId), SK: key.recipient(position) });
export const tokenKey = (token: string): ItemKey => ({ PK: key.tokenPartition(token), SK: key.tokenSort() });
export const sentToKey = (userId: string, addressId: string, sentAt: string, campaignId: string, position: number) =>
  userItem(userId, key.sentTo(addressId, sentAt, campaignId, position));

/** The DUE index attributes of a cursor due at `dueAt`. */
export const dueAttributes = (userId: string, dueAt: string) => ({
  [indexes.due.partitionKey]: key.duePartition(dueShard(userId)),
  [indexes.due.sortKey]: key.dueSort(dueAt, userId),
});

/** The item of `key` among those a BatchGetItem returned (in any order). */
export const findItem = (items: readonly Item[], itemKey: ItemKey) => items.find((item) => item.PK === itemKey.PK && item.SK === itemKey.SK);

// ---- items as read -----------------------------------------------------------------------------------

export function toCursor(item: Item | undefined): SenderCursor | undefined {
  if (!item) return undefined;
  return {
    queue: (item.queue as Record<string, SenderQueueEntry> | undefined) ?? {},
    due_at: typeof item.due_at === 'string' ? item.due_at : null,
    last_slot: typeof item.last_slot === 'string' ? item.last_slot : null,
    daily_limit_refusals: Number(item.daily_limit_refusals ?? 0),
  };
}

/** A campaign item with the sending attributes defaulted (a draft has none yet). */
export function toSendingCampaign(item: Item): SendingCampaign {
  const campaign = withoutKeys<SendingCampaign>(item);
  return {
    ...campaign,
    queued_through: Number(item.queued_through ?? 0),
    last_batch_at: (item.last_batch_at as string | undefined) ?? null,
    resume_position: typeof item.resume_position === 'number' ? item.resume_position : null,
    resume_waiting: typeof item.resume_waiting === 'object' && item.resume_waiting !== null ? (item.resume_waiting as Record<string, string>) : null,
    send_window: campaign.send_window ?? null,
  };
}

/** A new recipient's attributes (queueing writes them; a read fills any missing one from here). */
export const RECIPIENT_DEFAULTS: Omit<
  RecipientRecord,
  'campaign_id' | 'user_id' | 'position' | 'contact' | 'recipient_name' | 'recipient_email' | RecipientListenField
> = {
  status: 'pending',
  attempts: 0,
  retry_at: null,
  claimed_at: null,
  token: null,
  message_id: null,
  provider_message_id: null,
  thread_id: null,
  subject: null,
  html: null,
  text: null,
  sent_at: null,
  opened_at: null,
  last_opened_at: null,
  open_count: 0,
  machine_opened_at: null,
  machine_open_count: 0,
  clicked_at: null,
  last_clicked_at: null,
  click_count: 0,
  detail: null,
  replied_at: null,
  send_again: false,
  retryable: false,
  passed_at: null,
  follow_up_1: null,
  follow_up_2: null,
};
export const RECIPIENT_FIELDS = [
  'campaign_id',
  'user_id',
  'position',
  'contact',
  'recipient_name',
  'recipient_email',
  ...Object.keys(RECIPIENT_DEFAULTS),
  ...RECIPIENT_LISTEN_FIELDS,
] as (keyof RecipientRecord)[];

/** The recipient's attribute that holds a step's outcome (`follow_up_1`, `follow_up_2`). */
export const followUpAttribute = (step: number) => `follow_up_${step}`;
/** The steps an email may have: 1 … FOLLOW_UP_STEPS_MAX. */
export const FOLLOW_UP_STEPS = Array.from({ length: FOLLOW_UP_STEPS_MAX }, (_, index) => index + 1);
/** What a listing reads of a step's outcome (FollowUpOutcomeFacts). */
export const FOLLOW_UP_OUTCOME_FACTS = ['state', 'at', 'reason'] as const;

/** A recipient as read: missing attributes from RECIPIENT_DEFAULTS; the listen ones as core recipientListen reads them. */
export function toRecipient(item: Item): RecipientRecord {
  const stored = withoutKeys<Partial<RecipientRecord>>(item);
  const defaults: Partial<RecipientRecord> = RECIPIENT_DEFAULTS;
  const fields = Object.fromEntries(RECIPIENT_FIELDS.map((field) => [field, stored[field] ?? defaults[field] ?? null])) as unknown as RecipientRecord;
  return { ...fields, ...recipientListen(item) };
}

export function toMailbox(item: Item | undefined): StoredMailbox | undefined {
  if (!item) return undefined;
  const { email, accountType, dailyLimit, sealedRefreshToken, connectedAt } = item as unknown as StoredMailbox;
  return { email, accountType, dailyLimit, sealedRefreshToken, connectedAt };
}

export const toProfile = (item: Item | undefined): Profile | undefined => (item ? withoutKeys<Profile>(item) : undefined);

export const counterOf = (item: Item | undefined) => Number(item?.sent ?? 0);
