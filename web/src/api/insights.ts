import {
  activityPageSchema,
  analyticsSchema,
  campaignLinksSchema,
  dashboardStatsSchema,
  type Activity,
  type ActivityFilter,
  type Analytics,
  type AnalyticsPeriodId,
  type DashboardStats,
  type LinkClicks,
} from '../../../schema/api/insights';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/** The insights API (schema/api/insights.ts): the dashboard's figures and the Analytics page's. */

/** GET /api/dashboard: the nine cards' figures beside the profile, and the last 5 sends. */
export function getDashboardStats(api: ApiClient, signal?: AbortSignal): Promise<DashboardStats> {
  return api.request(apiPath('GET /api/dashboard'), { parse: (data) => dashboardStatsSchema.parse(data), signal });
}

/** GET /api/analytics: the period's per-day series, its totals and the campaigns' figures. */
export function getAnalytics(api: ApiClient, period: AnalyticsPeriodId, signal?: AbortSignal): Promise<Analytics> {
  const query = new URLSearchParams({ period });
  return api.request(`${apiPath('GET /api/analytics')}?${query}`, { parse: (data) => analyticsSchema.parse(data), signal });
}

/** GET /api/analytics/campaigns/{id}/links: a campaign's links and their clicks (full analytics; 403 on Free). */
export async function getCampaignLinks(api: ApiClient, campaignId: string, signal?: AbortSignal): Promise<LinkClicks[]> {
  const path = apiPath('GET /api/analytics/campaigns/{id}/links', { id: campaignId });
  return (await api.request(path, { parse: (data) => campaignLinksSchema.parse(data), signal })).links;
}

/**
 * GET /api/analytics/activity: every page of the period's per-recipient activity (full analytics; 403 on
 * Free). `onPage` sees each page as it comes, so a long list shows its progress.
 */
export async function listActivity(
  api: ApiClient,
  {
    period,
    filter,
    signal,
    onPage,
  }: { period: AnalyticsPeriodId; filter: ActivityFilter; signal?: AbortSignal; onPage?: (page: Activity[], more: boolean) => void },
): Promise<Activity[]> {
  const activity: Activity[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ period, filter });
    if (cursor !== null) query.set('cursor', cursor);
    const page = await api.request(`${apiPath('GET /api/analytics/activity')}?${query}`, { parse: (data) => activityPageSchema.parse(data), signal });
    activity.push(...page.activity);
    cursor = page.next_cursor;
    onPage?.(page.activity, cursor !== null);
  } while (cursor !== null);
  return activity;
}
