/**
 * The user's counters (DESIGN §11): what the dashboard and analytics read instead of the logs. Two
 * kinds, on purpose:
 *  - email counters (`emails_*`) count emails, each once: sent, first opened by a person, first opened
 *    by a machine (mail privacy proxies open every email on delivery), first clicked, unsubscribed.
 *    Rates divide these by `emails_sent` (an email opened ten times is one opened email), and each has
 *    a time on the email's log (sent_at, opened_at, machine_opened_at, clicked_at, unsubscribed_at), so
 *    they are kept per Pacific day too and can be rebuilt from the logs exactly.
 *  - event counters (`*_count`) count every open or click (the recipient's own counters, summed):
 *    totals only, because the logs keep no time of every event, only the first and the last.
 *  - entity counters count the user's own items, kept by the writers of those items:
 *    `contacts_count` (how many contacts the user has now: totals only, a level, not a flow) and
 *    `campaigns_sent` (campaigns that left draft: totals and the Pacific day of their first queued
 *    batch; a draft never counts, and a sent campaign is never deleted, so it never falls).
 *    Rebuilt by counting the items, not from the email logs.
 * The campaign item keeps the same email counters per campaign (emails_sent, emails_opened, …).
 * This module is pure: the day a counter lands on, and the counters the logs say (the backfill writes
 * them, the fault-injection invariants compare with them).
 */
import { FOLLOW_UP_STEPS_MAX } from '../../schema/api/followUpValues';
import { pacificDate } from './sendingWindow';

/**
 * emails_listened: recipients whose listen page reached 25 % (issue 16); emails_answered: recipients
 * who gave a one-click answer (counted at the first; a changed answer is the same recipient).
 */
export const EMAIL_COUNTERS = [
  'emails_sent',
  'emails_opened',
  'emails_machine_opened',
  'emails_clicked',
  'emails_unsubscribed',
  'emails_listened',
  'emails_answered',
] as const;
export type EmailCounter = (typeof EMAIL_COUNTERS)[number];

/**
 * Issue 27 §1: a listen or an answer that came through a follow-up step's link (its own token) is counted
 * on the campaign item per step too (`emails_listened_step1`, …), in the event's transaction, so Analytics
 * tells the first email's from each step's: the first email's are the campaign's counter less its steps'.
 * The RCPT keeps the step beside the time (`listened_step`, `first_answered_step`), the log they agree with.
 */
export const STEP_ATTRIBUTED_COUNTERS = ['emails_listened', 'emails_answered'] as const satisfies readonly EmailCounter[];
export type StepAttributedCounter = (typeof STEP_ATTRIBUTED_COUNTERS)[number];
/** A follow-up step's number: 1 or 2 (0 is the first email). */
export type FollowUpStepNumber = 1 | 2;
export const FOLLOW_UP_STEP_NUMBERS = Array.from({ length: FOLLOW_UP_STEPS_MAX }, (_, i) => i + 1) as FollowUpStepNumber[];
export type StepCounter = `${StepAttributedCounter}_step${FollowUpStepNumber}`;
export const stepCounter = (counter: StepAttributedCounter, step: FollowUpStepNumber): StepCounter => `${counter}_step${step}`;
export const STEP_COUNTERS: readonly StepCounter[] = FOLLOW_UP_STEP_NUMBERS.flatMap((step) =>
  STEP_ATTRIBUTED_COUNTERS.map((counter) => stepCounter(counter, step)),
);
export type StepCounters = Record<StepCounter, number>;
export const emptyStepCounters = (): StepCounters => Object.fromEntries(STEP_COUNTERS.map((name) => [name, 0])) as StepCounters;

/** A token's step as a counter's step: 1 or 2; the first email's token (no step, or anything else) is null. */
export const followUpStepOf = (step: unknown): FollowUpStepNumber | null =>
  (FOLLOW_UP_STEP_NUMBERS as readonly unknown[]).includes(step) ? (step as FollowUpStepNumber) : null;

/** play_count: play sessions started on listen pages; download_count: downloads from them. */
export const EVENT_COUNTERS = ['open_count', 'machine_open_count', 'click_count', 'play_count', 'download_count'] as const;
export type EventCounter = (typeof EVENT_COUNTERS)[number];

export const ENTITY_COUNTERS = ['contacts_count', 'campaigns_sent'] as const;
export type EntityCounter = (typeof ENTITY_COUNTERS)[number];

/** The counters kept per Pacific day too: the email counters and the campaigns first queued that day. */
export const DAY_COUNTERS = [...EMAIL_COUNTERS, 'campaigns_sent'] as const satisfies readonly (EmailCounter | EntityCounter)[];
export type DayCounter = (typeof DAY_COUNTERS)[number];

/** Every counter on the totals item. */
export const TOTAL_COUNTERS = [...EMAIL_COUNTERS, ...EVENT_COUNTERS, ...ENTITY_COUNTERS] as const;
export type TotalCounter = (typeof TOTAL_COUNTERS)[number];

/** The email counters alone: what a day, a period, a campaign or the totals say about emails. */
export type EmailCounters = Record<EmailCounter, number>;
export type DayCounters = Record<DayCounter, number>;
export type TotalCounters = Record<TotalCounter, number>;

/** The Pacific day ('YYYY-MM-DD') an event at `at` counts on: the day the sending limits reset on too. */
export const counterDay = (at: Date): string => pacificDate(at);

const addDays = (day: string, days: number): string => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  // Calendar arithmetic on the date alone (UTC noon): no clock change can move it off the day.
  return new Date(Date.UTC(year, month - 1, date + days, 12)).toISOString().slice(0, 10);
};

/**
 * The Pacific days of the last `days` days up to and including today, as the first and last day:
 * the bounds of the analytics Query (`Last 7 days` is today and the six days before).
 */
export function counterDayRange(now: Date, days: number): { from: string; to: string } {
  const to = counterDay(now);
  return { from: addDays(to, 1 - Math.max(1, Math.floor(days))), to };
}

export const emptyEmailCounters = (): EmailCounters => Object.fromEntries(EMAIL_COUNTERS.map((name) => [name, 0])) as EmailCounters;
export const emptyDay = (): DayCounters => Object.fromEntries(DAY_COUNTERS.map((name) => [name, 0])) as DayCounters;
export const emptyTotals = (): TotalCounters => Object.fromEntries(TOTAL_COUNTERS.map((name) => [name, 0])) as TotalCounters;

/** What counters read from an email's log (a RecipientRecord's fields). */
export interface LoggedEmail {
  status: string;
  sent_at: string | null;
  opened_at: string | null;
  open_count: number;
  machine_opened_at?: string | null;
  machine_open_count: number;
  clicked_at: string | null;
  click_count: number;
  /** The listen page's (issue 16): when the recipient reached 25 %, first answered; plays and downloads. */
  listened_at?: string | null;
  first_answered_at?: string | null;
  play_count?: number;
  download_count?: number;
}

export interface LoggedUnsubscribe {
  unsubscribed_at: string;
}

/** What entity counters read from a campaign item. */
export interface StoredCampaign {
  status: string;
  created_at: string;
  /** Set by the first queued batch; null or absent on a draft (and on campaigns sent before it was kept). */
  started_sending_at?: string | null;
}

/** What entity counters read from the user's items: how many contacts, and each campaign. */
export interface StoredEntities {
  contacts: number;
  campaigns: Iterable<StoredCampaign>;
}

/**
 * When a campaign counts as sent: the time its first batch was queued (it left draft then); undefined
 * for a draft. A campaign out of draft without `started_sending_at` (written before the first batch
 * kept it) falls back to `created_at`: the earliest it can have been queued, and in practice the same
 * session it was composed in.
 */
export const campaignSentAt = (campaign: StoredCampaign): string | undefined =>
  campaign.status === 'draft' ? undefined : (campaign.started_sending_at ?? campaign.created_at);

export interface CountersFromLogs {
  totals: TotalCounters;
  /** Only days with something on them, by 'YYYY-MM-DD'. */
  days: Map<string, DayCounters>;
}

/**
 * The counters the logs say: every email of the user's campaigns and the user's unsubscribes, and
 * the user's contacts and campaigns (`entities`; none when left out). An email machine-opened before
 * the machine open had a time (logs older than the counters) counts on the day it was sent: proxies
 * open on delivery.
 */
export function countersFromLogs(
  emails: Iterable<LoggedEmail>,
  unsubscribes: Iterable<LoggedUnsubscribe>,
  entities: StoredEntities = { contacts: 0, campaigns: [] },
): CountersFromLogs {
  const totals = emptyTotals();
  const days = new Map<string, DayCounters>();
  const count = (counter: DayCounter, at: string | null | undefined) => {
    if (!at) return;
    totals[counter] += 1;
    const day = counterDay(new Date(at));
    const counters = days.get(day) ?? emptyDay();
    counters[counter] += 1;
    days.set(day, counters);
  };
  for (const email of emails) {
    if (email.status === 'sent') count('emails_sent', email.sent_at);
    if (email.opened_at) count('emails_opened', email.opened_at);
    if (email.machine_open_count > 0) count('emails_machine_opened', email.machine_opened_at ?? email.sent_at);
    if (email.clicked_at) count('emails_clicked', email.clicked_at);
    if (email.listened_at) count('emails_listened', email.listened_at);
    if (email.first_answered_at) count('emails_answered', email.first_answered_at);
    totals.play_count += email.play_count ?? 0;
    totals.download_count += email.download_count ?? 0;
    totals.open_count += email.open_count;
    totals.machine_open_count += email.machine_open_count;
    totals.click_count += email.click_count;
  }
  for (const unsubscribe of unsubscribes) count('emails_unsubscribed', unsubscribe.unsubscribed_at);
  totals.contacts_count = entities.contacts;
  for (const campaign of entities.campaigns) count('campaigns_sent', campaignSentAt(campaign));
  return { totals, days };
}
