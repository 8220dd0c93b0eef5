/**
 * The send flow's rules (spec §4 capacity and send modes, §5 sending checks, §9 limits; DESIGN §4):
 * which of the selected contacts are queued, when a send request's emails may start, the user's
 * limits, and the sending status the capacity dialog and the campaigns page show. Pure: the HTTP
 * handler reads the facts and writes the queue.
 */
import type { Campaign, CampaignSummary } from '../../schema/api/campaigns';
import { pendingEmails } from '../../schema/api/campaignValues';
import { campaignSummaryFields } from '../../schema/api/recordFields';
import type { Profile } from '../../schema/api/profile';
import type { SendingStatus, SendModeName } from '../../schema/api/sending';
import { monthlyLimitOf } from './plans';
import { immediateRefusal } from '../../schema/sendingLimits';
import { nextPacificMidnight, nextPacificMonthStart, pacificDate, pacificMonth, planSendTimes, sendingCapacity, type Capacity } from './sendingWindow';

/** Why a selected contact is not queued; `eligible` when it is. */
export type Eligibility = 'eligible' | 'unsubscribed' | 'unknown' | 'already_sent';

/** What the store says about the user's addresses. Contact ids are address ids, so one set of ids fits all. */
export interface SelectionFacts {
  /** Ids of the addresses on the user's unsubscribe list. */
  unsubscribed: ReadonlySet<string>;
  /** Ids that are the user's contacts now. */
  contacts: ReadonlySet<string>;
  /** Ids this artist already sent this track to. */
  pitched: ReadonlySet<string>;
  /** The artist ticked 'send again anyway'. */
  sendAgain: boolean;
  /** Ids sent again one by one: a contact who passed on the track, whom the artist ticked "Send anyway" for. */
  sendAgainIds?: ReadonlySet<string>;
}

/**
 * Unsubscribed comes first (never sent, whatever else is true), then contacts deleted since they were
 * selected, then those who already got the track, who are sent to again only when the artist asks.
 */
export function eligibilityOf(id: string, facts: SelectionFacts): Eligibility {
  if (facts.unsubscribed.has(id)) return 'unsubscribed';
  if (!facts.contacts.has(id)) return 'unknown';
  if (facts.pitched.has(id) && !facts.sendAgain && !facts.sendAgainIds?.has(id)) return 'already_sent';
  return 'eligible';
}

export interface SortedSelection {
  /** In the order selected, each id once: the queue order. */
  eligible: string[];
  unsubscribed: number;
  unknown: number;
  alreadySent: number;
}

/** Sorts a selection (or one batch of it); an id selected twice counts once. */
export function sortSelection(ids: readonly string[], facts: SelectionFacts): SortedSelection {
  const sorted: SortedSelection = { eligible: [], unsubscribed: 0, unknown: 0, alreadySent: 0 };
  for (const id of new Set(ids)) {
    const eligibility = eligibilityOf(id, facts);
    if (eligibility === 'eligible') sorted.eligible.push(id);
    else if (eligibility === 'unsubscribed') sorted.unsubscribed++;
    else if (eligibility === 'unknown') sorted.unknown++;
    else sorted.alreadySent++;
  }
  return sorted;
}

/** Spec §5: the whole selection is on the unsubscribe list ('All selected contacts have unsubscribed'). */
export const allUnsubscribed = (sorted: SortedSelection) =>
  sorted.eligible.length === 0 && sorted.unknown === 0 && sorted.alreadySent === 0 && sorted.unsubscribed > 0;

// ---------------------------------------------------------------------------------------------------
// Limits and capacity.

/** What the limits are read from: the plan's tier (core/plans.ts) and the mailbox's daily limit. */
export type LimitsProfile = Pick<Profile, 'tier' | 'gmail_daily_limit'>;

/** The mailbox's daily limit (spec §9: 500, or 2000 for a Workspace account), as the connection recorded it. */
export const dailyLimitOf = (profile: Pick<Profile, 'gmail_daily_limit'>): number => profile.gmail_daily_limit;

/** The user's counted emails: this Pacific day's and this Pacific month's, and when the next email is due. */
export interface Usage {
  sentToday: number;
  usedThisMonth: number;
  nextSendAt: string | null;
}

export function capacityOf(profile: LimitsProfile, usage: Usage, requested: number): Capacity {
  return sendingCapacity({
    dailyLimit: dailyLimitOf(profile),
    sentToday: usage.sentToday,
    monthlyLimit: monthlyLimitOf(profile),
    usedThisMonth: usage.usedThisMonth,
    requested,
  });
}

/** GET /api/sending/status and the send check: the mailbox, today's and this month's usage, the queue. */
export function sendingStatus(
  profile: LimitsProfile & Pick<Profile, 'gmail_connected' | 'gmail_email' | 'gmail_account_type'>,
  usage: Usage,
  now: Date,
  intervalMs: number,
): SendingStatus {
  const capacity = capacityOf(profile, usage, 0);
  const monthlyLimit = monthlyLimitOf(profile);
  return {
    mailbox: {
      connected: profile.gmail_connected,
      email: profile.gmail_connected ? profile.gmail_email : null,
      account_type: profile.gmail_account_type,
      daily_limit: dailyLimitOf(profile),
    },
    today: {
      date: pacificDate(now),
      sent: usage.sentToday,
      remaining: capacity.todayRemaining,
      resets_at: nextPacificMidnight(now).toISOString(),
    },
    month: {
      month: pacificMonth(now),
      used: usage.usedThisMonth,
      limit: monthlyLimit,
      remaining: capacity.monthRemaining,
      resets_at: nextPacificMonthStart(now).toISOString(),
    },
    available_now: capacity.availableNow,
    next_send_at: usage.nextSendAt,
    send_interval_seconds: intervalMs / 1000,
  };
}

// ---------------------------------------------------------------------------------------------------
// Send modes.

/** `message`: the refusal in words that name the limit that binds (schema/sendingLimits.ts immediateRefusal). */
export type SendStart = { outcome: 'start'; sendAfter: Date } | { outcome: 'insufficient'; message: string };

/**
 * When a send request's first email may go (spec §4): immediate, only when today's and the month's
 * capacity covers every email requested; partial, now (the pipeline stops at the daily limit and goes on
 * after the reset by itself); scheduled, at the next Pacific midnight. Nothing requested needs no capacity.
 * A refusal names the limit that binds: the spec's 'Insufficient daily capacity…' for the mailbox's day,
 * the plan's month and the day it resets otherwise (never 'tomorrow' when tomorrow would not help).
 */
export function sendStart({ mode, capacity, requested, now }: { mode: SendModeName; capacity: Capacity; requested: number; now: Date }): SendStart {
  if (mode === 'scheduled') return { outcome: 'start', sendAfter: nextPacificMidnight(now) };
  if (requested > 0 && planSendTimes({ mode, capacity, count: requested, now }).outcome === 'insufficient') {
    return { outcome: 'insufficient', message: immediateRefusal(capacity, requested, now) };
  }
  return { outcome: 'start', sendAfter: now };
}

// ---------------------------------------------------------------------------------------------------
// Answers.

/** A campaign as lists and the send flow answer it: the contract's fields without the email body (no internal attributes). */
export function campaignSummary(campaign: Campaign | CampaignSummary): CampaignSummary {
  return Object.fromEntries(campaignSummaryFields.map((field) => [field, campaign[field]])) as CampaignSummary;
}

/**
 * The emails of the user's other campaigns that go before a new send's (a user's campaigns go out in
 * the order queued, one pace per user): those still to go of every campaign sending now. A campaign
 * scheduled for later, or paused, holds no slot now.
 */
export function emailsQueuedAhead(
  campaigns: readonly Pick<
    Campaign,
    'id' | 'sending_status' | 'send_after' | 'total_queued' | 'emails_sent' | 'emails_failed' | 'emails_skipped' | 'emails_unknown'
  >[],
  campaignId: string,
  now: Date,
): number {
  let ahead = 0;
  for (const campaign of campaigns) {
    if (campaign.id === campaignId || campaign.sending_status !== 'sending') continue;
    if (campaign.send_after !== null && Date.parse(campaign.send_after) > now.getTime()) continue;
    ahead += pendingEmails(campaign);
  }
  return ahead;
}
