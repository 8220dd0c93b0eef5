import { vi } from 'vitest';
import {
  activityQuerySchema,
  analyticsPeriods,
  insightsMessages,
  UPGRADE_FOR_ANALYTICS,
  type Activity,
  type Analytics,
  type AnalyticsCampaign,
  type AnalyticsDay,
  type AnalyticsPeriodId,
  type EmailListen,
  type LinkClicks,
} from '../../schema/api/insights';
import { createApiClient } from '../../web/src/api/client';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { json } from './contacts-fake-server';
import { makeFakeAuth, makeProfile, renderApp, testUser } from './helpers';

/**
 * An in-memory insights API with the contract of schema/api/insights.ts: GET /api/analytics?period=
 * (days zero-filled up to TODAY, basic analytics with nulls beyond opens), a campaign's links, and the
 * period's activity a page at a time with a cursor. Free (depth 'basic') answers the links and activity
 * routes 403 UPGRADE_FOR_ANALYTICS, as the server does. Every request is recorded.
 */

/** The last Pacific day of every period in these tests. */
export const TODAY = '2026-11-26';

/** 'YYYY-MM-DD' `offset` days before TODAY (calendar arithmetic in UTC: no time zone moves it). */
export function dayBefore(offset: number): string {
  const [y, m, d] = TODAY.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - offset)).toISOString().slice(0, 10);
}

export type DayFigures = Omit<AnalyticsDay, 'day'>;
const zeroDay: DayFigures = {
  emails_sent: 0,
  emails_opened: 0,
  emails_machine_opened: 0,
  emails_clicked: 0,
  emails_unsubscribed: 0,
  emails_listened: 0,
  emails_answered: 0,
};

export function analyticsCampaign(id: string, track: string, figures: Partial<AnalyticsCampaign> = {}): AnalyticsCampaign {
  return {
    id,
    track_name: track,
    created_at: '2026-10-01T17:00:00.000Z',
    started_sending_at: '2026-10-01T18:00:00.000Z',
    emails_sent: 0,
    emails_opened: 0,
    emails_machine_opened: 0,
    emails_clicked: 0,
    emails_unsubscribed: 0,
    emails_listened: 0,
    emails_answered: 0,
    open_rate: null,
    click_rate: null,
    by_email: null,
    ...figures,
  };
}

/** An email whose listen page nobody used. */
export const noListen: EmailListen = { listen_max_percent: 0, play_count: 0, download_count: 0, answer: null, answer_note: null };

export function activityRow(i: number, overrides: Partial<Activity> = {}): Activity {
  return {
    campaign_id: 'c-1',
    track_name: 'Midnight Drive',
    position: i,
    recipient_name: `Person ${i}`,
    recipient_email: `person${i}@example.com`,
    sent_at: '2026-11-20T17:00:00.000Z',
    opened_at: '2026-11-20T18:00:00.000Z',
    last_opened_at: '2026-11-21T18:00:00.000Z',
    open_count: 2,
    machine_open_count: 1,
    clicked_at: null,
    last_clicked_at: null,
    click_count: 0,
    ...noListen,
    ...overrides,
  };
}

export interface InsightsData {
  depth: 'basic' | 'full';
  /** Figures of a day `offset` days before TODAY (missing days are zero). */
  days: Record<number, Partial<DayFigures>>;
  campaigns: AnalyticsCampaign[];
  links: Record<string, LinkClicks[]>;
  /** Every email's activity of the period, newest first; 'engaged' keeps those a person opened, clicked or listened to. */
  activity: Activity[];
  activityPageSize: number;
  /** A route answers this failure instead, while set. */
  fail: { analytics?: number; activity?: number; links?: number };
  /** While set, the analytics answer waits for it. */
  holdAnalytics: Promise<void> | null;
  /** While set, the activity's pages after the first wait for it. */
  holdLaterActivity: Promise<void> | null;
}

const basic = <T extends { emails_clicked: number | null; emails_unsubscribed: number | null; emails_listened: number | null; emails_answered: number | null }>(
  value: T,
  depth: InsightsData['depth'],
): T => (depth === 'full' ? value : { ...value, emails_clicked: null, emails_unsubscribed: null, emails_listened: null, emails_answered: null });

/** The analytics answer for `period`, as the server builds it from its day items. */
export function analyticsAnswer(data: InsightsData, period: AnalyticsPeriodId): Analytics {
  const length = analyticsPeriods.find((candidate) => candidate.id === period)!.days;
  const days: AnalyticsDay[] = Array.from({ length }, (_, i) => {
    const offset = length - 1 - i;
    return basic({ day: dayBefore(offset), ...zeroDay, ...data.days[offset] }, data.depth);
  });
  const sum = (figure: keyof DayFigures) => days.reduce((total, day) => total + (day[figure] ?? 0), 0);
  const totals = basic(
    {
      emails_sent: sum('emails_sent'),
      emails_opened: sum('emails_opened'),
      emails_machine_opened: sum('emails_machine_opened'),
      emails_clicked: sum('emails_clicked'),
      emails_unsubscribed: sum('emails_unsubscribed'),
      emails_listened: sum('emails_listened'),
      emails_answered: sum('emails_answered'),
    },
    data.depth,
  );
  const campaigns = data.campaigns.map((campaign) => (data.depth === 'full' ? campaign : { ...basic(campaign, 'basic'), click_rate: null, by_email: null }));
  return { period, from: days[0]!.day, to: TODAY, depth: data.depth, days, totals, campaigns };
}

/** The server's `engaged`: a person opened or clicked, or used the listen page (played, downloaded, answered). */
const engaged = (row: Activity) => row.open_count > 0 || row.click_count > 0 || row.play_count > 0 || row.download_count > 0 || row.answer !== null;

export function fakeInsights(initial: Partial<InsightsData> = {}) {
  const data: InsightsData = {
    depth: 'full',
    days: {},
    campaigns: [],
    links: {},
    activity: [],
    activityPageSize: 200,
    fail: {},
    holdAnalytics: null,
    holdLaterActivity: null,
    ...initial,
  };
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    await Promise.resolve();
    const url = new URL(input as string, 'http://localhost');
    const method = init?.method ?? 'GET';
    if (method !== 'GET') return json({ message: 'Not Found' }, 404);
    if (url.pathname === '/api/analytics') {
      if (data.holdAnalytics) await data.holdAnalytics;
      if (data.fail.analytics) return json({ message: 'Internal error' }, data.fail.analytics);
      const period = analyticsPeriods.find((candidate) => candidate.id === url.searchParams.get('period'));
      if (!period) return json({ message: insightsMessages.badPeriod }, 400);
      return json(analyticsAnswer(data, period.id));
    }
    const upgrade = () => json({ message: insightsMessages.upgradeForAnalytics, code: UPGRADE_FOR_ANALYTICS }, 403);
    const links = /^\/api\/analytics\/campaigns\/([^/]+)\/links$/.exec(url.pathname);
    if (links) {
      if (data.depth !== 'full') return upgrade();
      if (data.fail.links) return json({ message: 'Internal error' }, data.fail.links);
      return json({ links: data.links[decodeURIComponent(links[1]!)] ?? [] });
    }
    if (url.pathname === '/api/analytics/activity') {
      if (data.depth !== 'full') return upgrade();
      const query = activityQuerySchema.safeParse(Object.fromEntries(url.searchParams));
      if (!query.success) return json({ message: query.error.issues[0]?.message ?? 'Invalid' }, 400);
      const rows = query.data.filter === 'all' ? data.activity : data.activity.filter(engaged);
      const start = query.data.cursor === undefined ? 0 : Number(query.data.cursor);
      if (start > 0 && data.holdLaterActivity) await data.holdLaterActivity;
      if (data.fail.activity) return json({ message: 'Internal error' }, data.fail.activity);
      const end = start + data.activityPageSize;
      return json({ activity: rows.slice(start, end), next_cursor: end < rows.length ? String(end) : null });
    }
    return json({ message: 'Not Found' }, 404);
  });

  /** The requests made so far to `pathname`, as their query parameters. */
  const calls = (pathname: string) =>
    fetchImpl.mock.calls
      .map(([input]) => new URL(input as string, 'http://localhost'))
      .filter((url) => url.pathname === pathname)
      .map((url) => Object.fromEntries(url.searchParams));
  const pathsCalled = () => fetchImpl.mock.calls.map(([input]) => new URL(input as string, 'http://localhost').pathname);

  return { data, fetchImpl, calls, pathsCalled, api: createApiClient(() => Promise.resolve('test-token'), fetchImpl) };
}

export type FakeInsights = ReturnType<typeof fakeInsights>;

/** The Analytics page at `path` for the test user (Pro unless `tier` says otherwise), against `server`. */
export function renderAnalytics(server: FakeInsights, { path = '/dashboard/analytics', tier = 'pro' }: { path?: string; tier?: 'free' | 'pro' } = {}) {
  window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
  const profile = tier === 'free' ? makeProfile() : makeProfile({ tier: 'pro', email_limit: 500 });
  const auth = makeFakeAuth({ user: testUser, profile, api: server.api });
  return renderApp(path, { auth });
}
