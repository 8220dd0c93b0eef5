/**
 * The dashboard's and the Analytics page's figures (spec §2, §9; DESIGN §6, §11), from the counter items
 * as read (lambdas/core/counters.ts): which Pacific days a period is, the zero-filled day series and
 * its sums, the rounded rates, the dashboard's week and month, the campaigns listed, and what basic
 * analytics (Free) leaves out. Pure: the insights store reads, this decides.
 */
import type { AnalyticsDepth } from '../../schema/plans';
import type { Analytics, AnalyticsCampaign, AnalyticsDay, DashboardStats, EmailListen, RecentSend } from '../../schema/api/insights';
import { activityFilters, analyticsPeriods, percentOf, WEEKLY_STAT_DAYS, type ActivityFilter, type AnalyticsPeriodId } from '../../schema/api/insightsValues';
import { recipientListen, type StoredRecipientListen } from './listen';
import type { EmailStepFigures } from '../../schema/api/insights';
import {
  counterDay,
  counterDayRange,
  EMAIL_COUNTERS,
  emptyEmailCounters,
  FOLLOW_UP_STEP_NUMBERS,
  stepCounter,
  type EmailCounters,
  type StepCounters,
} from './counters';
import { nextPacificMidnight } from './sendingWindow';

/** A range of Pacific days, 'YYYY-MM-DD', both included. */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * A day item as stored: its email counters and the campaigns first queued that day. Counters an item
 * lacks (written before they existed) read 0.
 */
export type StoredDay = EmailCounters & { day: string; campaigns_sent: number };

/** The totals item's figures the dashboard shows: the email counters, the current contacts and every campaign ever sent (drafts never count). */
export type UserTotals = EmailCounters & { contacts_count: number; campaigns_sent: number };

/**
 * A campaign's own counters as stored on its item (since it started), with its listens and answers per
 * follow-up step (issue 27 §1) and how many steps it has (0: no follow-ups).
 */
export type CampaignCounters = EmailCounters &
  StepCounters &
  Pick<AnalyticsCampaign, 'id' | 'track_name' | 'created_at' | 'started_sending_at'> & { follow_up_steps: number };

// ---- query values --------------------------------------------------------------------------------

export const isAnalyticsPeriod = (value: unknown): value is AnalyticsPeriodId => analyticsPeriods.some((period) => period.id === value);
export const isActivityFilter = (value: unknown): value is ActivityFilter => (activityFilters as readonly unknown[]).includes(value);

// ---- days ----------------------------------------------------------------------------------------

const periodDays = (period: AnalyticsPeriodId): number => analyticsPeriods.find((p) => p.id === period)?.days ?? 1;

/** The period's Pacific days: whole days ending today, today included ('Last 7 days' is today and the six before). */
export const periodRange = (period: AnalyticsPeriodId, now: Date): DayRange => counterDayRange(now, periodDays(period));

const utcNoon = (day: string): number => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, date, 12);
};

/** The first instant of a Pacific day (07:00 or 08:00 UTC, DST-correct): where a period's sends start. */
export function pacificDayStart(day: string): Date {
  // Noon UTC of the day before is still that day in Los Angeles (UTC-7/-8): its next midnight is the day's start.
  return nextPacificMidnight(new Date(utcNoon(day) - 86_400_000));
}

/** Every calendar day from `from` to `to`, both included, in order. */
export function daysOf({ from, to }: DayRange): string[] {
  const days: string[] = [];
  // Calendar arithmetic on UTC noon: no clock change moves it off its day.
  for (let at = utcNoon(from); at <= utcNoon(to); at += 86_400_000) days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

/** The days to read for the dashboard: this Pacific month and the last 7 days (the week may reach into last month). */
export function dashboardDayRange(now: Date): DayRange {
  const week = counterDayRange(now, WEEKLY_STAT_DAYS);
  const monthStart = `${week.to.slice(0, 7)}-01`;
  return { from: monthStart < week.from ? monthStart : week.from, to: week.to };
}

// ---- per email -----------------------------------------------------------------------------------

/**
 * The times on a sent email (its RCPT item) that say a person did something with it: opened (a person,
 * not a machine), clicked, used its listen page (a play, a milestone or a download sets
 * last_listened_at) or answered there. The activity's `engaged` filter keeps an email with any of
 * them: a recipient who listened or answered surely read the email, even with its images (and so the
 * open pixel) blocked.
 */
export const ENGAGEMENT_TIMES = ['opened_at', 'clicked_at', 'last_listened_at', 'answered_at'] as const;

/**
 * What the artist sees of an email's listen page in the insights: the listen attributes as the one
 * reader (core recipientListen) reads them, the milestone, plays, downloads and the answer with its note.
 */
export function emailListen(stored: StoredRecipientListen): EmailListen {
  const { listen_max_percent, play_count, download_count, answer, answer_note } = recipientListen(stored);
  return { listen_max_percent, play_count, download_count, answer, answer_note };
}

// ---- figures -------------------------------------------------------------------------------------

/** The period's days, every one of them, each with its counters (zero on a day nothing happened). */
export function daySeries(range: DayRange, stored: readonly StoredDay[]): (EmailCounters & { day: string })[] {
  const byDay = new Map(stored.map((item) => [item.day, item]));
  return daysOf(range).map((day) => {
    const item = byDay.get(day);
    const counters = emptyEmailCounters();
    for (const name of EMAIL_COUNTERS) counters[name] = item?.[name] ?? 0;
    return { day, ...counters };
  });
}

/** The sums of the days' email counters. */
export function sumDays(days: readonly EmailCounters[]): EmailCounters {
  const totals = emptyEmailCounters();
  for (const day of days) for (const name of EMAIL_COUNTERS) totals[name] += day[name];
  return totals;
}

/** The dashboard's figures (all but the recent sends) from the totals item and the day items of dashboardDayRange. */
export function dashboardFigures(totals: UserTotals, days: readonly StoredDay[], now: Date): Omit<DashboardStats, 'recent_sends'> {
  const week = counterDayRange(now, WEEKLY_STAT_DAYS);
  const month = counterDay(now).slice(0, 7);
  const inWeek = days.filter((item) => item.day >= week.from && item.day <= week.to);
  const inMonth = days.filter((item) => item.day.startsWith(`${month}-`));
  return {
    // Never below 0: a count an account had before its counters (until counters:rebuild runs), or a known bulk-write race, can be short.
    total_contacts: Math.max(0, totals.contacts_count),
    emails_sent: totals.emails_sent,
    emails_opened: totals.emails_opened,
    emails_machine_opened: totals.emails_machine_opened,
    average_open_rate: percentOf(totals.emails_opened, totals.emails_sent),
    total_campaigns: Math.max(0, totals.campaigns_sent),
    campaigns_this_month: inMonth.reduce((sum, item) => sum + item.campaigns_sent, 0),
    emails_this_week: inWeek.reduce((sum, item) => sum + item.emails_sent, 0),
  };
}

export const dashboardStats = (totals: UserTotals, days: readonly StoredDay[], recentSends: RecentSend[], now: Date): DashboardStats => ({
  ...dashboardFigures(totals, days, now),
  recent_sends: recentSends,
});

/** What basic analytics (Free) shows of a day's counters: opens only, clicks and unsubscribes null (not sent at all). */
export function maskedCounters(counters: EmailCounters, depth: AnalyticsDepth): Omit<AnalyticsDay, 'day'> {
  const full = depth === 'full';
  return {
    emails_sent: counters.emails_sent,
    emails_opened: counters.emails_opened,
    emails_machine_opened: counters.emails_machine_opened,
    emails_clicked: full ? counters.emails_clicked : null,
    emails_unsubscribed: full ? counters.emails_unsubscribed : null,
    emails_listened: full ? counters.emails_listened : null,
    emails_answered: full ? counters.emails_answered : null,
  };
}

/** The campaigns Analytics lists: those that sent anything, newest first (ULID ids sort by creation). */
export function listedCampaigns<C extends Pick<CampaignCounters, 'id' | 'created_at' | 'emails_sent'>>(campaigns: readonly C[]): C[] {
  return campaigns
    .filter((campaign) => campaign.emails_sent > 0)
    .sort((a, b) => (a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at)));
}

/**
 * A campaign with follow-ups: its listens and answers by the email whose link brought them (issue 27 §1),
 * the first email's being the campaign's less its steps' (never below 0). Null without follow-ups.
 */
export function figuresByEmail(campaign: CampaignCounters): EmailStepFigures[] | null {
  if (campaign.follow_up_steps <= 0) return null;
  const steps = FOLLOW_UP_STEP_NUMBERS.filter((step) => step <= campaign.follow_up_steps).map((step) => ({
    step,
    emails_listened: campaign[stepCounter('emails_listened', step)],
    emails_answered: campaign[stepCounter('emails_answered', step)],
  }));
  const rest = (counter: 'emails_listened' | 'emails_answered') => Math.max(0, campaign[counter] - steps.reduce((sum, step) => sum + step[counter], 0));
  return [{ step: 0, emails_listened: rest('emails_listened'), emails_answered: rest('emails_answered') }, ...steps];
}

export function analyticsCampaign(campaign: CampaignCounters, depth: AnalyticsDepth): AnalyticsCampaign {
  return {
    id: campaign.id,
    track_name: campaign.track_name,
    created_at: campaign.created_at,
    started_sending_at: campaign.started_sending_at,
    ...maskedCounters(campaign, depth),
    open_rate: percentOf(campaign.emails_opened, campaign.emails_sent),
    click_rate: depth === 'full' ? percentOf(campaign.emails_clicked, campaign.emails_sent) : null,
    by_email: depth === 'full' ? figuresByEmail(campaign) : null,
  };
}

/** GET /api/analytics's answer from the period's day items and the user's campaign items. */
export function analyticsAnswer(input: {
  period: AnalyticsPeriodId;
  now: Date;
  depth: AnalyticsDepth;
  days: readonly StoredDay[];
  campaigns: readonly CampaignCounters[];
}): Analytics {
  const range = periodRange(input.period, input.now);
  const series = daySeries(range, input.days);
  return {
    period: input.period,
    from: range.from,
    to: range.to,
    depth: input.depth,
    days: series.map(({ day, ...counters }) => ({ day, ...maskedCounters(counters, input.depth) })),
    totals: maskedCounters(sumDays(series), input.depth),
    campaigns: listedCampaigns(input.campaigns).map((campaign) => analyticsCampaign(campaign, input.depth)),
  };
}
