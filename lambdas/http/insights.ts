/**
 * The dashboard's figures and the Analytics page (spec §2, §9; DESIGN §6, §11): reads of the counters,
 * the recent sends and the per-recipient activity, never a scan of the logs. The user id comes only
 * from the verified token; a campaign id is looked up under the caller's partition, so another user's
 * is the same 404 as a missing one. Basic analytics (Free) answers opens only: /analytics with the rest
 * null, /activity and /links a 403 with UPGRADE_FOR_ANALYTICS. No zod here: the query's three values
 * are checked by hand, so a container never loads a schema.
 */
import { campaignMessages } from '../../schema/api/sendingValues';
import { insightsMessages, UPGRADE_FOR_ANALYTICS, type ActivityFilter, type AnalyticsPeriodId } from '../../schema/api/insightsValues';
import type { ActivityPage } from '../../schema/api/insights';
import type { AnalyticsDepth } from '../../schema/plans';
import { isUlid } from '../core/ids';
import { analyticsAnswer, dashboardDayRange, dashboardStats, isActivityFilter, isAnalyticsPeriod, pacificDayStart, periodRange } from '../core/insights';
import { analyticsDepthOf } from '../core/plans';
import type { Clock, InsightsStore, ProfileStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { insightsDeps } from '../composition/insights';
import { HttpError, httpApi, json, knownId, lazyHandler } from './api';

export interface InsightsDeps {
  insights: InsightsStore;
  /** The tier decides the analytics depth (one GetItem); no profile yet reads as Free. */
  profiles: Pick<ProfileStore, 'get'>;
  clock: Clock;
}

/** The longest cursor the API hands out is far shorter (a base64url sort key). */
const CURSOR_MAX_LENGTH = 2000;

function periodOf(query: Record<string, string>): AnalyticsPeriodId {
  if (!isAnalyticsPeriod(query.period)) throw new HttpError(400, insightsMessages.badPeriod);
  return query.period;
}

function filterOf(query: Record<string, string>): ActivityFilter {
  const filter = query.filter ?? 'engaged';
  if (!isActivityFilter(filter)) throw new HttpError(400, insightsMessages.badFilter);
  return filter;
}

export const makeHandler = ({ insights, profiles, clock }: InsightsDeps) => {
  const depthOf = async (userId: string): Promise<AnalyticsDepth> => analyticsDepthOf((await profiles.get(userId))?.tier ?? 'free');

  /** The routes beyond opens: full analytics only. */
  const requireFullAnalytics = async (userId: string) => {
    if ((await depthOf(userId)) !== 'full') throw new HttpError(403, insightsMessages.upgradeForAnalytics, UPGRADE_FOR_ANALYTICS);
  };

  return httpApi('insights', {
    'GET /api/dashboard': async ({ identity }) => {
      const now = clock.now();
      const read = await insights.dashboard(identity.userId, dashboardDayRange(now));
      return json(200, dashboardStats(read.totals, read.days, read.recentSends, now));
    },

    'GET /api/analytics': async ({ identity, query }) => {
      const period = periodOf(query);
      const now = clock.now();
      const [depth, read] = await Promise.all([depthOf(identity.userId), insights.analytics(identity.userId, periodRange(period, now))]);
      return json(200, analyticsAnswer({ period, now, depth, days: read.days, campaigns: read.campaigns }));
    },

    'GET /api/analytics/activity': async ({ identity, query }) => {
      const period = periodOf(query);
      const filter = filterOf(query);
      const cursor = query.cursor;
      if (cursor !== undefined && (cursor === '' || cursor.length > CURSOR_MAX_LENGTH)) throw new HttpError(400, insightsMessages.badCursor);
      await requireFullAnalytics(identity.userId);
      const since = pacificDayStart(periodRange(period, clock.now()).from);
      const page = await insights.activity(identity.userId, { since, filter, ...(cursor === undefined ? {} : { cursor }) });
      if (page.outcome === 'bad_cursor') throw new HttpError(400, insightsMessages.badCursor);
      return json(200, { activity: page.activity, next_cursor: page.nextCursor } satisfies ActivityPage);
    },

    'GET /api/analytics/campaigns/{id}/links': async ({ identity, params }) => {
      const campaignId = knownId(params.id, isUlid, campaignMessages.notFound);
      await requireFullAnalytics(identity.userId);
      const links = await insights.campaignLinks(identity.userId, campaignId);
      if (!links) throw new HttpError(404, campaignMessages.notFound);
      return json(200, { links });
    },
  });
};

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(insightsDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
