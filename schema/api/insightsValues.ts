/**
 * The dashboard's and the Analytics page's values and texts (spec §2 Dashboard home, Analytics; §9
 * weekly window, recent sends; DESIGN §6, §11): free of zod, so the insights Lambda answers without
 * loading a schema. insights.ts re-exports them.
 */

/** Spec §9: Emails This Week counts the last 7 days (today and the six Pacific days before). */
export const WEEKLY_STAT_DAYS = 7;

/** Spec §9: the dashboard lists the last 5 sends. */
export const RECENT_SENDS = 5;

/**
 * Spec §2 Analytics' period selector, in its order. A period is whole Pacific days ending today (today
 * included): 'Last year' is 365 days, so a year of analytics is one Query of ≤ 366 day items.
 */
export const analyticsPeriods = [
  { id: '7d', label: 'Last 7 days', days: 7 },
  { id: '30d', label: 'Last 30 days', days: 30 },
  { id: '3m', label: 'Last 3 months', days: 90 },
  { id: '1y', label: 'Last year', days: 365 },
] as const;
export type AnalyticsPeriodId = (typeof analyticsPeriods)[number]['id'];
export const analyticsPeriodIds = analyticsPeriods.map((period) => period.id) as [AnalyticsPeriodId, ...AnalyticsPeriodId[]];
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriodId = '30d';

/**
 * Spec §9: part ÷ whole as a rounded percent (1/3 → 33, 2/3 → 67), at most 100; null when the whole is 0.
 * The server's rates and the web's funnel both use it, so one figure never reads two ways.
 */
export function percentOf(part: number, whole: number): number | null {
  if (whole <= 0) return null;
  // part × 100 first: an exact half (1/8 → 12.5) stays exact, so it rounds up as it should.
  return Math.min(100, Math.round((part * 100) / whole));
}

/** Issue 27 §1: which email of a campaign a figure belongs to, as Analytics names it (0: the first email). */
export const emailStepLabel = (step: number) => (step === 0 ? 'First email' : `Follow-up ${step}`);

/** Per-recipient activity: one page of the emails sent in the period, newest first. */
export const ACTIVITY_PAGE_SIZE = 200;
/** engaged: a person opened, clicked or used the listen page (machine opens alone do not count); all: every email sent. */
export const activityFilters = ['engaged', 'all'] as const;
export type ActivityFilter = (typeof activityFilters)[number];

export const insightsMessages = {
  dashboardFailed: 'Failed to load dashboard statistics.',
  analyticsFailed: 'Failed to load analytics.',
  exportFailed: 'Failed to export analytics. Please try again.',
  badPeriod: `Choose a period: ${analyticsPeriods.map((period) => period.id).join(', ')}.`,
  badFilter: `Choose a filter: ${activityFilters.join(', ')}.`,
  badCursor: 'This page of activity is no longer valid. Please reload.',
  /** Free (basic analytics): the routes beyond opens answer 403 with this, code UPGRADE_FOR_ANALYTICS. */
  upgradeForAnalytics: 'Clicks, unsubscribes, links and per-recipient activity are part of advanced analytics. Upgrade to Pro to see them.',
  /** DESIGN §6: why machine opens are apart. */
  machineOpensWhy:
    'Mail privacy proxies (such as Apple Mail Privacy Protection) and link scanners open every email on delivery, so these opens say nothing about a person. Open rates count people only.',
  empty: 'No emails sent yet',
  emptyDetail: 'Send your first campaign and its opens, clicks and unsubscribes will appear here.',
} as const;
export const UPGRADE_FOR_ANALYTICS = 'UPGRADE_FOR_ANALYTICS';
