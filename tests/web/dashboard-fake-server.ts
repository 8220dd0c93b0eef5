import { vi } from 'vitest';
import type { DashboardStats, RecentSend } from '../../schema/api/insights';
import type { Profile } from '../../schema/api/profile';
import { gatewayMessages } from '../../schema/api/serverMessages';
import { createApiClient } from '../../web/src/api/client';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { noListen } from './analytics-fake-server';
import { json } from './contacts-fake-server';
import { fakePipelineServer } from './pipeline-fake-server';
import { makeFakeAuth, makeProfile, renderApp, testUser } from './helpers';

/**
 * GET /api/dashboard as the dashboard home sees it, with the contract of schema/api/insights.ts. Tests
 * change `stats` (or answer anything with `body`), make it fail with `fail`, or hold the answer back
 * with `hold` to see the loading state.
 */

const BASE = Date.UTC(2025, 2, 10, 17, 0);
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

/** The `i`-th send of campaign `campaign-1`, to Person i, unopened (and its listen page unused) unless overridden. */
export function recentSend(i: number, overrides: Partial<RecentSend> = {}): RecentSend {
  return {
    campaign_id: 'campaign-1',
    position: i,
    track_name: 'Night Drive',
    recipient_name: `Person ${i}`,
    recipient_email: `person${i}@example.com`,
    subject: `Hello Person ${i}`,
    sent_at: at(i),
    opened_at: null,
    clicked_at: null,
    ...noListen,
    ...overrides,
  };
}

export function dashboardStats(overrides: Partial<DashboardStats> = {}): DashboardStats {
  return {
    total_contacts: 42,
    emails_sent: 120,
    emails_opened: 45,
    emails_machine_opened: 7,
    average_open_rate: 38,
    total_campaigns: 6,
    campaigns_this_month: 2,
    emails_this_week: 17,
    recent_sends: [],
    ...overrides,
  };
}

export function fakeDashboardServer(stats: DashboardStats = dashboardStats()) {
  const state: { stats: DashboardStats; body?: unknown; fail: { status: number; message: string } | null; hold?: Promise<void> } = { stats, fail: null };
  /** The to-dos (and the routes marking them done): no answers to act on unless a test gives some. */
  const pipeline = fakePipelineServer();
  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const { pathname } = new URL(input as string, 'http://localhost');
    const method = init?.method ?? 'GET';
    const pipelineAnswer = await pipeline.route(method, pathname, init?.body ? (JSON.parse(init.body as string) as unknown) : undefined);
    if (pipelineAnswer) return pipelineAnswer;
    if ((init?.method ?? 'GET') !== 'GET' || pathname !== '/api/dashboard') return json({ message: gatewayMessages.notFound }, 404);
    await state.hold;
    if (state.fail) return json({ message: state.fail.message }, state.fail.status);
    return json(state.body ?? state.stats);
  });
  const requests = () => fetchImpl.mock.calls.filter(([url]) => new URL(url as string, 'http://localhost').pathname === '/api/dashboard').length;
  const calls = (method: string, path: string) =>
    fetchImpl.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') === method && new URL(url as string, 'http://localhost').pathname === path);
  const bodies = (method: string, path: string) => calls(method, path).map(([, init]) => JSON.parse(init?.body as string) as unknown);
  return { state, pipeline, fetchImpl, requests, calls, bodies };
}

export type DashboardServer = ReturnType<typeof fakeDashboardServer>;

/** The dashboard home for the test user with `profile`, the tour kept closed by its stored flag. */
export function renderDashboard(server: DashboardServer, profile: Partial<Profile> | null = {}, profileError: string | null = null) {
  window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
  const api = createApiClient(() => Promise.resolve('user-id-token'), server.fetchImpl);
  return renderApp('/dashboard', { auth: makeFakeAuth({ user: testUser, profile: profile && makeProfile(profile), profileError, api }) });
}
