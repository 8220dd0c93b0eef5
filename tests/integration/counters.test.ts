/**
 * The user's counters (DESIGN §11) on DynamoDB Local: written by the sender's record and the tracking
 * store in the event's own transaction, so they equal what the logs say under duplicate and concurrent
 * opens, clicks and unsubscribes, on the right Pacific day, and never on another user's items; and the
 * backfill rebuilds them from the logs, idempotently.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { statsDayKey, statsTotalsKey } from '../../lambdas/adapters/dynamodb/counters';
import { countersInLogs, readCounters, rebuildCounters } from '../../lambdas/adapters/dynamodb/countersBackfill';
import { DynamoListenStore } from '../../lambdas/adapters/dynamodb/listenStore';
import { DynamoTrackingStore } from '../../lambdas/adapters/dynamodb/trackingStore';
import { counterDay, emptyDay, emptyTotals, type CountersFromLogs } from '../../lambdas/core/counters';
import type { EmailToken } from '../../lambdas/ports';
import { key } from '../../schema/table';
import { contactFor, sendingWorld, type SendingWorld } from './sendingFixtures';

/** What the counter items hold now: the totals and every day item, as the analytics Query reads them. */
const storedCounters = (world: SendingWorld, userId = world.userId): Promise<CountersFromLogs> => readCounters(world.db, world.tableName, userId);

async function expectCountersMatchLogs(world: SendingWorld) {
  expect(await storedCounters(world)).toEqual(await countersInLogs(world.db, world.tableName, world.userId));
}

/** A world whose campaign of `n` recipients was sent (one per interval), and each email's token. */
async function sentWorld(n: number, start?: Date) {
  const world = await sendingWorld(start ? { start } : {});
  const campaign = await world.draft(n);
  await world.queue(
    campaign,
    Array.from({ length: n }, (_, i) => contactFor(world.userId, i + 1)),
  );
  await world.runUntilIdle();
  const tracking = new DynamoTrackingStore(world.db, world.tableName);
  const tokens: EmailToken[] = [];
  for (const recipient of await world.recipients(campaign.id)) {
    const token = await tracking.getToken(recipient.token!);
    tokens.push(token!);
  }
  return { world, campaign, tracking, tokens };
}

describe('counters written with each event', () => {
  it('counts each sent email once on the totals and its Pacific day, with the campaign', async () => {
    const { world, campaign } = await sentWorld(3);
    const stored = await storedCounters(world);
    expect(stored.totals).toMatchObject({ emails_sent: 3, emails_opened: 0, open_count: 0 });
    expect([...stored.days.keys()]).toEqual([counterDay(world.now)]);
    expect(stored.days.get(counterDay(world.now))).toMatchObject({ emails_sent: 3 });
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_sent: 3 });
    await expectCountersMatchLogs(world);
  });

  it('counts listens, plays, downloads and answers as the listen page reports them, equal to what the logs say (issue 16)', async () => {
    const { world, tokens, campaign } = await sentWorld(2);
    const listen = new DynamoListenStore(world.db, world.tableName);
    const [first, second] = tokens as [EmailToken, EmailToken];
    const at = new Date(world.now.getTime() + 60_000);
    await Promise.all([
      ...Array.from({ length: 3 }, () => listen.recordPlay(first, 'session-one-0001', at)),
      ...Array.from({ length: 3 }, () => listen.recordProgress(first, { session: 'session-one-0001', milestone: 50, seconds: 4, durationSeconds: 8 }, at)),
      listen.recordDownload(first, 'session-one-0001', at),
      listen.recordDownload(first, 'session-one-0001', at),
      listen.recordDownload(first, 'session-one-0002', at),
      listen.answer(first, { answer: 'interested', note: null }, at),
      listen.recordPlay(second, 'session-two-0001', at),
      listen.recordProgress(second, { session: 'session-two-0001', milestone: 0, seconds: 1, durationSeconds: 8 }, at),
    ]);
    await listen.answer(first, { answer: 'send_wavs', note: 'WAVs please' }, at);
    const stored = await storedCounters(world);
    expect(stored.totals).toMatchObject({ emails_listened: 1, emails_answered: 1, play_count: 2, download_count: 2 });
    expect(stored.days.get(counterDay(at))).toMatchObject({ emails_listened: 1, emails_answered: 1 });
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_listened: 1, emails_answered: 1, emails_downloaded: 1 });
    await expectCountersMatchLogs(world);
  });

  it('counts a repeated human open once as an opened email and every time as an open; first and last times on the email', async () => {
    const { world, tracking, tokens, campaign } = await sentWorld(2);
    const [first] = tokens as [EmailToken];
    const t0 = new Date(world.now.getTime() + 60_000);
    const t1 = new Date(world.now.getTime() + 120_000);
    await tracking.recordOpen(first, 'human', t0);
    await tracking.recordOpen(first, 'human', t1);
    const stored = await storedCounters(world);
    expect(stored.totals).toMatchObject({ emails_opened: 1, open_count: 2 });
    expect(stored.days.get(counterDay(t0))).toMatchObject({ emails_opened: 1 });
    expect(await world.item(key.campaignPartition(campaign.id), key.recipient(0))).toMatchObject({
      opened_at: t0.toISOString(),
      last_opened_at: t1.toISOString(),
      open_count: 2,
    });
    await expectCountersMatchLogs(world);
  });

  it('under concurrent opens, clicks and unsubscribes of the same email, counts each email once and every event once', async () => {
    const { world, tracking, tokens, campaign } = await sentWorld(1);
    const [token] = tokens as [EmailToken];
    const at = new Date(world.now.getTime() + 60_000);
    await Promise.all([
      ...Array.from({ length: 6 }, () => tracking.recordOpen(token, 'human', at)),
      ...Array.from({ length: 4 }, () => tracking.recordOpen(token, 'machine', at)),
      ...Array.from({ length: 5 }, (_, i) => tracking.recordClick(token, i % 2, at)),
      ...Array.from({ length: 3 }, () => tracking.unsubscribe(token, { reason: null, details: null }, at)),
    ]);
    const stored = await storedCounters(world);
    expect(stored.totals).toEqual({
      emails_sent: 1,
      emails_opened: 1,
      emails_machine_opened: 1,
      emails_clicked: 1,
      emails_unsubscribed: 1,
      emails_listened: 0,
      emails_answered: 0,
      open_count: 6,
      machine_open_count: 4,
      click_count: 5,
      play_count: 0,
      download_count: 0,
      contacts_count: 0,
      campaigns_sent: 1,
    });
    expect(await world.campaign(campaign.id)).toMatchObject({ emails_opened: 1, emails_machine_opened: 1, emails_clicked: 1, emails_unsubscribed: 1 });
    // Per link: three clicks on the first link, two on the second, with the address as sent.
    expect(await world.item(key.campaignPartition(campaign.id), key.linkClicks(0))).toMatchObject({ click_count: 3, url: token.links[0] });
    expect(await world.item(key.campaignPartition(campaign.id), key.linkClicks(1))).toMatchObject({ click_count: 2, url: token.links[1] });
    await expectCountersMatchLogs(world);
  });

  it('keeps machine opens apart from human ones', async () => {
    const { world, tracking, tokens } = await sentWorld(2);
    const [first, second] = tokens as [EmailToken, EmailToken];
    const at = new Date(world.now.getTime() + 1000);
    await tracking.recordOpen(first, 'machine', at);
    await tracking.recordOpen(first, 'machine', at);
    await tracking.recordOpen(second, 'machine', at);
    expect((await storedCounters(world)).totals).toMatchObject({ emails_machine_opened: 2, machine_open_count: 3, emails_opened: 0, open_count: 0 });
    await tracking.recordOpen(first, 'human', at);
    expect((await storedCounters(world)).totals).toMatchObject({ emails_machine_opened: 2, machine_open_count: 3, emails_opened: 1, open_count: 1 });
    await expectCountersMatchLogs(world);
  });

  it('puts an event on its Pacific day: one minute before and after Pacific midnight are two days, in winter and in summer time', async () => {
    // Sent on 2026-03-07 (PST, UTC-8); the clocks go forward on 2026-03-08.
    const { world, tracking, tokens } = await sentWorld(2, new Date('2026-03-07T18:00:00.000Z'));
    const [first, second] = tokens as [EmailToken, EmailToken];
    await tracking.recordOpen(first, 'human', new Date('2026-03-08T07:59:00.000Z')); // 23:59 PST on the 7th
    await tracking.recordOpen(second, 'human', new Date('2026-03-08T08:01:00.000Z')); // 00:01 PST on the 8th
    // Summer time (PDT, UTC-7): midnight is 07:00 UTC.
    await tracking.recordClick(first, 0, new Date('2026-07-01T06:59:00.000Z')); // 23:59 PDT on June 30
    await tracking.recordClick(second, 0, new Date('2026-07-01T07:01:00.000Z')); // 00:01 PDT on July 1
    const { days } = await storedCounters(world);
    expect(days.get('2026-03-07')).toMatchObject({ emails_sent: 2, emails_opened: 1 });
    expect(days.get('2026-03-08')).toMatchObject({ emails_opened: 1 });
    expect(days.get('2026-06-30')).toMatchObject({ emails_clicked: 1 });
    expect(days.get('2026-07-01')).toMatchObject({ emails_clicked: 1 });
    await expectCountersMatchLogs(world);
  });

  it("never touches another user's counters", async () => {
    const mine = await sentWorld(1);
    const theirs = await sentWorld(2);
    const before = await storedCounters(mine.world);
    const at = new Date(theirs.world.now.getTime() + 1000);
    const [token] = theirs.tokens as [EmailToken];
    await Promise.all([
      theirs.tracking.recordOpen(token, 'human', at),
      theirs.tracking.recordOpen(token, 'machine', at),
      theirs.tracking.recordClick(token, 0, at),
      theirs.tracking.unsubscribe(token, { reason: null, details: null }, at),
    ]);
    expect(await storedCounters(mine.world)).toEqual(before);
    expect((await storedCounters(theirs.world)).totals).toMatchObject({ emails_sent: 2, emails_opened: 1, emails_clicked: 1, emails_unsubscribed: 1 });
  });

  it('counts nothing for an email whose log is gone', async () => {
    const { world, tracking, tokens, campaign } = await sentWorld(1);
    const before = await storedCounters(world);
    await world.db.send(new DeleteCommand({ TableName: world.tableName, Key: { PK: key.campaignPartition(campaign.id), SK: key.recipient(0) } }));
    await tracking.recordOpen(tokens[0]!, 'human', world.now);
    await tracking.recordClick(tokens[0]!, 0, world.now);
    expect(await storedCounters(world)).toEqual(before);
  });
});

describe('rebuildCounters (backfill)', () => {
  it('rebuilds wrong or missing counters from the logs, and a second run changes nothing', async () => {
    const { world, tracking, tokens } = await sentWorld(3);
    const at = new Date(world.now.getTime() + 86_400_000);
    await tracking.recordOpen(tokens[0]!, 'human', at);
    await tracking.recordOpen(tokens[0]!, 'human', at);
    await tracking.recordOpen(tokens[1]!, 'machine', at);
    await tracking.recordClick(tokens[2]!, 1, at);
    await tracking.unsubscribe(tokens[2]!, { reason: null, details: null }, at);
    const live = await storedCounters(world);

    // Broken: the totals say something else, a day is missing, a day that never happened is there.
    const userKey = statsTotalsKey(world.userId);
    await world.db.send(
      new UpdateCommand({ TableName: world.tableName, Key: userKey, UpdateExpression: 'SET emails_sent = :n', ExpressionAttributeValues: { ':n': 99 } }),
    );
    await world.db.send(new DeleteCommand({ TableName: world.tableName, Key: statsDayKey(world.userId, counterDay(at)) }));
    await world.db.send(
      new PutCommand({ TableName: world.tableName, Item: { ...statsDayKey(world.userId, '2020-01-01'), day: '2020-01-01', emails_sent: 7 } }),
    );
    expect(await storedCounters(world)).not.toEqual(live);

    await rebuildCounters(world.db, world.tableName, world.userId);
    expect(await storedCounters(world)).toEqual(live);
    await rebuildCounters(world.db, world.tableName, world.userId);
    expect(await storedCounters(world)).toEqual(live);
  });

  it('builds the counters of logs from before them (no machine open time: the day it was sent)', async () => {
    const { world, campaign } = await sentWorld(2);
    // As the logs were before the counters: no counter items, opened and machine-opened emails without the new times.
    await world.db.send(new DeleteCommand({ TableName: world.tableName, Key: statsTotalsKey(world.userId) }));
    await world.db.send(new DeleteCommand({ TableName: world.tableName, Key: statsDayKey(world.userId, counterDay(world.now)) }));
    const openedAt = new Date(world.now.getTime() + 3 * 86_400_000).toISOString();
    await world.db.send(
      new UpdateCommand({
        TableName: world.tableName,
        Key: { PK: key.campaignPartition(campaign.id), SK: key.recipient(0) },
        UpdateExpression: 'SET opened_at = :at, open_count = :three, machine_open_count = :one',
        ExpressionAttributeValues: { ':at': openedAt, ':three': 3, ':one': 1 },
      }),
    );
    const rebuilt = await rebuildCounters(world.db, world.tableName, world.userId);
    expect(rebuilt.totals).toEqual({
      ...emptyTotals(),
      emails_sent: 2,
      emails_opened: 1,
      emails_machine_opened: 1,
      open_count: 3,
      machine_open_count: 1,
      campaigns_sent: 1,
    });
    expect(await storedCounters(world)).toEqual(rebuilt);
    expect(rebuilt.days.get(counterDay(world.now))).toEqual({ ...emptyDay(), emails_sent: 2, emails_machine_opened: 1, campaigns_sent: 1 });
    expect(rebuilt.days.get(counterDay(new Date(openedAt)))).toEqual({ ...emptyDay(), emails_opened: 1 });
  });
});
