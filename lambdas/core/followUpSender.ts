/**
 * The sender's rules for follow-up steps (issue 27 §1; DESIGN §14), around `decide` for first emails:
 * a step takes a slot only when no first email is ready in it (first emails go first), under the same
 * mailbox day, plan month and pace; at its claim the stop rules are checked again (the guarantee). Pure.
 */
import type { FollowUpStopReason } from '../../schema/api/followUpValues';
import type { Profile } from '../../schema/api/profile';
import type { FollowUpItem, SenderCursor, SenderFollowUp, SenderView, SendingCampaign, RecipientRecord, StoredMailbox } from '../ports';
import { followUpStopReason } from './followUps';
import { monthlyLimitOf } from './plans';
import { dailyLimitOf } from './queueing';
import { nextPacificMonthStart, pacedUntil, recipientOpensAt, STALE_CLAIM_MS, type Decision, type TickTime, type WaitReason } from './sender';
import { nextPacificMidnight } from './sendingWindow';

/** A first-email wait that leaves the slot free: nothing of a campaign is ready to go in it. */
const SLOT_FREE: ReadonlySet<WaitReason> = new Set(['scheduled', 'retry', 'in_flight', 'batches', 'settling']);

/** How long a step of a paused campaign, or of a mailbox that is gone, waits before it is looked at again. */
export const FOLLOW_UP_RECHECK_MS = 60 * 60_000;

export type FollowUpWaitReason = 'follow_up' | 'follow_up_month' | 'follow_up_paused';

export type FollowUpDecision =
  | { kind: 'wait'; until: Date; reason: FollowUpWaitReason }
  /** The step may not go: its outcome is written on the recipient and the step deleted. */
  | { kind: 'follow_up_stop'; item: FollowUpItem; reason: FollowUpStopReason }
  /** Its campaign or its email is gone: the step is deleted, nothing written. */
  | { kind: 'follow_up_drop'; item: FollowUpItem }
  /** Claimed long ago and never recorded: its outcome is unknown, and it is never sent again. */
  | { kind: 'follow_up_unknown'; item: FollowUpItem }
  /** Its campaign is paused: the step is put back until `until`, so the user's other steps are not held behind it. */
  | { kind: 'follow_up_delay'; item: FollowUpItem; until: Date }
  | {
      kind: 'follow_up_send';
      cursor: SenderCursor;
      item: FollowUpItem;
      campaign: SendingCampaign;
      recipient: RecipientRecord;
      profile: Profile;
      mailbox: StoredMailbox;
      dailyLimit: number;
      monthlyLimit: number | null;
      slot: Date;
      nextDueAt: Date;
    };

export type SenderDecision = Decision | FollowUpDecision;

const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/** Whether a first email's decision leaves this slot to a follow-up step (the queue empty, or nothing of it ready). */
export const leavesSlotFree = (first: Decision) => first.kind === 'idle' || (first.kind === 'wait' && SLOT_FREE.has(first.reason));

/**
 * The next step for a due user, given the first email's decision: that one, unless it leaves the slot
 * free and a follow-up step is there; then the step's. A step not yet due only brings the cursor's next
 * tick forward to its time (an empty queue waits for it instead of going idle).
 */
export function withFollowUp(first: Decision, view: SenderView, tick: TickTime, now: Date, intervalMs: number): SenderDecision {
  const followUp = view.followUp;
  if (!followUp || !leavesSlotFree(first)) return first;
  const dueAt = new Date(followUp.item.due_at);
  if (dueAt > now) {
    return first.kind === 'wait' ? { ...first, until: earlier(first.until, dueAt) } : { kind: 'wait', until: dueAt, reason: 'follow_up' };
  }
  return decideFollowUp(followUp, view, tick, now, intervalMs);
}

/** A due step: stopped, dropped, put back, or sent now, in the order the rules are checked. */
export function decideFollowUp(followUp: SenderFollowUp, view: SenderView, tick: TickTime, now: Date, intervalMs: number): FollowUpDecision {
  const { item, campaign, recipient } = followUp;
  const nowMs = now.getTime();
  if (!campaign || !recipient) return { kind: 'follow_up_drop', item };
  if (item.status === 'sending') {
    const staleAt = Date.parse(item.claimed_at ?? '') + STALE_CLAIM_MS;
    if (Number.isNaN(staleAt) || staleAt <= nowMs) return { kind: 'follow_up_unknown', item };
    return { kind: 'wait', until: new Date(staleAt), reason: 'follow_up' };
  }
  const facts = {
    ...recipient,
    unsubscribed: followUp.unsubscribed === true,
    passedOnTrack: followUp.passedOnTrack === true,
  };
  const stop = followUpStopReason(facts, campaign.follow_ups.condition);
  if (stop !== null) return { kind: 'follow_up_stop', item, reason: stop };
  const { cursor, profile, mailbox } = view;
  if (!cursor) return { kind: 'wait', until: new Date(nowMs + intervalMs), reason: 'follow_up' };
  // No mailbox: the step waits for the artist to connect again (connecting makes the cursor due).
  if (!profile || !mailbox) return { kind: 'wait', until: new Date(nowMs + FOLLOW_UP_RECHECK_MS), reason: 'follow_up_paused' };
  const dailyLimit = dailyLimitOf(profile);
  if (view.sentToday >= dailyLimit) return { kind: 'wait', until: nextPacificMidnight(now), reason: 'follow_up' };
  // A step past the plan's month waits for the next month; the campaign page says so.
  const monthlyLimit = monthlyLimitOf(profile);
  if (monthlyLimit !== null && view.usedThisMonth >= monthlyLimit) return { kind: 'wait', until: nextPacificMonthStart(now), reason: 'follow_up_month' };
  // Pause holds a campaign's steps as it holds its first emails.
  if (campaign.sending_status === 'paused') return { kind: 'follow_up_delay', item, until: new Date(nowMs + FOLLOW_UP_RECHECK_MS) };
  // The campaign's send window holds for its steps: outside the recipient's hours the step waits for them.
  const opens = recipientOpensAt(campaign, recipient, profile, now);
  if (opens.at.getTime() > nowMs) return { kind: 'follow_up_delay', item, until: opens.at };
  const slotMs = Date.parse(tick.slot);
  const paced = pacedUntil(cursor, slotMs, intervalMs);
  if (paced) return { kind: 'wait', until: paced, reason: 'follow_up' };
  return {
    kind: 'follow_up_send',
    cursor,
    item,
    campaign,
    recipient,
    profile,
    mailbox,
    dailyLimit,
    monthlyLimit,
    slot: new Date(slotMs),
    nextDueAt: new Date(slotMs + intervalMs),
  };
}
