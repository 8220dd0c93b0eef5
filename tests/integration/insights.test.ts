/**
 * The insights routes (lambdas/http/insights.ts) on DynamoDB Local, over events written by the real
 * pipeline: emails sent by the sender handler, opens, clicks and unsubscribes recorded by the tracking
 * store. Every dashboard figure and analytics number is checked against what happened; Free answers
 * opens only (403 beyond); another user's campaign or cursor shows nothing of theirs; bad query values
 * are a 400; activity pages through a filter; days are Pacific days. Listens and answers (issue 16) are
 * recorded by the listen store as the listen page reports them, and show on the activity and the
 * recent sends.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { statsDayKey, statsTotalsKey } from '../../lambdas/adapters/dynamodb/counters';
import { readCounters, rebuildCounters } from '../../lambdas/adapters/dynamodb/countersBackfill';
import { DynamoInsightsStore, type InsightsStoreOptions } from '../../lambdas/adapters/dynamodb/insightsStore';
import { DynamoListenStore } from '../../lambdas/adapters/dynamodb/listenStore';
import { DynamoProfileStore } from '../../lambdas/adapters/dynamodb/profileStore';
import { DynamoTrackingStore } from '../../lambdas/adapters/dynamodb/trackingStore';
import { makeHandler } from '../../lambdas/http/insights';
import type { Campaign } from '../../schema/api/campaigns';
import { SEND_BATCH_SIZE } from '../../schema/api/sendingValues';
import {
  activityPageSchema,
  analyticsSchema,
  campaignLinksSchema,
  dashboardStatsSchema,
  insightsMessages,
  UPGRADE_FOR_ANALYTICS,
  type Activity,
} from '../../schema/api/insights';
import type { RouteKey } from '../../schema/routes';
import { key } from '../../schema/table';
import { buildApiEvent, makeLambdaContext } from '../../lib/local/event';
import type { EmailToken } from '../../lambdas/ports';
import { call, createUser } from './helpers';
import { contactFor, countingClient, sendingWorld, type SendingWorld } from './sendingFixtures';

const NOW = new Date('2026-11-21T18:00:00.000Z'); // 10:00 PST on Nov 21
const MINUTE = 60_000;

interface Answer {
  status: number;
  json: unknown;
}

/** The insights handler over the world's table, its clock and (optionally) a counting client. */
function insightsApi(world: SendingWorld, options: InsightsStoreOptions & { db?: SendingWorld['db'] } = {}) {
  const db = options.db ?? world.db;
  const handler = makeHandler({
    insights: new DynamoInsightsStore(db, world.tableName, options),
    profiles: new DynamoProfileStore(db, world.tableName),
    clock: { now: () => world.now },
  });
  /** GET `routeKey` as the user `userId` (the verified token's sub) with these path params and query. */
  return async (
    routeKey: RouteKey,
    { userId = world.userId, params = {}, query = {} }: { userId?: string; params?: Record<string, string>; query?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const path = routeKey.slice('GET '.length);
    const search = new URLSearchParams(query).toString();
    const url = `${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))}${search ? `?${search}` : ''}`;
    const event = buildApiEvent({
      method: 'GET',
      url,
      headers: {},
      body: undefined,
      sourceIp: '127.0.0.1',
      route: { method: 'GET', path },
      pathParameters: params,
      claims: { sub: userId, email: `${userId}@artist.test`, token_use: 'id' },
      requestId: 'insights-test',
      now: world.now,
    });
    const result = (await handler(event, makeLambdaContext({ functionName: 'insights', awsRequestId: 'r', region: 'us-east-1', timeoutMs: 10_000 }))) as {
      statusCode: number;
      body: string;
    };
    return { status: result.statusCode, json: JSON.parse(result.body) as unknown };
  };
}

/** A campaign of `n` recipients sent through the pipeline from the world's clock on (one a minute); each email's token. */
async function sendCampaign(world: SendingWorld, n: number, trackName: string): Promise<{ campaign: Campaign; tokens: EmailToken[] }> {
  const campaign = await world.draft(n, { track_name: trackName });
  await world.queue(
    campaign,
    Array.from({ length: n }, (_, i) => contactFor(world.userId, i + 1)),
  );
  await world.runUntilIdle(n + 5);
  const tracking = new DynamoTrackingStore(world.db, world.tableName);
  const recipients = (await world.recipients(campaign.id)).sort((a, b) => a.position - b.position);
  const tokens = await Promise.all(recipients.map(async (recipient) => (await tracking.getToken(recipient.token!))!));
  return { campaign, tokens };
}

const tracking = (world: SendingWorld) => new DynamoTrackingStore(world.db, world.tableName);

/** Contacts and earlier sent campaigns on the counters, as their writers keep them (contact-counters.test.ts, below), without making them one by one. */
async function addUserCounters(world: SendingWorld, { contacts, campaigns, days }: { contacts: number; campaigns: number; days: Record<string, number> }) {
  await world.db.send(
    new UpdateCommand({
      TableName: world.tableName,
      Key: statsTotalsKey(world.userId),
      UpdateExpression: 'ADD contacts_count :contacts, campaigns_sent :campaigns',
      ExpressionAttributeValues: { ':contacts': contacts, ':campaigns': campaigns },
    }),
  );
  for (const [day, sent] of Object.entries(days)) {
    await world.db.send(
      new UpdateCommand({
        TableName: world.tableName,
        Key: statsDayKey(world.userId, day),
        UpdateExpression: 'SET #day = :day ADD campaigns_sent :n',
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: { ':day': day, ':n': sent },
      }),
    );
  }
}

/**
 * One account's history: "Early Bird" (3 emails) sent on Nov 12, 9 days before now; "Night Shift"
 * (3 emails) sent on Nov 21. Then a person opens Night Shift's first email (twice), a privacy proxy
 * opens its second, its third is clicked (link 0 twice, link 1 once) and its second unsubscribes;
 * Early Bird's first email is opened by a person on Nov 21.
 */
async function historyWorld(tier: 'free' | 'pro') {
  const world = await sendingWorld({ start: new Date('2026-11-12T18:00:00.000Z'), profile: { tier } });
  const early = await sendCampaign(world, 3, 'Early Bird');
  world.now = NOW;
  const night = await sendCampaign(world, 3, 'Night Shift');
  const later = new Date(NOW.getTime() + 10 * MINUTE);
  const [n0, n1, n2] = night.tokens as [EmailToken, EmailToken, EmailToken];
  await tracking(world).recordOpen(n0, 'human', later);
  await tracking(world).recordOpen(n0, 'human', later);
  await tracking(world).recordOpen(n1, 'machine', later);
  await tracking(world).recordClick(n2, 0, later);
  await tracking(world).recordClick(n2, 0, later);
  await tracking(world).recordClick(n2, 1, later);
  await tracking(world).unsubscribe(n1, { reason: null, details: null }, later);
  await tracking(world).recordOpen(early.tokens[0]!, 'human', later);
  world.now = new Date(later.getTime() + MINUTE);
  return { world, early, night };
}

describe('GET /api/dashboard', () => {
  it('answers every figure from the counters, the last 5 sends newest first with their track names, in ≤ 4 reads', async () => {
    const { world, early, night } = await historyWorld('free');
    // The two campaigns above counted themselves (Nov 12, Nov 21); three more from before, one of them this month.
    await addUserCounters(world, { contacts: 12, campaigns: 3, days: { '2026-10-30': 1, '2026-11-21': 1 } });
    const counting = countingClient();
    const get = insightsApi(world, { db: counting.db });

    const answer = await get('GET /api/dashboard');
    expect(answer.status).toBe(200);
    const stats = dashboardStatsSchema.parse(answer.json);
    expect(counting.total()).toBeLessThanOrEqual(4);
    const { recent_sends, ...figures } = stats;
    expect(figures).toEqual({
      total_contacts: 12,
      emails_sent: 6,
      emails_opened: 2,
      emails_machine_opened: 1,
      average_open_rate: 33, // 2 of 6 opened by a person; the machine open is not one
      total_campaigns: 5,
      campaigns_this_month: 3, // Nov 12 and Nov 21, not Oct 30
      emails_this_week: 3, // Nov 15–21: Night Shift only
    });
    expect(recent_sends.map((send) => [send.track_name, send.campaign_id, send.position])).toEqual([
      ['Night Shift', night.campaign.id, 2],
      ['Night Shift', night.campaign.id, 1],
      ['Night Shift', night.campaign.id, 0],
      ['Early Bird', early.campaign.id, 2],
      ['Early Bird', early.campaign.id, 1],
    ]);
    const [clicked, machineOpened, opened] = recent_sends;
    expect(opened).toMatchObject({ opened_at: '2026-11-21T18:10:00.000Z', clicked_at: null, recipient_name: 'Recipient 1' });
    expect(machineOpened).toMatchObject({ opened_at: null, clicked_at: null });
    expect(clicked).toMatchObject({ opened_at: null, clicked_at: '2026-11-21T18:10:00.000Z' });
    expect(opened!.subject).toEqual(expect.any(String));
    expect(opened!.recipient_email).toMatch(/^rcpt1-.*@label\.test$/);
  });

  it('shows zeros and no rate before the first send, and only the caller’s own sends', async () => {
    const { world: other } = await historyWorld('pro');
    const world = await sendingWorld({ start: NOW });
    const stats = dashboardStatsSchema.parse((await insightsApi(world)('GET /api/dashboard')).json);
    expect(stats).toEqual({
      total_contacts: 0,
      emails_sent: 0,
      emails_opened: 0,
      emails_machine_opened: 0,
      average_open_rate: null,
      total_campaigns: 0,
      campaigns_this_month: 0,
      emails_this_week: 0,
      recent_sends: [],
    });
    expect(other.userId).not.toBe(world.userId);
  });
});

describe('Total Campaigns and Campaigns This Month count sent campaigns, never drafts (issue 25)', () => {
  /** The two figures as the dashboard answers them. */
  const campaignFigures = async (world: SendingWorld) => {
    const { total_campaigns, campaigns_this_month } = dashboardStatsSchema.parse((await insightsApi(world)('GET /api/dashboard')).json);
    return { total_campaigns, campaigns_this_month };
  };
  const firstBatch = (world: SendingWorld, campaign: Campaign, total: number, sendAfter = world.now) =>
    world.sendQueue.queueBatch(world.userId, {
      campaignId: campaign.id,
      batchStart: 0,
      total,
      contacts: Array.from({ length: Math.min(SEND_BATCH_SIZE, total) }, (_, i) => contactFor(world.userId, i + 1)),
      sendAfter,
      now: world.now,
    });

  /** As before the counters (or after the rename): no counter items; the backfill must give the same figures and counters. */
  async function expectBackfillAgrees(world: SendingWorld) {
    const live = await readCounters(world.db, world.tableName, world.userId);
    const figures = await campaignFigures(world);
    await world.db.send(new DeleteCommand({ TableName: world.tableName, Key: statsTotalsKey(world.userId) }));
    for (const day of live.days.keys()) await world.db.send(new DeleteCommand({ TableName: world.tableName, Key: statsDayKey(world.userId, day) }));
    expect(await campaignFigures(world)).toEqual({ total_campaigns: 0, campaigns_this_month: 0 });
    expect(await rebuildCounters(world.db, world.tableName, world.userId)).toEqual(live);
    expect(await readCounters(world.db, world.tableName, world.userId)).toEqual(live);
    expect(await campaignFigures(world)).toEqual(figures);
  }

  it('drafts created and deleted count nothing; the first batch counts the campaign once, on the Pacific day it was queued; later and retried batches do not', async () => {
    // Composed on Oct 31 (PDT), sent on Nov 21: a campaign of this month.
    const world = await sendingWorld({ start: new Date('2026-10-31T18:00:00.000Z') });
    const campaign = await world.draft(SEND_BATCH_SIZE + 50);
    const deleted = await Promise.all([world.draft(1), world.draft(2)]);
    for (const draft of deleted) expect(await world.campaigns.deleteDraft(world.userId, draft.id)).toEqual({ outcome: 'deleted' });
    expect(await campaignFigures(world)).toEqual({ total_campaigns: 0, campaigns_this_month: 0 });

    world.now = NOW;
    expect(await firstBatch(world, campaign, SEND_BATCH_SIZE + 50)).toMatchObject({ outcome: 'queued', campaign: { status: 'sending' } });
    const counted = { total_campaigns: 1, campaigns_this_month: 1 };
    expect(await campaignFigures(world)).toEqual(counted);
    const { totals, days } = await readCounters(world.db, world.tableName, world.userId);
    expect(totals.campaigns_sent).toBe(1);
    expect([...days].map(([day, counters]) => [day, counters.campaigns_sent])).toEqual([['2026-11-21', 1]]);

    // The same first batch again (a retry after a lost answer), then the second batch and its retry.
    expect(await firstBatch(world, campaign, SEND_BATCH_SIZE + 50)).toMatchObject({ outcome: 'already_queued' });
    const second = {
      campaignId: campaign.id,
      batchStart: SEND_BATCH_SIZE,
      total: SEND_BATCH_SIZE + 50,
      contacts: Array.from({ length: 50 }, (_, i) => contactFor(world.userId, SEND_BATCH_SIZE + i + 1)),
      sendAfter: world.now,
      now: world.now,
    };
    expect(await world.sendQueue.queueBatch(world.userId, second)).toMatchObject({ outcome: 'queued', queued: 50 });
    expect(await world.sendQueue.queueBatch(world.userId, second)).toMatchObject({ outcome: 'already_queued' });
    expect(await campaignFigures(world)).toEqual(counted);
    await expectBackfillAgrees(world);
  });

  it('two concurrent first batches of one draft count it once; a scheduled campaign counts on the day it was queued', async () => {
    const world = await sendingWorld({ start: NOW });
    const campaign = await world.draft(2);
    const outcomes = (await Promise.all([firstBatch(world, campaign, 2), firstBatch(world, campaign, 2)])).map((result) => result.outcome);
    expect(outcomes.sort()).toEqual(['already_queued', 'queued']);
    expect(await campaignFigures(world)).toEqual({ total_campaigns: 1, campaigns_this_month: 1 });

    // Scheduled for next month: it left draft today, so it is this month's.
    const scheduled = await world.draft(1);
    expect(await firstBatch(world, scheduled, 1, new Date('2026-12-02T18:00:00.000Z'))).toMatchObject({ outcome: 'queued', campaign: { status: 'scheduled' } });
    expect(await campaignFigures(world)).toEqual({ total_campaigns: 2, campaigns_this_month: 2 });
    // Every email goes out, the last on Dec 2: sending counts no campaign again, and in December neither is this month's.
    await world.runUntilIdle(10);
    expect(world.now.toISOString().slice(0, 10)).toBe('2026-12-02');
    expect(await campaignFigures(world)).toEqual({ total_campaigns: 2, campaigns_this_month: 0 });
    await expectBackfillAgrees(world);
  });
});

describe('GET /api/analytics', () => {
  it('full (Pro): the period’s zero-filled days, its totals and each campaign that sent, newest first, in 3 reads', async () => {
    const { world, early, night } = await historyWorld('pro');
    const counting = countingClient();
    const get = insightsApi(world, { db: counting.db });
    const answer = await get('GET /api/analytics', { query: { period: '30d' } });
    expect(answer.status).toBe(200);
    expect(counting.total()).toBe(3); // the profile, the day items, the campaign items
    const analytics = analyticsSchema.parse(answer.json);
    expect(analytics).toMatchObject({ period: '30d', from: '2026-10-23', to: '2026-11-21', depth: 'full' });
    expect(analytics.days).toHaveLength(30);
    expect(analytics.days.filter((day) => day.emails_sent > 0 || day.emails_opened > 0).map((day) => day.day)).toEqual(['2026-11-12', '2026-11-21']);
    expect(analytics.days.find((day) => day.day === '2026-11-12')).toEqual({
      day: '2026-11-12',
      emails_sent: 3,
      emails_opened: 0,
      emails_machine_opened: 0,
      emails_clicked: 0,
      emails_unsubscribed: 0,
      emails_listened: 0,
      emails_answered: 0,
    });
    expect(analytics.days.find((day) => day.day === '2026-11-21')).toEqual({
      day: '2026-11-21',
      emails_sent: 3,
      emails_opened: 2,
      emails_machine_opened: 1,
      emails_clicked: 1,
      emails_unsubscribed: 1,
      emails_listened: 0,
      emails_answered: 0,
    });
    expect(analytics.totals).toEqual({
      emails_sent: 6,
      emails_opened: 2,
      emails_machine_opened: 1,
      emails_clicked: 1,
      emails_unsubscribed: 1,
      emails_listened: 0,
      emails_answered: 0,
    });
    expect(analytics.campaigns).toEqual([
      {
        id: night.campaign.id,
        track_name: 'Night Shift',
        created_at: night.campaign.created_at,
        started_sending_at: expect.any(String) as string,
        emails_sent: 3,
        emails_opened: 1,
        emails_machine_opened: 1,
        emails_clicked: 1,
        emails_unsubscribed: 1,
        emails_listened: 0,
        emails_answered: 0,
        open_rate: 33,
        click_rate: 33,
        by_email: null,
      },
      {
        id: early.campaign.id,
        track_name: 'Early Bird',
        created_at: early.campaign.created_at,
        started_sending_at: expect.any(String) as string,
        emails_sent: 3,
        emails_opened: 1,
        emails_machine_opened: 0,
        emails_clicked: 0,
        emails_unsubscribed: 0,
        emails_listened: 0,
        emails_answered: 0,
        open_rate: 33,
        click_rate: 0,
        by_email: null,
      },
    ]);
  });

  it('the last 7 days leave out the sends of 9 days ago; a campaign that sent nothing is not listed', async () => {
    const { world, night } = await historyWorld('pro');
    await world.draft(4, { track_name: 'Never Sent' });
    const analytics = analyticsSchema.parse((await insightsApi(world)('GET /api/analytics', { query: { period: '7d' } })).json);
    expect(analytics).toMatchObject({ from: '2026-11-15', to: '2026-11-21' });
    expect(analytics.totals).toEqual({
      emails_sent: 3,
      emails_opened: 2,
      emails_machine_opened: 1,
      emails_clicked: 1,
      emails_unsubscribed: 1,
      emails_listened: 0,
      emails_answered: 0,
    });
    expect(analytics.campaigns.map((campaign) => campaign.track_name)).toEqual(['Night Shift', 'Early Bird']);
    expect(analytics.campaigns[0]!.id).toBe(night.campaign.id);
  });

  it('basic (Free): opens only; clicks, unsubscribes and click rates are null, not zero', async () => {
    const { world } = await historyWorld('free');
    const analytics = analyticsSchema.parse((await insightsApi(world)('GET /api/analytics', { query: { period: '1y' } })).json);
    expect(analytics.depth).toBe('basic');
    expect(analytics.days).toHaveLength(365);
    expect(analytics.totals).toEqual({
      emails_sent: 6,
      emails_opened: 2,
      emails_machine_opened: 1,
      emails_clicked: null,
      emails_unsubscribed: null,
      emails_listened: null,
      emails_answered: null,
    });
    expect(analytics.days.every((day) => day.emails_clicked === null && day.emails_unsubscribed === null)).toBe(true);
    expect(analytics.campaigns.map((c) => [c.open_rate, c.click_rate, c.emails_clicked, c.emails_unsubscribed])).toEqual([
      [33, null, null, null],
      [33, null, null, null],
    ]);
  });

  it('counts an email on its Pacific day: 23:59:30 PST and 00:00:30 PST are two days, and the period starts at Pacific midnight', async () => {
    // 07:59:30Z on Nov 15 is 23:59:30 PST on Nov 14; the second email goes a minute later, on Nov 15.
    const world = await sendingWorld({ start: new Date('2026-11-15T07:59:30.000Z'), profile: { tier: 'pro' } });
    const { campaign } = await sendCampaign(world, 2, 'Midnight');
    expect((await world.recipients(campaign.id)).map((r) => r.sent_at).sort()).toEqual(['2026-11-15T07:59:30.000Z', '2026-11-15T08:00:30.000Z']);
    world.now = NOW;
    const get = insightsApi(world);
    const week = analyticsSchema.parse((await get('GET /api/analytics', { query: { period: '7d' } })).json);
    expect(week.from).toBe('2026-11-15');
    expect(week.totals.emails_sent).toBe(1);
    const month = analyticsSchema.parse((await get('GET /api/analytics', { query: { period: '30d' } })).json);
    expect(month.days.filter((day) => day.emails_sent > 0).map((day) => [day.day, day.emails_sent])).toEqual([
      ['2026-11-14', 1],
      ['2026-11-15', 1],
    ]);
    // The activity of the last 7 days starts at 00:00 PST on Nov 15: the 23:59:30 email is not in it.
    const activity = activityPageSchema.parse((await get('GET /api/analytics/activity', { query: { period: '7d', filter: 'all' } })).json);
    expect(activity.activity.map((row) => row.sent_at)).toEqual(['2026-11-15T08:00:30.000Z']);
  });
});

describe('Free vs Pro beyond opens', () => {
  it('Free: activity and links answer 403 UPGRADE_FOR_ANALYTICS', async () => {
    const { world, night } = await historyWorld('free');
    const get = insightsApi(world);
    for (const answer of [
      await get('GET /api/analytics/activity', { query: { period: '30d' } }),
      await get('GET /api/analytics/campaigns/{id}/links', { params: { id: night.campaign.id } }),
    ]) {
      expect(answer).toEqual({ status: 403, json: { message: insightsMessages.upgradeForAnalytics, code: UPGRADE_FOR_ANALYTICS } });
    }
  });
});

describe('GET /api/analytics/campaigns/{id}/links', () => {
  it("lists the campaign's links with their clicks and the address as sent", async () => {
    const { world, night } = await historyWorld('pro');
    const answer = await insightsApi(world)('GET /api/analytics/campaigns/{id}/links', { params: { id: night.campaign.id } });
    expect(answer.status).toBe(200);
    const [token] = night.tokens as [EmailToken];
    expect(campaignLinksSchema.parse(answer.json)).toEqual({
      links: [
        { index: 0, url: token.links[0], click_count: 2 },
        { index: 1, url: token.links[1], click_count: 1 },
      ],
    });
  });

  it("answers 404 'Campaign not found' for another user's campaign, a missing one and a malformed id", async () => {
    const { world: owner, night } = await historyWorld('pro');
    const { world: caller } = await historyWorld('pro');
    const get = insightsApi(caller);
    const notFound = { status: 404, json: { message: 'Campaign not found' } };
    expect(await get('GET /api/analytics/campaigns/{id}/links', { params: { id: night.campaign.id } })).toEqual(notFound);
    expect(await get('GET /api/analytics/campaigns/{id}/links', { params: { id: '01KAKZ3R0000000000000000ZZ' } })).toEqual(notFound);
    expect(await get('GET /api/analytics/campaigns/{id}/links', { params: { id: 'not-a-ulid' } })).toEqual(notFound);
    // The owner sees them.
    expect((await insightsApi(owner)('GET /api/analytics/campaigns/{id}/links', { params: { id: night.campaign.id } })).status).toBe(200);
  });
});

/** Every page of the activity (as the web client reads it), and each page's length. */
async function allPages(get: ReturnType<typeof insightsApi>, query: Record<string, string>, userId?: string) {
  const rows: Activity[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const answer = await get('GET /api/analytics/activity', { query: { ...query, ...(cursor ? { cursor } : {}) }, ...(userId ? { userId } : {}) });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const parsed = activityPageSchema.parse(answer.json);
    rows.push(...parsed.activity);
    sizes.push(parsed.activity.length);
    cursor = parsed.next_cursor;
    if (cursor === null) return { rows, sizes };
  }
  throw new Error('more than 20 pages');
}

describe('GET /api/analytics/activity', () => {
  /** Eight emails (positions 0–7, one a minute); a person opened 0 and 7, 3 was clicked, a machine opened 5. */
  async function engagedWorld() {
    const world = await sendingWorld({ start: NOW, profile: { tier: 'pro' } });
    const { campaign, tokens } = await sendCampaign(world, 8, 'Paging');
    const at = new Date(world.now.getTime() + MINUTE);
    await tracking(world).recordOpen(tokens[0]!, 'human', at);
    await tracking(world).recordOpen(tokens[7]!, 'human', at);
    await tracking(world).recordClick(tokens[3]!, 0, at);
    await tracking(world).recordOpen(tokens[5]!, 'machine', at);
    world.now = new Date(at.getTime() + MINUTE);
    return { world, campaign };
  }

  it('all: every email of the period newest first with its per-recipient figures and track name', async () => {
    const { world, night } = await historyWorld('pro');
    const { rows } = await allPages(insightsApi(world), { period: '30d', filter: 'all' });
    expect(rows.map((row) => [row.track_name, row.position])).toEqual([
      ['Night Shift', 2],
      ['Night Shift', 1],
      ['Night Shift', 0],
      ['Early Bird', 2],
      ['Early Bird', 1],
      ['Early Bird', 0],
    ]);
    expect(rows[2]).toEqual({
      campaign_id: night.campaign.id,
      track_name: 'Night Shift',
      position: 0,
      recipient_name: 'Recipient 1',
      recipient_email: expect.stringMatching(/^rcpt1-/) as string,
      sent_at: '2026-11-21T18:00:00.000Z',
      opened_at: '2026-11-21T18:10:00.000Z',
      last_opened_at: '2026-11-21T18:10:00.000Z',
      open_count: 2,
      machine_open_count: 0,
      clicked_at: null,
      last_clicked_at: null,
      click_count: 0,
      // No listen page was used: nothing played, downloaded or answered.
      listen_max_percent: 0,
      play_count: 0,
      download_count: 0,
      answer: null,
      answer_note: null,
    });
    expect(rows[1]).toMatchObject({ opened_at: null, machine_open_count: 1 });
    expect(rows[0]).toMatchObject({ clicked_at: '2026-11-21T18:10:00.000Z', click_count: 3 });
  });

  it('engaged (the default): only emails a person opened or clicked, machine opens alone are not', async () => {
    const { world } = await historyWorld('pro');
    const { rows } = await allPages(insightsApi(world), { period: '30d' });
    expect(rows.map((row) => [row.track_name, row.position])).toEqual([
      ['Night Shift', 2],
      ['Night Shift', 0],
      ['Early Bird', 0],
    ]);
  });

  it('pages through a filter: a page cut inside a Query continues from its last row', async () => {
    const { world } = await engagedWorld();
    // One Query reads all eight and matches three: the page keeps two, the next starts after position 3.
    const { rows, sizes } = await allPages(insightsApi(world, { activityPageSize: 2, activityReadLimit: 8 }), { period: '7d', filter: 'engaged' });
    expect(rows.map((row) => row.position)).toEqual([7, 3, 0]);
    expect(sizes).toEqual([2, 1]);
  });

  it('pages through a filter when Queries match few or none: reads on until the page is full', async () => {
    const { world } = await engagedWorld();
    const get = insightsApi(world, { activityPageSize: 2, activityReadLimit: 2 });
    const { rows, sizes } = await allPages(get, { period: '7d', filter: 'engaged' });
    expect(rows.map((row) => row.position)).toEqual([7, 3, 0]);
    // The first page read [7,6], [5,4] (nothing), [3,2]: full, not short.
    expect(sizes[0]).toBe(2);
    expect(sizes.every((size) => size <= 2)).toBe(true);
  });

  it('answers a short page with a cursor when its Queries are spent, and the next page goes on from there', async () => {
    const { world } = await engagedWorld();
    const get = insightsApi(world, { activityPageSize: 2, activityReadLimit: 2, activityMaxQueries: 2 });
    const { rows, sizes } = await allPages(get, { period: '7d', filter: 'engaged' });
    expect(rows.map((row) => row.position)).toEqual([7, 3, 0]);
    expect(sizes[0]).toBe(1); // [7,6] and [5,4] read, the bound reached
  });

  it('all: pages of exactly the page size, newest first, none repeated', async () => {
    const { world } = await engagedWorld();
    const { rows, sizes } = await allPages(insightsApi(world, { activityPageSize: 3 }), { period: '7d', filter: 'all' });
    expect(rows.map((row) => row.position)).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    expect(sizes.slice(0, 3)).toEqual([3, 3, 2]);
  });

  it("never shows another user's emails: their cursor reads the caller's own timeline; a forged or foreign-period cursor is a 400", async () => {
    const { world: mine } = await engagedWorld();
    const { world: theirs } = await engagedWorld();
    const theirApi = insightsApi(theirs, { activityPageSize: 2 });
    const theirPage = activityPageSchema.parse((await theirApi('GET /api/analytics/activity', { query: { period: '7d', filter: 'all' } })).json);
    expect(theirPage.next_cursor).not.toBeNull();

    const myApi = insightsApi(mine, { activityPageSize: 20 });
    const myCampaigns = new Set((await allPages(myApi, { period: '7d', filter: 'all' })).rows.map((row) => row.campaign_id));
    const withTheirCursor = await myApi('GET /api/analytics/activity', { query: { period: '7d', filter: 'all', cursor: theirPage.next_cursor! } });
    expect(withTheirCursor.status).toBe(200);
    const rows = activityPageSchema.parse(withTheirCursor.json).activity;
    expect(rows.every((row) => myCampaigns.has(row.campaign_id))).toBe(true);
    const theirCampaigns = (await allPages(insightsApi(theirs), { period: '7d', filter: 'all' })).rows.map((row) => row.campaign_id);
    expect(rows.some((row) => theirCampaigns.includes(row.campaign_id))).toBe(false);

    const badCursor = { status: 400, json: { message: insightsMessages.badCursor } };
    const forgedKey = Buffer.from(JSON.stringify({ GSI1PK: `USER#${theirs.userId}#SENT`, GSI1SK: '2026-11-21T18:00:00.000Z' })).toString('base64url');
    for (const cursor of [forgedKey, 'not a cursor', '%%%', 'x'.repeat(2001)]) {
      expect(await myApi('GET /api/analytics/activity', { query: { period: '7d', cursor } }), cursor.slice(0, 20)).toEqual(badCursor);
    }
    // A cursor of a longer period that points before this period's first day.
    const oldCursor = Buffer.from(`2026-10-01T18:00:00.000Z#${theirPage.activity[0]!.campaign_id}#000001`).toString('base64url');
    expect(await myApi('GET /api/analytics/activity', { query: { period: '7d', cursor: oldCursor } })).toEqual(badCursor);
    expect((await myApi('GET /api/analytics/activity', { query: { period: '1y', cursor: oldCursor } })).status).toBe(200);
  });
});

describe('the listen page in the dashboard and the activity (issue 16)', () => {
  const listen = (world: SendingWorld) => new DynamoListenStore(world.db, world.tableName);

  /**
   * "Late Hours", five emails (positions 0–4, one a minute from NOW), then on their listen pages, none
   * of them opened by a person (images blocked): 0 is played twice to 75 %, downloaded and answered
   * 'Interested', then 'Send me the WAVs' with `note`; 1 is played but left before 25 %; 2 is answered
   * 'Not for us' without a play; 3 is downloaded without a play; 4 only gets a machine open.
   */
  async function listenWorld(note: string) {
    const world = await sendingWorld({ start: NOW, profile: { tier: 'pro' } });
    const { campaign, tokens } = await sendCampaign(world, 5, 'Late Hours');
    const [t0, t1, t2, t3, t4] = tokens as [EmailToken, EmailToken, EmailToken, EmailToken, EmailToken];
    const at = new Date(world.now.getTime() + MINUTE);
    const store = listen(world);
    await store.recordPlay(t0, 'session-a', at);
    await store.recordProgress(t0, { session: 'session-a', milestone: 50, seconds: 60, durationSeconds: 200 }, at);
    await store.recordPlay(t0, 'session-b', at);
    await store.recordProgress(t0, { session: 'session-b', milestone: 75, seconds: 150, durationSeconds: 200 }, at);
    await store.recordDownload(t0, 'session-b', at);
    await store.answer(t0, { answer: 'interested', note: null }, at);
    await store.answer(t0, { answer: 'send_wavs', note }, new Date(at.getTime() + MINUTE));
    await store.recordPlay(t1, 'session-c', at);
    await store.recordProgress(t1, { session: 'session-c', milestone: 0, seconds: 20, durationSeconds: 200 }, at);
    await store.answer(t2, { answer: 'not_for_us', note: null }, at);
    await store.recordDownload(t3, 'session-d', at);
    await tracking(world).recordOpen(t4, 'machine', at);
    world.now = new Date(at.getTime() + 2 * MINUTE);
    return { world, campaign };
  }

  it('activity: each email carries how far it was listened to, its plays, downloads and current answer with its note', async () => {
    const { world } = await listenWorld('Lossless please, =1+1');
    const page = activityPageSchema.parse((await insightsApi(world)('GET /api/analytics/activity', { query: { period: '7d', filter: 'all' } })).json);
    const listenOf = (row: Activity) => [row.position, row.listen_max_percent, row.play_count, row.download_count, row.answer, row.answer_note];
    expect(page.activity.map(listenOf)).toEqual([
      [4, 0, 0, 0, null, null],
      [3, 0, 0, 1, null, null],
      [2, 0, 0, 0, 'not_for_us', null],
      [1, 0, 1, 0, null, null],
      [0, 75, 2, 1, 'send_wavs', 'Lossless please, =1+1'],
    ]);
    // Listening is not an open: the open pixel never loaded.
    expect(page.activity.every((row) => row.opened_at === null && row.clicked_at === null)).toBe(true);
  });

  it('engaged: a play, a download or an answer counts as engaged, a machine open alone does not, in the same reads per page', async () => {
    const { world } = await listenWorld('Lossless please');
    const counting = countingClient();
    const answer = await insightsApi(world, { db: counting.db })('GET /api/analytics/activity', { query: { period: '7d' } });
    const page = activityPageSchema.parse(answer.json);
    expect(page.activity.map((row) => row.position)).toEqual([3, 2, 1, 0]);
    expect(page.next_cursor).toBeNull();
    // The profile, one Query of the timeline (the filter keeps more of what it reads) and the track names.
    expect(Object.fromEntries(counting.counts)).toEqual({ GetItemCommand: 1, QueryCommand: 1, BatchGetItemCommand: 1 });

    // Paged through a filter that reads two emails a Query: the same rows, none twice.
    const { rows } = await allPages(insightsApi(world, { activityPageSize: 2, activityReadLimit: 2 }), { period: '7d', filter: 'engaged' });
    expect(rows.map((row) => row.position)).toEqual([3, 2, 1, 0]);
  });

  it('dashboard: the recent sends carry the listen and the answer, still in 4 reads', async () => {
    const { world, campaign } = await listenWorld('Lossless please');
    const counting = countingClient();
    const stats = dashboardStatsSchema.parse((await insightsApi(world, { db: counting.db })('GET /api/dashboard')).json);
    expect(counting.total()).toBe(4);
    expect(stats.recent_sends.map((send) => [send.campaign_id, send.position, send.listen_max_percent, send.play_count, send.answer])).toEqual([
      [campaign.id, 4, 0, 0, null],
      [campaign.id, 3, 0, 0, null],
      [campaign.id, 2, 0, 0, 'not_for_us'],
      [campaign.id, 1, 0, 1, null],
      [campaign.id, 0, 75, 2, 'send_wavs'],
    ]);
    expect(stats.recent_sends[4]).toMatchObject({ download_count: 1, answer_note: 'Lossless please' });
  });

  it("never shows another user's listens or answers: each user's dashboard and activity hold their own only", async () => {
    const mine = await listenWorld('Mine: send the stems');
    const theirs = await listenWorld('Theirs: not this one');
    for (const { world, campaign, note } of [
      { ...mine, note: 'Mine: send the stems' },
      { ...theirs, note: 'Theirs: not this one' },
    ]) {
      const get = insightsApi(world);
      const activity = activityPageSchema.parse((await get('GET /api/analytics/activity', { query: { period: '7d', filter: 'all' } })).json).activity;
      const recent = dashboardStatsSchema.parse((await get('GET /api/dashboard')).json).recent_sends;
      for (const rows of [activity, recent]) {
        expect(new Set(rows.map((row) => row.campaign_id))).toEqual(new Set([campaign.id]));
        expect(rows.flatMap((row) => (row.answer_note === null ? [] : [row.answer_note]))).toEqual([note]);
      }
    }
  });
});

describe('listens and answers by email: the first email and each follow-up (issue 27 §1)', () => {
  /**
   * "Two Nudges", three emails with two steps (a day and two days later, under 'Only if they did not
   * answer'), sent through the pipeline, steps included; then on the listen pages: 0 answers through the
   * first email's link; 1 listens through step 1's and answers through step 2's; 2 listens through step
   * 2's. Before it "Plain", two emails without follow-ups, 0 listened to.
   */
  async function followUpWorld() {
    const world = await sendingWorld({ start: NOW, profile: { tier: 'pro' } });
    const text = 'Hi [CONTACT_NAME], did [TRACK_NAME] reach you? [TRACK_URL]';
    const steps = [1, 2].map((after_days) => ({ after_days, writer: 'own' as const, text }));
    const plain = await sendCampaign(world, 2, 'Plain');
    const nudged = await world.draft(3, { track_name: 'Two Nudges' });
    await world.queue(
      nudged,
      [1, 2, 3].map((i) => contactFor(world.userId, i)),
      world.now,
      { followUps: { steps, condition: 'not_answered' } },
    );
    await world.runUntilIdle();
    const recipients = (await world.recipients(nudged.id)).sort((a, b) => a.position - b.position);
    const tokenOf = async (token: string | null | undefined) => (await tracking(world).getToken(token!))!;
    const stepTokenOf = (recipient: (typeof recipients)[number], step: 1 | 2) => {
      const outcome = recipient[`follow_up_${step}`];
      if (outcome?.state !== 'sent') throw new Error(`step ${step} of ${recipient.position} was not sent`);
      return tokenOf(outcome.token);
    };
    const [r0, r1, r2] = recipients as [(typeof recipients)[number], (typeof recipients)[number], (typeof recipients)[number]];
    const store = new DynamoListenStore(world.db, world.tableName);
    const at = world.now;
    await store.answer(await tokenOf(r0.token), { answer: 'interested', note: null }, at);
    await store.recordProgress(await stepTokenOf(r1, 1), { session: 's-1', milestone: 50, seconds: 0, durationSeconds: 200 }, at);
    await store.answer(await stepTokenOf(r1, 2), { answer: 'send_wavs', note: null }, at);
    await store.recordProgress(await stepTokenOf(r2, 2), { session: 's-2', milestone: 25, seconds: 0, durationSeconds: 200 }, at);
    await store.recordProgress(plain.tokens[0]!, { session: 's-3', milestone: 25, seconds: 0, durationSeconds: 200 }, at);
    return { world, nudged, plain: plain.campaign };
  }

  it('GET /api/analytics gives a campaign with follow-ups its figures by email (the first less its steps); one without has none; still 3 reads', async () => {
    const { world, nudged, plain } = await followUpWorld();
    const counting = countingClient();
    const analytics = analyticsSchema.parse((await insightsApi(world, { db: counting.db })('GET /api/analytics', { query: { period: '7d' } })).json);
    expect(counting.total()).toBe(3);
    const byId = new Map(analytics.campaigns.map((campaign) => [campaign.id, campaign]));
    expect(byId.get(nudged.id)).toMatchObject({ emails_listened: 2, emails_answered: 2 });
    expect(byId.get(nudged.id)?.by_email).toEqual([
      { step: 0, emails_listened: 0, emails_answered: 1 },
      { step: 1, emails_listened: 1, emails_answered: 0 },
      { step: 2, emails_listened: 1, emails_answered: 1 },
    ]);
    expect(byId.get(plain.id)).toMatchObject({ emails_listened: 1, by_email: null });
    // The counters agree with the log: each RCPT keeps the step its first listen and first answer came through.
    const logged = (await world.recipients(nudged.id))
      .sort((a, b) => a.position - b.position)
      .map((r) => {
        const item = r as unknown as Record<string, unknown>;
        return [item.listened_step ?? null, item.first_answered_step ?? null];
      });
    expect(logged).toEqual([
      [null, null],
      [1, 2],
      [2, null],
    ]);
  });

  it("basic (Free) shows none of it; another user's analytics hold nothing of this user's campaigns", async () => {
    const { world, nudged } = await followUpWorld();
    const other = await sendingWorld({ start: world.now, profile: { tier: 'pro' } });
    await sendCampaign(other, 1, 'Elsewhere');
    const theirs = analyticsSchema.parse((await insightsApi(world)('GET /api/analytics', { userId: other.userId, query: { period: '7d' } })).json);
    expect(theirs.campaigns.map((campaign) => campaign.track_name)).toEqual(['Elsewhere']);
    expect(theirs.campaigns.every((campaign) => campaign.by_email === null)).toBe(true);
    await world.db.send(
      new UpdateCommand({
        TableName: world.tableName,
        Key: { PK: key.user(world.userId), SK: key.profile() },
        UpdateExpression: 'SET tier = :free',
        ExpressionAttributeValues: { ':free': 'free' },
      }),
    );
    const basic = analyticsSchema.parse((await insightsApi(world)('GET /api/analytics', { query: { period: '7d' } })).json);
    expect(basic.depth).toBe('basic');
    expect(basic.campaigns.find((campaign) => campaign.id === nudged.id)).toMatchObject({ emails_listened: null, by_email: null });
  });
});

describe('bad query values', () => {
  it('answers 400 with the period or filter to choose, before reading anything', async () => {
    const world = await sendingWorld({ start: NOW, profile: { tier: 'pro' } });
    const counting = countingClient();
    const get = insightsApi(world, { db: counting.db });
    const badPeriod = { status: 400, json: { message: insightsMessages.badPeriod } };
    const badFilter = { status: 400, json: { message: insightsMessages.badFilter } };
    expect(await get('GET /api/analytics')).toEqual(badPeriod);
    expect(await get('GET /api/analytics', { query: { period: '2y' } })).toEqual(badPeriod);
    expect(await get('GET /api/analytics/activity', { query: { filter: 'all' } })).toEqual(badPeriod);
    expect(await get('GET /api/analytics/activity', { query: { period: '7d', filter: 'opened' } })).toEqual(badFilter);
    expect(await get('GET /api/analytics/activity', { query: { period: '7d', cursor: '' } })).toEqual({
      status: 400,
      json: { message: insightsMessages.badCursor },
    });
    expect(counting.total()).toBe(0);
  });
});

describe('through the local server', () => {
  it('a signed-in user with no history gets the dashboard and basic analytics; no token is a 401', async () => {
    const user = await createUser();
    const dashboard = await call('/api/dashboard', { token: user.idToken });
    expect(dashboard.status).toBe(200);
    expect(dashboardStatsSchema.parse(dashboard.json)).toMatchObject({ emails_sent: 0, average_open_rate: null, recent_sends: [] });
    const analytics = await call('/api/analytics?period=7d', { token: user.idToken });
    expect(analytics.status).toBe(200);
    expect(analyticsSchema.parse(analytics.json)).toMatchObject({ depth: 'basic', campaigns: [] });
    expect((await call('/api/dashboard')).status).toBe(401);
  });
});
