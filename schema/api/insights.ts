import * as z from 'zod';
import { activityFilters, analyticsPeriodIds } from './insightsValues';
import { campaignEmailSchema } from './sending';

export * from './insightsValues';

/**
 * The insights routes' answers (spec §2 Dashboard home and Analytics; DESIGN §6, §11). Every figure
 * comes from the counters written with each event (lambdas/core/counters.ts), never from a scan of the
 * logs. "Opened" is always a person's open; machine opens are their own figure.
 */

const count = z.number().int().min(0);

/**
 * What a recipient did on the email's listen page (issue 16), as the campaign's sent emails show it:
 * the furthest milestone (0/25/50/75/100), plays, downloads and the current answer with its note.
 */
export const emailListenSchema = campaignEmailSchema.pick({
  listen_max_percent: true,
  play_count: true,
  download_count: true,
  answer: true,
  answer_note: true,
});
export type EmailListen = z.infer<typeof emailListenSchema>;

// ---------------------------------------------------------------------------------------------------
// GET /api/dashboard: the dashboard home's figures beside the profile (the shell already holds the plan,
// emails used this month and the mailbox): ≤ 5 reads with the profile, whatever the history.

export const recentSendSchema = z.object({
  campaign_id: z.string(),
  position: z.number().int(),
  track_name: z.string(),
  recipient_name: z.string().nullable(),
  recipient_email: z.string(),
  subject: z.string().nullable(),
  sent_at: z.string(),
  opened_at: z.string().nullable(),
  clicked_at: z.string().nullable(),
  /** The listen page: the dashboard shows an answer or a listen before a click or an open. */
  ...emailListenSchema.shape,
});
export type RecentSend = z.infer<typeof recentSendSchema>;

export const dashboardStatsSchema = z.object({
  total_contacts: count,
  /** Every email sent, all time. */
  emails_sent: count,
  /** Emails a person opened, all time (each email once). */
  emails_opened: count,
  emails_machine_opened: count,
  /** Spec §9: opened ÷ sent across campaigns, rounded percent (people only); null before the first send. */
  average_open_rate: z.number().int().min(0).max(100).nullable(),
  total_campaigns: count,
  /** Campaigns created in this Pacific month. */
  campaigns_this_month: count,
  /** Emails sent in the last 7 Pacific days, today included. */
  emails_this_week: count,
  /** The last 5 sends, newest first. */
  recent_sends: z.array(recentSendSchema),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

// ---------------------------------------------------------------------------------------------------
// GET /api/analytics?period=7d|30d|3m|1y: one Query of the period's day items plus the campaign summaries.

export const analyticsDepths = ['basic', 'full'] as const;

/**
 * One Pacific day of the period (every day is there, zero-filled). On basic analytics (Free) the
 * figures beyond opens are null: the server does not send what the plan does not include.
 */
export const analyticsDaySchema = z.object({
  day: z.string(),
  emails_sent: count,
  emails_opened: count,
  emails_machine_opened: count,
  emails_clicked: count.nullable(),
  emails_unsubscribed: count.nullable(),
  /** Issue 16: recipients who reached 25 % on their listen page, and who answered (full analytics only). */
  emails_listened: count.nullable(),
  emails_answered: count.nullable(),
});
export type AnalyticsDay = z.infer<typeof analyticsDaySchema>;

/**
 * Issue 27 §1: one email of a campaign with follow-ups (step 0 the first email, then each step) and the
 * recipients whose listen (25 %) or answer came through its link.
 */
export const emailStepFiguresSchema = z.object({
  step: z.number().int().min(0),
  emails_listened: count,
  emails_answered: count,
});
export type EmailStepFigures = z.infer<typeof emailStepFiguresSchema>;

/** A campaign's own counters (since it started), for the campaigns that sent anything. */
export const analyticsCampaignSchema = z.object({
  id: z.string(),
  track_name: z.string(),
  created_at: z.string(),
  started_sending_at: z.string().nullable(),
  emails_sent: count,
  emails_opened: count,
  emails_machine_opened: count,
  emails_clicked: count.nullable(),
  emails_unsubscribed: count.nullable(),
  emails_listened: count.nullable(),
  emails_answered: count.nullable(),
  /** Rounded percents of emails_sent (people only); null when nothing was sent or on basic analytics (click rate). */
  open_rate: z.number().int().min(0).max(100).nullable(),
  click_rate: z.number().int().min(0).max(100).nullable(),
  /** A campaign with follow-ups (full analytics only): its listens and answers by email, the first then each step; null otherwise. */
  by_email: z.array(emailStepFiguresSchema).nullable(),
});
export type AnalyticsCampaign = z.infer<typeof analyticsCampaignSchema>;

export const analyticsSchema = z.object({
  period: z.enum(analyticsPeriodIds),
  /** The period's first and last Pacific day, 'YYYY-MM-DD', both included. */
  from: z.string(),
  to: z.string(),
  depth: z.enum(analyticsDepths),
  days: z.array(analyticsDaySchema),
  /** The period's sums of `days` (the funnel). */
  totals: analyticsDaySchema.omit({ day: true }),
  campaigns: z.array(analyticsCampaignSchema),
});
export type Analytics = z.infer<typeof analyticsSchema>;

// ---------------------------------------------------------------------------------------------------
// GET /api/analytics/campaigns/{id}/links: a campaign's links and their clicks (full analytics only).

export const linkClicksSchema = z.object({ index: z.number().int(), url: z.string(), click_count: count });
export const campaignLinksSchema = z.object({ links: z.array(linkClicksSchema) });
export type LinkClicks = z.infer<typeof linkClicksSchema>;

// ---------------------------------------------------------------------------------------------------
// GET /api/analytics/activity?period=&filter=engaged|all&cursor=: per-recipient activity of the emails
// sent in the period, newest first, a page at a time (full analytics only). `engaged`: a person opened,
// clicked, played, downloaded or answered (lambdas/core/insights.ts ENGAGEMENT_TIMES).

export const activitySchema = z.object({
  campaign_id: z.string(),
  track_name: z.string(),
  position: z.number().int(),
  recipient_name: z.string().nullable(),
  recipient_email: z.string(),
  sent_at: z.string(),
  opened_at: z.string().nullable(),
  last_opened_at: z.string().nullable(),
  open_count: count,
  machine_open_count: count,
  clicked_at: z.string().nullable(),
  last_clicked_at: z.string().nullable(),
  click_count: count,
  ...emailListenSchema.shape,
});
export type Activity = z.infer<typeof activitySchema>;
export const activityPageSchema = z.object({
  activity: z.array(activitySchema),
  /** Pass back as `cursor` for the next page; null on the last. */
  next_cursor: z.string().nullable(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;
export const activityQuerySchema = z.object({
  period: z.enum(analyticsPeriodIds),
  filter: z.enum(activityFilters).default('engaged'),
  cursor: z.string().max(2000).optional(),
});
