/**
 * The sender's rules (DESIGN §4; the pipeline design): what to do next for a due user, given what was
 * read and the time; back-off; the stale-claim rule; the track key of "already pitched"; the email as
 * handed to the mailer. Pure: the worker reads, asks `decide`, and writes what it says.
 */
import { createHash } from 'node:crypto';
import type { Campaign, RenderedEmail } from '../../schema/api/campaigns';
import { artistName } from '../../schema/api/artist';
import { OUTSIDE_WINDOW_DETAIL, SEND_ATTEMPTS } from '../../schema/api/sendingValues';
import type {
  EmailToken,
  OutgoingEmail,
  RecipientRecord,
  SenderCursor,
  SenderHead,
  SenderQueueEntry,
  SenderView,
  SendingCampaign,
  StoredMailbox,
} from '../ports';
import type { Profile } from '../../schema/api/profile';
import { monthlyLimitOf } from './plans';
import { dailyLimitOf } from './queueing';
import { PITCH_KEY_LENGTH, pitchBasis } from './pitchBasis';
import { nextPacificMidnight, pacificMonth } from './sendingWindow';
import { replySubject, type FirstEmail } from './thread';
import { oneClickUnsubscribeUrl, trackedHtml } from './tracking';
import { nextWindowStart, resolveTimeZone, type SendWindow, type Weekday } from './workingHours';

/** A `sending` recipient claimed this long ago never reported back: its outcome is unknown (never retried). */
export const STALE_CLAIM_MS = 5 * 60_000;
/** Provider attempts of one email before it is failed (the web shows the same number). */
export const MAX_ATTEMPTS = SEND_ATTEMPTS;
/** Back-off after the 1st, 2nd, … retryable failure: 1, 2, 4, 8, 16 minutes. */
export const BACKOFF_MS = [1, 2, 4, 8, 16].map((minutes) => minutes * 60_000);
/** Steps one tick may take for a user (skips, completions) before it gives up the message. */
export const MAX_STEPS = 10;
/**
 * Recipients one tick may put aside for their working hours before it gives up the message: a
 * postponement costs no slot, so it has its own budget, larger than MAX_STEPS (a campaign whose next
 * recipients are all asleep would otherwise lose the slot to them).
 */
export const MAX_POSTPONES = 60;
/** A campaign whose send flow stopped queueing (the browser closed mid-way) completes after this. */
export const BATCH_GRACE_MS = 15 * 60_000;

/** The recipient details (RCPT.detail) the sender writes, in words. */
export const recipientDetails = {
  unsubscribed: 'Unsubscribed before this email was sent.',
  /** Another campaign pitched this track to the address first (the recipient was not queued with send again). */
  alreadyPitched: 'Already received this track',
  /** The address has another position in this campaign: it gets one email. */
  duplicate: 'Duplicate recipient in this campaign',
  unknown: 'The mailbox did not confirm this email; it is not sent again.',
  /** Waiting for the recipient's working hours (the campaign's send window, issue 27 §2); the time is its retry_at. */
  outsideWindow: OUTSIDE_WINDOW_DETAIL,
  gaveUp: (message: string) => `Not sent after ${MAX_ATTEMPTS} attempts: ${message}`,
} as const;

/**
 * The key of "this artist already pitched this track" (`PITCHED#<key>#<addressId>`): the track's pitch
 * basis (its link, else its name) hashed to 22 base64url characters.
 */
export function pitchKey(campaign: Pick<Campaign, 'track_url' | 'track_name'>): string {
  return createHash('sha256').update(pitchBasis(campaign)).digest('base64url').slice(0, PITCH_KEY_LENGTH);
}

// The DUE shard lives in a module without schemas: the sending items' keys need it, and no zod.
export { dueShard } from './dueShard';

/** Wait after the `attempt`-th retryable failure (1-based): 1, 2, 4, 8, 16 minutes. */
export function backoffMs(attempt: number): number {
  const wait = BACKOFF_MS[Math.min(Math.max(attempt, 1), BACKOFF_MS.length) - 1];
  if (wait === undefined) throw new Error('BACKOFF_MS is empty');
  return wait;
}

/** The first instant of the next Pacific month (the monthly plan limit's reset). */
export function nextPacificMonthStart(at: Date): Date {
  const month = pacificMonth(at);
  let next = nextPacificMidnight(at);
  while (pacificMonth(next) === month) next = nextPacificMidnight(next);
  return next;
}

/** The waiting recipients of a campaign as [position, time], soonest first (then by position). */
export function waitingOf(entry: Pick<SenderQueueEntry, 'waiting'>): [position: number, at: string][] {
  return Object.entries(entry.waiting ?? {})
    .map(([position, at]): [number, string] => [Number(position), at])
    .sort((a, b) => a[1].localeCompare(b[1]) || a[0] - b[0]);
}

/**
 * The head of a user's queue at `now`: of the campaigns whose send_after has come, the one queued first
 * (a scheduled campaign does not block an earlier one that is due); within it, a waiting recipient whose
 * time has come, else the campaign's next position. Undefined when no campaign is due.
 */
export function headOf(queue: Record<string, SenderQueueEntry>, now: Date): SenderHead | undefined {
  let head: [string, SenderQueueEntry] | undefined;
  for (const entry of Object.entries(queue)) {
    if (Date.parse(entry[1].send_after) > now.getTime()) continue;
    if (!head || entry[1].queued_at < head[1].queued_at || (entry[1].queued_at === head[1].queued_at && entry[0] < head[0])) head = entry;
  }
  if (!head) return undefined;
  const [campaignId, entry] = head;
  const [ready] = waitingOf(entry).filter(([, at]) => Date.parse(at) <= now.getTime());
  return ready ? { campaignId, position: ready[0], waited: true } : { campaignId, position: entry.position };
}

/** When the next campaign of the queue becomes due (none is due now). */
function firstSendAfter(queue: Record<string, SenderQueueEntry>): Date {
  return new Date(Math.min(...Object.values(queue).map((entry) => Date.parse(entry.send_after))));
}

/**
 * A campaign the sender paused at the plan's monthly limit (pause_reason 'monthly_limit'). Unlike a
 * pause by the artist it stays on the cursor, which is due at the next Pacific month, and the sender
 * releases it then by itself. An upgrade written by billing makes the cursor due at once (wakeSender),
 * so the sender releases it at its next tick; the artist's Resume also sends on at once (the sender
 * holds it again if the plan still does not allow). The cursor is not polled meanwhile.
 */
export const heldAtMonthlyLimit = (campaign: Pick<SendingCampaign, 'sending_status' | 'pause_reason'>) =>
  campaign.sending_status === 'paused' && campaign.pause_reason === 'monthly_limit';

/**
 * Whether processing the head finishes the campaign: every batch is in, the campaign's next position is
 * past the last queued one, and no other recipient waits.
 */
export function completesAt(
  campaign: Pick<SendingCampaign, 'queued_through' | 'total_recipients' | 'total_queued'>,
  entry: Pick<SenderQueueEntry, 'position' | 'waiting'>,
  head: Pick<SenderHead, 'position' | 'waited'>,
): boolean {
  const nextPosition = head.waited ? entry.position : head.position + 1;
  const othersWaiting = waitingOf(entry).some(([position]) => position !== head.position);
  return campaign.queued_through >= campaign.total_recipients && nextPosition >= campaign.total_queued && !othersWaiting;
}

/** A campaign's send window as the core reads it (null: any time). */
export function sendWindowOf(campaign: Pick<Campaign, 'send_window'>): SendWindow | null {
  const window = campaign.send_window;
  return window ? { days: window.days as Weekday[], startHour: window.start_hour, endHour: window.end_hour } : null;
}

/** Where the artist's clock is when the profile has no zone: UTC, known to every engine. */
export const ARTIST_ZONE_FALLBACK = 'UTC';

/**
 * When a recipient may get the campaign's email, at or after `now`: `now` itself when the campaign goes
 * any time or the recipient is inside their window (their zone, else the artist's, else UTC), else the
 * next opening of their window. `warning` names a zone that was not usable (a fallback, never an error).
 */
export function recipientOpensAt(
  campaign: Pick<Campaign, 'send_window'>,
  recipient: Pick<RecipientRecord, 'contact'>,
  profile: Pick<Profile, 'time_zone'>,
  now: Date,
): { at: Date; zone: string | null; warning: string | null } {
  const window = sendWindowOf(campaign);
  if (window === null) return { at: now, zone: null, warning: null };
  const resolved = resolveTimeZone(recipient.contact.time_zone, profile.time_zone ?? ARTIST_ZONE_FALLBACK);
  // A window that never opens is refused when the campaign is sent; one stored anyway never blocks the queue.
  return { at: nextWindowStart(now, window, resolved.zone) ?? now, zone: resolved.zone, warning: resolved.warning };
}

export type WaitReason = 'scheduled' | 'retry' | 'in_flight' | 'daily_limit' | 'pacing' | 'batches' | 'settling';

/**
 * The pace, in slots: at most one claim per slot, and the next slot one interval after the last claim's.
 * Null when the slot at `slotMs` may take a claim, else the time the next one may.
 */
export function pacedUntil(cursor: Pick<SenderCursor, 'last_slot'>, slotMs: number, intervalMs: number): Date | null {
  if (!cursor.last_slot) return null;
  const paced = Date.parse(cursor.last_slot) + intervalMs;
  return paced > slotMs ? new Date(paced) : null;
}

/** Where a tick stands: the cursor's due time it was dispatched for, and its slot (core/dispatch SendTick). */
export interface TickTime {
  dueAt: string;
  slot: string;
}

export type Decision =
  /** The tick is not the cursor's current one (a duplicate, or the cursor moved): drop it. */
  | { kind: 'stale' }
  /** Nothing queued: take the cursor out of the DUE index. */
  | { kind: 'idle' }
  /** Nothing to do before `until`: move the cursor there. */
  | { kind: 'wait'; until: Date; reason: WaitReason }
  /** Every batch in, every position processed. */
  | { kind: 'complete'; campaignId: string }
  /** Only waiting recipients are left, none ready: the campaign steps aside until the first is (its send_after). */
  | { kind: 'defer'; campaignId: string; until: Date }
  /** The campaign is gone: take it off the cursor. */
  | { kind: 'forget'; campaignId: string }
  /**
   * The recipient is outside its working hours (the campaign's send window): it waits alone until `until`
   * (its window's next opening) and the slot goes to the next ready recipient (DESIGN §13, §14).
   */
  | { kind: 'postpone'; head: SenderHead; until: Date; hasWaiting: boolean; warning: string | null }
  /** No email for this position: mark it (counted) or just move past it (already final, or missing). */
  | { kind: 'advance'; head: SenderHead; mark?: { status: 'unknown'; from: 'sending'; detail: string }; completes: boolean }
  /** No mailbox to send with: pause every campaign of the cursor. */
  | { kind: 'pause'; reason: 'mailbox_disconnected' }
  /** The plan's monthly limit is reached: every campaign of the cursor paused at it (kept on the cursor) until the next Pacific month. */
  | { kind: 'hold'; until: Date }
  /** The plan allows again: the campaigns held at the monthly limit go on sending. */
  | { kind: 'release' }
  | {
      kind: 'send';
      /** The cursor as read: its queue (an auth failure pauses all of it), waiting recipients, daily-limit refusals. */
      cursor: SenderCursor;
      head: SenderHead;
      campaign: SendingCampaign;
      recipient: RecipientRecord;
      profile: Profile;
      mailbox: StoredMailbox;
      completes: boolean;
      dailyLimit: number;
      monthlyLimit: number | null;
      /** The slot this email takes, and the user's next one (slot + interval). */
      slot: Date;
      nextDueAt: Date;
      /** A recipient's time zone that was not usable (the artist's zone was used): logged, never an error. */
      warning: string | null;
    };

const FINAL_STATUSES: ReadonlySet<RecipientRecord['status']> = new Set(['sent', 'failed', 'skipped', 'unknown']);

/**
 * The next step for a user whose tick arrived at `now`. Every branch is one decision; the worker
 * carries it out with one conditional write (or the claim, the send and the record). The rules, in order:
 * the tick must be the cursor's; no mailbox pauses everything; the head campaign must be sending; a
 * campaign with nothing left completes (or steps aside while only waiting recipients are left); a
 * claimed recipient that never reported back is unknown; the day's mailbox limit, the month's plan
 * limit and the pace (one claim per slot, slots one interval apart) must allow; then send.
 */
export function decide(view: SenderView, tick: TickTime, now: Date, intervalMs: number): Decision {
  const { cursor } = view;
  const nowMs = now.getTime();
  if (!cursor || cursor.due_at === null || cursor.due_at !== tick.dueAt || Date.parse(cursor.due_at) > nowMs) return { kind: 'stale' };
  if (Object.keys(cursor.queue).length === 0) return { kind: 'idle' };
  const { profile, mailbox } = view;
  if (!mailbox || !profile) return { kind: 'pause', reason: 'mailbox_disconnected' };

  const head = view.head;
  if (!head) return { kind: 'wait', until: firstSendAfter(cursor.queue), reason: 'scheduled' };
  const { campaign, recipient, campaignId, position } = head;
  const entry = cursor.queue[campaignId];
  if (!campaign || !entry) return { kind: 'forget', campaignId };
  const at: SenderHead = { campaignId, position, ...(head.waited ? { waited: true } : {}) };
  // The plan's limit as the profile says now: a plan change applies to emails already queued.
  const monthlyLimit = monthlyLimitOf(profile);
  const monthFull = monthlyLimit !== null && view.usedThisMonth >= monthlyLimit;
  // Held and still full: hold again, so a campaign on the cursor that is still sending (queued later,
  // scheduled or resumed on the same plan) is paused at the limit too, not left sending until the month turns.
  if (heldAtMonthlyLimit(campaign)) return monthFull ? { kind: 'hold', until: nextPacificMonthStart(now) } : { kind: 'release' };
  // Pause and resume change the campaign and the cursor in one transaction; a read between them (the
  // batch read is not one snapshot) settles by the next interval.
  if (campaign.sending_status !== 'sending') return { kind: 'wait', until: new Date(nowMs + intervalMs), reason: 'settling' };

  if (!head.waited && position >= campaign.total_queued) {
    const lastBatch = Date.parse(campaign.last_batch_at ?? campaign.started_sending_at ?? campaign.updated_at);
    const batchesIn = campaign.queued_through >= campaign.total_recipients || !(nowMs - lastBatch < BATCH_GRACE_MS);
    if (!batchesIn) return { kind: 'wait', until: new Date(nowMs + intervalMs), reason: 'batches' };
    const [firstWaiting] = waitingOf(entry);
    if (firstWaiting) return { kind: 'defer', campaignId, until: new Date(firstWaiting[1]) };
    return { kind: 'complete', campaignId };
  }
  const completes = completesAt(campaign, entry, at);
  if (!recipient || FINAL_STATUSES.has(recipient.status)) return { kind: 'advance', head: at, completes };
  if (recipient.status === 'sending') {
    const staleAt = Date.parse(recipient.claimed_at ?? '') + STALE_CLAIM_MS;
    // A claim without a time cannot be waited out: its outcome is unknown now.
    if (Number.isNaN(staleAt) || staleAt <= nowMs) {
      return { kind: 'advance', head: at, completes, mark: { status: 'unknown', from: 'sending', detail: recipientDetails.unknown } };
    }
    return { kind: 'wait', until: new Date(staleAt), reason: 'in_flight' };
  }
  // A recipient put back with a time of its own that has not come (a retry queued before recipients waited alone).
  if (recipient.retry_at && Date.parse(recipient.retry_at) > nowMs) return { kind: 'wait', until: new Date(recipient.retry_at), reason: 'retry' };
  // The recipient's working hours: outside them it waits alone, so the slot is not lost (checked again at
  // every claim: a waiting recipient whose time came is read against its window again).
  const opens = recipientOpensAt(campaign, recipient, profile, now);
  if (opens.at.getTime() > nowMs) {
    return { kind: 'postpone', head: at, until: opens.at, hasWaiting: entry.waiting !== undefined, warning: opens.warning };
  }

  const dailyLimit = dailyLimitOf(profile);
  if (view.sentToday >= dailyLimit) return { kind: 'wait', until: nextPacificMidnight(now), reason: 'daily_limit' };
  if (monthFull) return { kind: 'hold', until: nextPacificMonthStart(now) };
  const slotMs = Date.parse(tick.slot);
  const paced = pacedUntil(cursor, slotMs, intervalMs);
  if (paced) return { kind: 'wait', until: paced, reason: 'pacing' };
  return {
    kind: 'send',
    cursor,
    head: at,
    campaign,
    recipient,
    profile,
    mailbox,
    completes,
    dailyLimit,
    monthlyLimit,
    slot: new Date(slotMs),
    nextDueAt: new Date(slotMs + intervalMs),
    warning: opens.warning,
  };
}

/**
 * When a mailbox that answered "daily limit reached" is tried again: Gmail's limit is a rolling 24 hours,
 * so in an hour, then 2, 4, 8, 16 and at most 24 hours after further refusals in a row.
 */
export function dailyLimitRetryAt(now: Date, refusalsBefore: number): Date {
  const hours = Math.min(2 ** Math.max(refusalsBefore, 0), 24);
  return new Date(now.getTime() + hours * 3_600_000);
}

/** The Message-ID of one email: unique per campaign, position and token (`<id.position.token8@trackpitch>`). */
export const messageIdOf = (campaignId: string, position: number, token: string) => `<${campaignId}.${position}.${token.slice(0, 8)}@trackpitch>`;

/** The tracking token of one email, put by the claim; the links of the email as sent come with the record. */
export function emailTokenFor(input: {
  userId: string;
  campaign: Pick<Campaign, 'id' | 'track_name'>;
  recipient: Pick<RecipientRecord, 'position' | 'contact' | 'recipient_email' | 'recipient_name'>;
  profile: Pick<Profile, 'artist_name' | 'full_name'>;
  token: string;
  now: Date;
}): EmailToken {
  const { userId, campaign, recipient, profile, token, now } = input;
  return {
    token,
    user_id: userId,
    campaign_id: campaign.id,
    position: recipient.position,
    contact_id: recipient.contact.id,
    contact_email: recipient.recipient_email,
    contact_name: recipient.recipient_name,
    artist_name: artistName(profile),
    track_name: campaign.track_name,
    links: [],
    created_at: now.toISOString(),
  };
}

export interface OutgoingInput {
  userId: string;
  campaign: Pick<Campaign, 'id'>;
  recipient: Pick<RecipientRecord, 'position' | 'recipient_email' | 'recipient_name'>;
  profile: Pick<Profile, 'artist_name' | 'full_name'>;
  mailbox: Pick<StoredMailbox, 'email'>;
  /** The recipient's email as rendered (recipientEmail, with the unsubscribe page URL of `token`). */
  rendered: RenderedEmail;
  token: string;
  appUrl: string;
  /** A later step answers the first email: it goes in its thread, under `Re: <its subject>` (core/thread.ts). */
  replyingTo?: FirstEmail;
  /** The follow-up step it is (1, 2): named in the email's meta. */
  step?: number;
}

/**
 * The email as the mailer gets it (tracked links, pixel, List-Unsubscribe) and the links its token tracks;
 * a reply to the first email carries its thread and subject.
 */
export function outgoingEmail({ userId, campaign, recipient, profile, mailbox, rendered, token, appUrl, replyingTo, step }: OutgoingInput): {
  email: OutgoingEmail;
  links: string[];
} {
  const tracked = trackedHtml(rendered.html, { appUrl, token });
  return {
    email: {
      from: { name: artistName(profile), email: mailbox.email },
      to: { name: recipient.recipient_name, email: recipient.recipient_email },
      subject: replyingTo ? replySubject(replyingTo.subject) : rendered.subject,
      html: tracked.html,
      text: rendered.text,
      messageId: messageIdOf(campaign.id, recipient.position, token),
      listUnsubscribeUrl: oneClickUnsubscribeUrl(appUrl, token),
      meta: { userId, campaignId: campaign.id, position: recipient.position, ...(step ? { step } : {}) },
      ...(replyingTo ? { replyTo: replyingTo.thread } : {}),
    },
    links: tracked.links,
  };
}
