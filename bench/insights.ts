/**
 * The insights reads at one busy account's scale (issue 15), on a fresh in-memory local stack: one Pro
 * account with 100 campaigns and 10,000 sent emails spread over the last 365 Pacific days (RCPT items
 * on the sent timeline, bodies included), its counters written consistently with them (the totals and
 * 365 day items, as lambdas/core/counters.ts derives them from the logs), all put with BatchWriteItem.
 * Then, through the insights Lambda handler in process, with a middleware counting every DynamoDB
 * request: the dashboard route, the year of analytics and a first page of engaged activity, against
 * the engine's floor on the same table in the same run (one GetItem; one Query of the 365 day items).
 * Prints figures; asserts nothing timed.
 *
 *   npx tsx bench/insights.ts [runs]
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll, type WriteRequest } from '../lambdas/adapters/dynamodb/batch';
import { makeDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { COUNTER_ENTITY, statsDayKey, statsTotalsKey } from '../lambdas/adapters/dynamodb/counters';
import { DynamoInsightsStore } from '../lambdas/adapters/dynamodb/insightsStore';
import { DynamoProfileStore } from '../lambdas/adapters/dynamodb/profileStore';
import { ulidGenerator } from '../lambdas/adapters/ulid';
import { counterDay, countersFromLogs, type LoggedEmail } from '../lambdas/core/counters';
import { makeHandler } from '../lambdas/http/insights';
import { buildApiEvent, makeLambdaContext } from '../lib/local/event';
import type { RouteKey } from '../schema/routes';
import { key } from '../schema/table';
import { buildProfile } from '../tests/fakes/builders';
import { countRequests } from '../tests/fakes/pipeline';
import { medianOf, startBenchStack } from './stack';

const runs = Number(process.argv[2] ?? 50);
const CAMPAIGNS = 100;
const EMAILS_PER_CAMPAIGN = 100;
const DAYS = 365;
const NOW = new Date('2026-11-21T18:00:00.000Z');
const DAY_MS = 86_400_000;
const ms = (value: number) => `${value.toFixed(1)} ms`;

const bench = await startBenchStack();
const { stack, db } = bench;
try {
  const tableName = stack.tableName;
  const userId = `bench-insights-${randomUUID()}`;
  const ids = ulidGenerator();
  const body = `<p>Hi there,</p>${'<p>A line of the pitch, long enough to look like one.</p>'.repeat(25)}`;

  // --- Seed: campaigns, their sent emails, the counters --------------------------------------------
  const seedStart = performance.now();
  const requests: WriteRequest[] = [];
  const logged: LoggedEmail[] = [];
  /** Campaigns sent per Pacific day: each is first queued when it is created (started_sending_at = created_at). */
  const campaignsSent = new Map<string, number>();
  for (let c = 0; c < CAMPAIGNS; c++) {
    // Campaigns created over the year, oldest first; each sends its 100 emails over the following days.
    const createdAt = new Date(NOW.getTime() - (DAYS - Math.floor((c * DAYS) / CAMPAIGNS)) * DAY_MS);
    const campaignId = ids.next(createdAt);
    campaignsSent.set(counterDay(createdAt), (campaignsSent.get(counterDay(createdAt)) ?? 0) + 1);
    const counters = { emails_sent: 0, emails_opened: 0, emails_machine_opened: 0, emails_clicked: 0, emails_unsubscribed: 0 };
    for (let p = 0; p < EMAILS_PER_CAMPAIGN; p++) {
      const i = c * EMAILS_PER_CAMPAIGN + p;
      // Every one of the 365 days gets sends: email i goes out on day (i mod 365) of the year.
      const sentAt = new Date(NOW.getTime() - (DAYS - 1 - (i % DAYS)) * DAY_MS - (p % 60) * 60_000 - 3_600_000);
      const human = i % 3 === 0;
      const machine = i % 5 === 0;
      const clicked = i % 10 === 0;
      const later = (minutes: number) => new Date(sentAt.getTime() + minutes * 60_000).toISOString();
      const email: LoggedEmail = {
        status: 'sent',
        sent_at: sentAt.toISOString(),
        opened_at: human ? later(30) : null,
        open_count: human ? 2 : 0,
        machine_opened_at: machine ? later(1) : null,
        machine_open_count: machine ? 1 : 0,
        clicked_at: clicked ? later(31) : null,
        click_count: clicked ? 1 : 0,
      };
      logged.push(email);
      counters.emails_sent += 1;
      if (human) counters.emails_opened += 1;
      if (machine) counters.emails_machine_opened += 1;
      if (clicked) counters.emails_clicked += 1;
      requests.push({
        PutRequest: {
          Item: {
            PK: key.campaignPartition(campaignId),
            SK: key.recipient(p),
            GSI1PK: key.sentTimeline(userId),
            GSI1SK: key.sentTimeSort(sentAt.toISOString(), campaignId, p),
            entity: 'recipient',
            campaign_id: campaignId,
            user_id: userId,
            position: p,
            recipient_name: `Recipient ${i}`,
            recipient_email: `rcpt${i}@label.test`,
            subject: `Track ${c} for Recipient ${i}`,
            html: body,
            text: body.replace(/<[^>]+>/g, ' '),
            last_opened_at: email.opened_at,
            last_clicked_at: email.clicked_at,
            ...email,
          },
        },
      });
    }
    requests.push({
      PutRequest: {
        Item: {
          PK: key.user(userId),
          SK: key.campaign(campaignId),
          entity: 'campaign',
          id: campaignId,
          track_name: `Track ${c}`,
          email_body: body,
          status: 'sent',
          created_at: createdAt.toISOString(),
          started_sending_at: createdAt.toISOString(),
          ...counters,
        },
      },
    });
  }
  const { totals, days } = countersFromLogs(logged, []);
  requests.push({ PutRequest: { Item: { ...statsTotalsKey(userId), entity: COUNTER_ENTITY, ...totals, contacts_count: 2500, campaigns_sent: CAMPAIGNS } } });
  for (const [day, counters] of days) {
    requests.push({
      PutRequest: { Item: { ...statsDayKey(userId, day), entity: COUNTER_ENTITY, day, ...counters, campaigns_sent: campaignsSent.get(day) ?? 0 } },
    });
  }
  const profile = buildProfile({ id: userId, email: `${userId}@artist.test`, tier: 'pro', created_at: NOW.toISOString() });
  requests.push({ PutRequest: { Item: { PK: key.user(userId), SK: key.profile(), entity: 'profile', ...profile } } });
  await batchWriteAll(db, tableName, requests, { concurrency: 8 });
  console.log(
    `seed: 1 Pro account, ${CAMPAIGNS} campaigns, ${logged.length} sent emails, ${days.size} day items, totals (${requests.length} items) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  // --- The handler over a counting client ----------------------------------------------------------
  const counted = makeDocumentClient({ region: stack.region, endpoint: stack.dynamoEndpoint });
  const counts = new Map<string, number>();
  countRequests(counted, counts);
  const handler = makeHandler({
    insights: new DynamoInsightsStore(counted, tableName),
    profiles: new DynamoProfileStore(counted, tableName),
    clock: { now: () => NOW },
  });
  // A context per call: its deadline is its creation time plus the timeout.
  const context = () => makeLambdaContext({ functionName: 'insights', awsRequestId: 'bench', region: stack.region, timeoutMs: 10_000 });
  const call = async (routeKey: RouteKey, query = '') => {
    const path = routeKey.slice('GET '.length);
    const event = buildApiEvent({
      method: 'GET',
      url: `${path}${query}`,
      headers: {},
      body: undefined,
      sourceIp: '127.0.0.1',
      route: { method: 'GET', path },
      pathParameters: {},
      claims: { sub: userId, email: `${userId}@artist.test`, token_use: 'id' },
      requestId: 'bench',
      now: NOW,
    });
    const result = (await handler(event, context())) as { statusCode: number; body: string };
    if (result.statusCode !== 200) throw new Error(`${routeKey}${query}: ${result.statusCode} ${result.body}`);
    return JSON.parse(result.body) as Record<string, unknown>;
  };

  /** Median time of `runs` calls after 3 warm-ups, and the DynamoDB requests of one call by command. */
  const measure = async (work: () => Promise<unknown>) => {
    for (let i = 0; i < 3; i++) await work();
    counts.clear();
    await work();
    const perCall = new Map(counts);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await work();
      times.push(performance.now() - t);
    }
    return {
      median: medianOf(times),
      requests: [...perCall.values()].reduce((a, b) => a + b, 0),
      byCommand: [...perCall].map(([n, k]) => `${n} ${k}`).join(', '),
    };
  };

  // --- The engine's floor on the same table ----------------------------------------------------------
  const getItem = await measure(() => counted.send(new GetCommand({ TableName: tableName, Key: statsTotalsKey(userId) })));
  const yearQuery = await measure(() =>
    counted.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': key.user(userId), ':from': key.statsDay('0000-00-00'), ':to': key.statsDay('9999-99-99') },
      }),
    ),
  );

  const dashboard = await measure(() => call('GET /api/dashboard'));
  const analytics = await measure(() => call('GET /api/analytics', '?period=1y'));
  const activity = await measure(() => call('GET /api/analytics/activity', '?period=1y&filter=engaged'));
  const activityAll = await measure(() => call('GET /api/analytics/activity', '?period=1y&filter=all'));
  const sample = await call('GET /api/dashboard');
  const year = await call('GET /api/analytics', '?period=1y');

  console.log(`runs per figure: ${runs} (after 3 warm-ups), DynamoDB Local in memory`);
  console.log(`engine floor: GetItem median ${ms(getItem.median)}; Query of ${days.size} day items median ${ms(yearQuery.median)}`);
  console.log(`GET /api/dashboard: ${dashboard.requests} DynamoDB requests (${dashboard.byCommand}), median ${ms(dashboard.median)}`);
  console.log(`  figures: ${JSON.stringify({ ...sample, recent_sends: (sample.recent_sends as unknown[]).length })}`);
  console.log(
    `GET /api/analytics?period=1y: ${analytics.requests} DynamoDB requests (${analytics.byCommand}), median ${ms(analytics.median)}; ` +
      `${(year.days as unknown[]).length} days, ${(year.campaigns as unknown[]).length} campaigns`,
  );
  console.log(
    `GET /api/analytics/activity?period=1y&filter=engaged (first page): ${activity.requests} DynamoDB requests (${activity.byCommand}), median ${ms(activity.median)}`,
  );
  console.log(
    `GET /api/analytics/activity?period=1y&filter=all (first page): ${activityAll.requests} DynamoDB requests (${activityAll.byCommand}), median ${ms(activityAll.median)}`,
  );
  console.log(
    `ratios to the floor: dashboard ${(dashboard.median / getItem.median).toFixed(1)}× a GetItem; analytics 1y ${(analytics.median / yearQuery.median).toFixed(1)}× the day-items Query`,
  );
  counted.destroy();
} finally {
  await bench.stop();
}
