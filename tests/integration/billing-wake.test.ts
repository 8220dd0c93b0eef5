/**
 * An upgrade releases campaigns held at the monthly limit at once (issue 14 §5 "Limits follow the plan
 * at once"), on DynamoDB Local: the real billing handler (webhook verified as Stripe signs it, a provider
 * the test drives) writes the new tier and wakes the user's sending cursor; the real dispatcher then
 * queues a tick and the real sender releases and sends. A downgrade or an unchanged limit wakes nothing,
 * a wake never creates a cursor, and a failed wake does not fail the webhook.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamodb/billingStore';
import { DynamoProfileStore } from '../../lambdas/adapters/dynamodb/profileStore';
import { DynamoSendingCursorStore } from '../../lambdas/adapters/dynamodb/sending/cursor';
import { MemoryFifoQueue } from '../../lambdas/adapters/local-queue/memoryFifoQueue';
import { StripeWebhookVerifier } from '../../lambdas/adapters/stripe/webhookVerifier';
import { dueShard } from '../../lambdas/core/dueShard';
import { pacificMonth } from '../../lambdas/core/sendingWindow';
import { makeHandler as makeBillingHandler } from '../../lambdas/http/billing';
import type { ProviderSubscription, SenderWake } from '../../lambdas/ports';
import { makeHandler as makeDispatcher } from '../../lambdas/workers/dispatcher';
import type { LambdaHandler } from '../../lib/local/server';
import { indexes, key } from '../../schema/table';
import { buildSubscription, FakeBillingProvider, invokeApi, signedDelivery, TEST_PRICES, TEST_WEBHOOK_SECRET } from '../fakes/billing';
import { contactFor, sendingWorld, type SendingWorld } from './sendingFixtures';

const provider = new FakeBillingProvider();
const NEXT_MONTH = '2026-12-01T08:00:00.000Z';
const held = { sending_status: 'paused', pause_reason: 'monthly_limit' };

/** The billing handler over the world's table and clock; `sending` replaced when a test says so. */
const billingHandlerOf = (world: SendingWorld, sending: SenderWake = new DynamoSendingCursorStore(world.db, world.tableName)) =>
  makeBillingHandler({
    profiles: new DynamoProfileStore(world.db, world.tableName),
    billing: new DynamoBillingStore(world.db, world.tableName),
    provider,
    // Signed at the real time: the verifier checks the 300 s tolerance against it, not the world's clock.
    verifier: new StripeWebhookVerifier({ secret: () => Promise.resolve(TEST_WEBHOOK_SECRET) }),
    sending,
    prices: TEST_PRICES,
    clock: world.clock,
    appUrl: 'https://app.trackpitch.test',
  }) as LambdaHandler;

/** The world's user goes through Checkout (their customer created and linked); returns the customer. */
async function checkedOut(world: SendingWorld, handler: LambdaHandler): Promise<string> {
  const response = await invokeApi(handler, 'POST', '/api/billing/checkout', {
    claims: { sub: world.userId, email: `${world.userId}@artist.test` },
    body: JSON.stringify({ tier: 'pro' }),
  });
  expect(response.status).toBe(200);
  const session = provider.checkoutSessions.at(-1);
  expect(session?.userId).toBe(world.userId);
  return session!.customerId;
}

/** The provider now holds `subscription` for the customer, and says so with a signed webhook. */
async function providerSays(handler: LambdaHandler, customerId: string, subscription: ProviderSubscription | null) {
  provider.setSubscription(customerId, subscription);
  const delivery = signedDelivery('customer.subscription.updated', { customerId });
  const response = await invokeApi(handler, 'POST', '/api/billing/webhook', { body: delivery.body, headers: { 'stripe-signature': delivery.signature! } });
  expect(response.status).toBe(200);
  expect(response.json).toEqual({ received: true, outcome: 'applied' });
}

const usedThisMonth = (world: SendingWorld, sent: number) =>
  world.db.send(
    new PutCommand({
      TableName: world.tableName,
      Item: { PK: key.user(world.userId), SK: key.monthCounter(pacificMonth(world.now)), entity: 'counter', sent },
    }),
  );

/** A user on `tier` whose month is used up to `used`, with a 3-recipient campaign the sender has held at the limit. */
async function heldAtLimit(tier: 'free' | 'pro', used: number) {
  const world = await sendingWorld({ profile: tier === 'free' ? { tier } : { tier, email_limit: 500 } });
  await usedThisMonth(world, used);
  const campaign = await world.draft(3);
  await world.queue(
    campaign,
    [1, 2, 3].map((n) => contactFor(world.userId, n)),
  );
  await world.tick();
  expect(world.mailer.calls).toHaveLength(0);
  expect(await world.campaign(campaign.id)).toMatchObject({ ...held, resume_position: 0 });
  expect((await world.cursor())?.due_at).toBe(NEXT_MONTH);
  return { world, campaign };
}

/** The dispatcher's run at the world's now: the ticks it queued for this user, handed to the sender. */
async function dispatchAndSend(world: SendingWorld): Promise<number> {
  const fifo = new MemoryFifoQueue({ clock: world.clock, visibilityTimeoutMs: 60_000, maxReceiveCount: 5 });
  await makeDispatcher({ cursors: new DynamoSendingCursorStore(world.db, world.tableName), queue: fifo, clock: world.clock, intervalMs: 60_000 })({
    scheduledTime: world.now.toISOString(),
  });
  let ticks = 0;
  for (const message of fifo.receive(1000)) {
    if (message.groupId === world.userId) {
      ticks++;
      expect((await world.deliver(JSON.parse(message.body) as object)).batchItemFailures).toEqual([]);
    }
    fifo.delete(message.receiptHandle);
  }
  return ticks;
}

describe('an upgrade releases campaigns held at the monthly limit at once', () => {
  it.each([
    ['Free at 50 → Pro', 'free', 50, TEST_PRICES.pro, 51],
    ['Pro at 500 → Expert (no monthly cap)', 'pro', 500, TEST_PRICES.label, 501],
  ] as const)('%s: the cursor is due now, the next dispatcher run releases the campaign and sends', async (_name, tier, used, priceId, monthAfter) => {
    const { world, campaign } = await heldAtLimit(tier, used);
    const handler = billingHandlerOf(world);
    const customerId = await checkedOut(world, handler);
    world.advance(10 * 60_000);

    await providerSays(handler, customerId, buildSubscription({ status: 'active', priceId }));
    const cursor = await world.cursor();
    const now = world.now.toISOString();
    expect(cursor?.due_at).toBe(now);
    // In the DUE index at the new time, in the user's shard (as every other due write puts it).
    expect(cursor?.[indexes.due.sortKey]).toBe(key.dueSort(now, world.userId));
    expect(cursor?.[indexes.due.partitionKey]).toBe(key.duePartition(dueShard(world.userId)));
    expect(Object.keys(cursor?.queue ?? {})).toEqual([campaign.id]);

    expect(await dispatchAndSend(world)).toBe(1);
    expect(world.mailer.sent.map((s) => s.at.toISOString())).toEqual([now]);
    expect(await world.counters()).toMatchObject({ month: monthAfter });
    expect(await world.campaign(campaign.id)).toMatchObject({ status: 'sending', sending_status: 'sending', pause_reason: null, emails_sent: 1 });

    await world.runUntilIdle();
    expect(await world.campaign(campaign.id)).toMatchObject({ status: 'completed', emails_sent: 3 });
  });

  it('a downgrade, or a change that keeps the limit, wakes nothing: the held campaign waits for the next Pacific month', async () => {
    const { world, campaign } = await heldAtLimit('pro', 500);
    const handler = billingHandlerOf(world);
    const customerId = await checkedOut(world, handler);
    world.advance(10 * 60_000);

    // Still Pro, now cancelling at period end: the same limit.
    await providerSays(handler, customerId, buildSubscription({ status: 'active', priceId: TEST_PRICES.pro, cancelAtPeriodEnd: true }));
    expect((await world.cursor())?.due_at).toBe(NEXT_MONTH);
    // The subscription deleted: Free, a lower limit.
    await providerSays(handler, customerId, buildSubscription({ status: 'canceled' }));
    expect((await world.item(key.user(world.userId), key.profile()))?.tier).toBe('free');
    expect((await world.cursor())?.due_at).toBe(NEXT_MONTH);

    expect(await dispatchAndSend(world)).toBe(0);
    expect(world.mailer.calls).toHaveLength(0);
    expect(await world.campaign(campaign.id)).toMatchObject(held);
  });

  it('an upgrade of a user with no sending cursor creates none', async () => {
    const world = await sendingWorld({ profile: { tier: 'free' } });
    const handler = billingHandlerOf(world);
    const customerId = await checkedOut(world, handler);
    await providerSays(handler, customerId, buildSubscription({ status: 'active', priceId: TEST_PRICES.pro }));
    expect((await world.item(key.user(world.userId), key.profile()))?.tier).toBe('pro');
    expect(await world.cursor()).toBeUndefined();
  });

  it('a wake that fails does not fail the webhook: the tier is written and the event applied once', async () => {
    const { world } = await heldAtLimit('free', 50);
    // Each wake with the tier the profile had when it came: the write comes first.
    const wakes: { userId: string; tier: unknown }[] = [];
    const failing: SenderWake = {
      wakeSender: async (userId) => {
        wakes.push({ userId, tier: (await world.item(key.user(userId), key.profile()))?.tier });
        throw new Error('DynamoDB is throttling');
      },
    };
    const handler = billingHandlerOf(world, failing);
    const customerId = await checkedOut(world, handler);
    provider.setSubscription(customerId, buildSubscription({ status: 'active', priceId: TEST_PRICES.pro }));
    const delivery = signedDelivery('customer.subscription.updated', { customerId });
    const send = () => invokeApi(handler, 'POST', '/api/billing/webhook', { body: delivery.body, headers: { 'stripe-signature': delivery.signature! } });

    expect((await send()).json).toEqual({ received: true, outcome: 'applied' });
    // The wake was tried once, after the write; the cursor waits for the month as before.
    expect(wakes).toEqual([{ userId: world.userId, tier: 'pro' }]);
    expect((await world.cursor())?.due_at).toBe(NEXT_MONTH);
    expect((await send()).json).toEqual({ received: true, outcome: 'duplicate' });
  });
});

describe('DynamoSendingCursorStore.wakeSender', () => {
  it('makes a later due time now, once; leaves an earlier due time, an idle cursor and a missing cursor as they are', async () => {
    const world = await sendingWorld();
    const store = new DynamoSendingCursorStore(world.db, world.tableName);
    const now = world.now;

    // No cursor: nothing is created.
    expect(await store.wakeSender(world.userId, now)).toBe(false);
    expect(await world.cursor()).toBeUndefined();

    // A campaign scheduled for later: its cursor is due then, and a wake makes it due now (idempotent).
    const later = new Date(now.getTime() + 6 * 3_600_000);
    const campaign = await world.draft(1);
    await world.queue(campaign, [contactFor(world.userId, 1)], later);
    expect((await world.cursor())?.due_at).toBe(later.toISOString());
    expect(await store.wakeSender(world.userId, now)).toBe(true);
    expect((await world.cursor())?.due_at).toBe(now.toISOString());
    expect(await store.wakeSender(world.userId, now)).toBe(false);
    expect((await world.cursor())?.due_at).toBe(now.toISOString());

    // A wake at a later time never moves an earlier due time later.
    expect(await store.wakeSender(world.userId, new Date(now.getTime() + 60_000))).toBe(false);
    expect((await world.cursor())?.due_at).toBe(now.toISOString());

    // The woken cursor sends nothing early: the sender waits for the campaign's time again.
    await world.deliver((await world.dueTick())!);
    expect(world.mailer.calls).toHaveLength(0);
    expect((await world.cursor())?.due_at).toBe(later.toISOString());
  });

  it('leaves an idle cursor idle (out of the DUE index)', async () => {
    const world = await sendingWorld();
    const store = new DynamoSendingCursorStore(world.db, world.tableName);
    const campaign = await world.draft(1);
    await world.queue(campaign, [contactFor(world.userId, 1)]);
    await world.runUntilIdle();
    const idle = await world.cursor();
    expect(idle?.due_at).toBeUndefined();
    expect(await store.wakeSender(world.userId, world.now)).toBe(false);
    expect(await world.cursor()).toEqual(idle);
  });
});
