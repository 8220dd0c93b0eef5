/**
 * The billing webhook under a seeded fault matrix (issue 14 point 9; DESIGN §10), on DynamoDB Local with
 * the real handler, store and verifier and a provider the test drives. Each run is one customer's life:
 * subscribe (Pro or Expert), switch plan, cancel at period end, resume, a failed renewal (past_due), a
 * paid invoice, deletion, resubscribing; each change emits the events Stripe sends for it. Deliveries
 * suffer the faults Stripe's network brings: duplicates, reordering (later events first), a bad or
 * missing signature, a stale timestamp (> 300 s), a replay of an old event after newer ones, a provider
 * outage (500, delivered again), and a slow provider read overtaken by a newer one. Between changes the
 * user's own routes (checkout, portal, PATCH /api/profile) are called too: only the webhook and sync may
 * move a tier.
 *
 * A customer with two live subscriptions (two Checkout tabs paid at once) is its own case: the webhook
 * cancels the newer one (prorated) once, whatever the duplicates and concurrent deliveries, and the
 * profile ends on the kept one's plan.
 *
 * Invariants: after every delivery that applied an event, and at the end of every run, the profile's
 * billing fields equal the mapping of the provider's latest subscription; a refused delivery (400, 500)
 * and a duplicate change nothing; no user route changes billing. Every fault kind must be injected at
 * least MIN_PER_FAULT times (a matrix that injected nothing would prove nothing). Choices are seeded:
 * replay one with BILLING_MATRIX_SEED=<seed> (and BILLING_MATRIX_RUNS=<n>).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamodb/billingStore';
import { DynamoProfileStore } from '../../lambdas/adapters/dynamodb/profileStore';
import { DynamoSendingCursorStore } from '../../lambdas/adapters/dynamodb/sending/cursor';
import { StripeWebhookVerifier } from '../../lambdas/adapters/stripe/webhookVerifier';
import { billingStateOf, type BillingState } from '../../lambdas/core/billing';
import { makeHandler } from '../../lambdas/http/billing';
import { makeHandler as makeProfileHandler } from '../../lambdas/http/profile';
import type { ProviderSubscription } from '../../lambdas/ports';
import type { LambdaHandler } from '../../lib/local/server';
import { key } from '../../schema/table';
import { buildProfile } from '../fakes/builders';
import { FakeBillingProvider, invokeApi, signatureHeader, stripeEventBody, TEST_PRICES, TEST_WEBHOOK_SECRET, type EventFacts } from '../fakes/billing';
import { mulberry32, type Rng } from '../fakes/pipeline';
import { dynamodb, stack } from './helpers';

const RUNS = Number(process.env.BILLING_MATRIX_RUNS ?? 60);
const SEED = Number(process.env.BILLING_MATRIX_SEED ?? 20261126);
const MIN_PER_FAULT = Math.max(1, Math.floor(RUNS / 6));
const DAY_MS = 86_400_000;

const faultKinds = ['duplicate', 'reorder', 'bad_signature', 'stale_timestamp', 'replay', 'provider_down', 'slow_read', 'user_routes'] as const;
type FaultKind = (typeof faultKinds)[number];

/** Time that moves a millisecond at each reading (so every provider read starts at its own instant) and as the run says. */
class TickingClock {
  constructor(private ms: number) {}
  now(): Date {
    this.ms += 1;
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  seconds(): number {
    return Math.floor(this.ms / 1000);
  }
}

const clock = new TickingClock(Date.parse('2026-11-26T00:00:00.000Z'));
const provider = new FakeBillingProvider();
const db = dynamodb().doc;
const tableName = stack().tableName;
const store = new DynamoBillingStore(db, tableName);
const profiles = new DynamoProfileStore(db, tableName);
const billingHandler = makeHandler({
  profiles,
  billing: store,
  provider,
  verifier: new StripeWebhookVerifier({ secret: () => Promise.resolve(TEST_WEBHOOK_SECRET), clock }),
  sending: new DynamoSendingCursorStore(db, tableName),
  prices: TEST_PRICES,
  clock,
  appUrl: 'https://app.trackpitch.test',
}) as LambdaHandler;
const profileHandler = makeProfileHandler({ profiles, clock }) as LambdaHandler;

/** An event type the webhook acknowledges and ignores. */
const UNHANDLED = 'customer.updated';

type Step = 'subscribe' | 'switch' | 'cancel_at_period_end' | 'resume' | 'payment_failed' | 'paid' | 'deleted';

interface PendingEvent {
  id: string;
  type: string;
  body: string;
  /** Signed at this time the first time it was sent (an old event replayed with its own signature is stale). */
  firstSignedAt?: number;
}

const live = (subscription: ProviderSubscription | null) => subscription !== null && ['active', 'trialing', 'past_due'].includes(subscription.status);

/** The provider's change for a step, and the events Stripe sends for it. */
function change(step: Step, current: ProviderSubscription | null, rng: Rng, runId: string, n: number): { next: ProviderSubscription; events: string[] } {
  const periodEnd = (days: number) => new Date(Date.parse('2026-12-26T00:00:00.000Z') + days * DAY_MS).toISOString();
  const base = current ?? {
    id: `sub_${runId}_${n}`,
    status: 'active' as const,
    priceId: TEST_PRICES.pro,
    currentPeriodEnd: periodEnd(n * 30),
    cancelAtPeriodEnd: false,
  };
  switch (step) {
    case 'subscribe':
      return {
        next: {
          id: `sub_${runId}_${n}`,
          status: 'active',
          priceId: rng.pick([TEST_PRICES.pro, TEST_PRICES.label]),
          currentPeriodEnd: periodEnd(n * 30),
          cancelAtPeriodEnd: false,
        },
        events: ['customer.subscription.created', 'checkout.session.completed', 'invoice.paid'],
      };
    case 'switch':
      return {
        next: { ...base, priceId: base.priceId === TEST_PRICES.pro ? TEST_PRICES.label : TEST_PRICES.pro },
        events: ['customer.subscription.updated', 'invoice.paid'],
      };
    case 'cancel_at_period_end':
      return { next: { ...base, cancelAtPeriodEnd: true }, events: ['customer.subscription.updated'] };
    case 'resume':
      return { next: { ...base, cancelAtPeriodEnd: false }, events: ['customer.subscription.updated'] };
    case 'payment_failed':
      return { next: { ...base, status: 'past_due' }, events: ['invoice.payment_failed', 'customer.subscription.updated'] };
    case 'paid':
      return { next: { ...base, status: 'active', currentPeriodEnd: periodEnd(n * 30 + 30) }, events: ['invoice.paid', 'customer.subscription.updated'] };
    case 'deleted':
      return { next: { ...base, status: 'canceled', cancelAtPeriodEnd: false }, events: ['customer.subscription.deleted'] };
  }
}

function nextStep(rng: Rng, current: ProviderSubscription | null): Step {
  if (!live(current)) return 'subscribe';
  return rng.pick<Step>([
    'switch',
    current?.cancelAtPeriodEnd ? 'resume' : 'cancel_at_period_end',
    current?.status === 'past_due' ? 'paid' : 'payment_failed',
    'deleted',
  ]);
}

const billingOf = (item: Record<string, unknown> | undefined): BillingState | undefined =>
  item && {
    tier: item.tier as BillingState['tier'],
    email_limit: item.email_limit as BillingState['email_limit'],
    subscription_status: item.subscription_status as BillingState['subscription_status'],
    subscription_end: item.subscription_end as BillingState['subscription_end'],
    cancel_at_period_end: item.cancel_at_period_end as BillingState['cancel_at_period_end'],
  };

const profileItem = async (userId: string) =>
  (await db.send(new GetCommand({ TableName: tableName, Key: { PK: key.user(userId), SK: key.profile() }, ConsistentRead: true }))).Item;

interface Totals {
  runs: number;
  steps: number;
  events: number;
  deliveries: number;
  faults: Record<FaultKind, number>;
  violations: string[];
}

async function runOnce(seed: number, run: number, totals: Totals): Promise<void> {
  const rng = mulberry32(seed * 1000 + run);
  const runId = `${seed}_${run}_${randomUUID().slice(0, 8)}`;
  const userId = `matrix-${runId}`;
  const customerId = `cus_${runId}`;
  const violation = (what: string) => totals.violations.push(`seed ${seed} run ${run}: ${what}`);
  const fault = (kind: FaultKind) => (totals.faults[kind] += 1);
  await profiles.createIfMissing(buildProfile({ id: userId, email: `${userId}@artist.test` }));
  // Checkout links the customer before the session (the events' client_reference_id links nothing).
  await store.linkCustomer(userId, customerId);
  provider.setSubscription(customerId, null);
  const expected = () => billingStateOf(provider.subscriptions.get(customerId) ?? null, TEST_PRICES);

  const pending: PendingEvent[] = [];
  const applied: PendingEvent[] = [];

  const send = (event: PendingEvent, signature: string | undefined, body = event.body) =>
    invokeApi(billingHandler, 'POST', '/api/billing/webhook', {
      body,
      headers: signature === undefined ? {} : { 'stripe-signature': signature },
    });

  /** A delivery that must be refused and change nothing (the profile item, the event's record). */
  const refused = async (event: PendingEvent, signature: string | undefined, body: string, status: number, kind: FaultKind) => {
    fault(kind);
    totals.deliveries += 1;
    const before = [await profileItem(userId), await store.wasApplied(event.id)];
    const response = await send(event, signature, body);
    if (response.status !== status) violation(`${kind} delivery of ${event.type} answered ${response.status}, expected ${status}`);
    const after = [await profileItem(userId), await store.wasApplied(event.id)];
    if (JSON.stringify(before) !== JSON.stringify(after)) violation(`${kind} delivery of ${event.type} changed the profile or the event record`);
  };

  /** A delivery that must be a no-op 200 (duplicate, replay). */
  const noop = async (event: PendingEvent, signature: string, kind: FaultKind) => {
    fault(kind);
    totals.deliveries += 1;
    const before = await profileItem(userId);
    const response = await send(event, signature);
    const expectedOutcome = event.type === UNHANDLED ? 'ignored' : 'duplicate';
    if (response.status !== 200 || response.json?.outcome !== expectedOutcome)
      violation(`${kind} of ${event.type} answered ${response.status} ${JSON.stringify(response.json)}`);
    if (JSON.stringify(before) !== JSON.stringify(await profileItem(userId))) violation(`${kind} of ${event.type} changed the profile`);
  };

  /** Whether delivering the event reads the provider: a handled type of a known customer, or the Checkout that links it. */
  const readsProvider = async (event: PendingEvent) =>
    event.type !== UNHANDLED && (event.type === 'checkout.session.completed' || (await store.customerOf(userId)) !== undefined);

  const checkApplied = async (event: PendingEvent, outcome: unknown) => {
    if (outcome !== 'applied') return;
    const stored = billingOf(await profileItem(userId));
    if (JSON.stringify(stored) !== JSON.stringify(expected())) {
      violation(`after ${event.type} the profile says ${JSON.stringify(stored)}, the provider ${JSON.stringify(expected())}`);
    }
  };

  /** The genuine delivery of a pending event (preceded by refused attempts, followed by duplicates, as the faults fall). */
  const deliver = async (index: number, { reordered = index > 0 } = {}) => {
    const event = pending[index]!;
    if (reordered) fault('reorder');
    if (rng.chance(0.2)) {
      const spoil = rng.int(4);
      const fresh = signatureHeader(event.body, { timestamp: clock.seconds() });
      if (spoil === 0) await refused(event, undefined, event.body, 400, 'bad_signature');
      else if (spoil === 1)
        await refused(event, signatureHeader(event.body, { secret: 'whsec_attacker', timestamp: clock.seconds() }), event.body, 400, 'bad_signature');
      else if (spoil === 2) await refused(event, fresh, event.body.replace(customerId, `cus_other_${runId}`), 400, 'bad_signature');
      else
        await refused(
          event,
          fresh.replace(/v1=([0-9a-f])/, (_m, c: string) => `v1=${c === '0' ? '1' : '0'}`),
          event.body,
          400,
          'bad_signature',
        );
    }
    if (rng.chance(0.15))
      await refused(event, signatureHeader(event.body, { timestamp: clock.seconds() - rng.between(301, 3600) }), event.body, 400, 'stale_timestamp');
    if (rng.chance(0.1) && (await readsProvider(event))) {
      provider.failing = true;
      try {
        await refused(event, signatureHeader(event.body, { timestamp: clock.seconds() }), event.body, 500, 'provider_down');
      } finally {
        provider.failing = false;
      }
    }
    totals.deliveries += 1;
    event.firstSignedAt ??= clock.seconds();
    const response = await send(event, signatureHeader(event.body, { timestamp: clock.seconds() }));
    const outcome = response.json?.outcome;
    const expectedOutcomes = event.type === UNHANDLED ? ['ignored'] : ['applied', 'unknown_customer'];
    if (response.status !== 200 || !expectedOutcomes.includes(String(outcome))) {
      violation(`delivery of ${event.type} answered ${response.status} ${JSON.stringify(response.json)}`);
    }
    pending.splice(index, 1);
    applied.push(event);
    await checkApplied(event, outcome);
    if (rng.chance(0.25)) await noop(event, signatureHeader(event.body, { timestamp: clock.seconds() }), 'duplicate');
  };

  /** Delivers some pending events, later ones first when reordering falls. */
  const deliverSome = async (count: number) => {
    for (let i = 0; i < count && pending.length > 0; i++) await deliver(rng.chance(0.4) ? rng.int(pending.length) : 0);
  };

  const emit = (types: string[], subscription: ProviderSubscription) => {
    for (const type of types) {
      const id = `evt_${runId}_${totals.events++}`;
      const facts: EventFacts = {
        id,
        customerId,
        subscription,
        created: clock.seconds(),
        ...(type === 'checkout.session.completed' ? { clientReferenceId: userId } : {}),
      };
      pending.push({ id, type, body: stripeEventBody(type, facts) });
    }
    // Now and then an event type the webhook does not handle.
    if (rng.chance(0.15)) {
      const id = `evt_${runId}_${totals.events++}`;
      pending.push({ id, type: UNHANDLED, body: stripeEventBody(UNHANDLED, { id, customerId }) });
    }
  };

  const steps = rng.between(3, 8);
  for (let n = 0; n < steps; n++) {
    totals.steps += 1;
    clock.advance(rng.between(1, 120) * 1000);
    const step = nextStep(rng, provider.subscriptions.get(customerId) ?? null);
    const { next, events } = change(step, provider.subscriptions.get(customerId) ?? null, rng, runId, n);

    // A slow read: an older event's provider read is taken before this change and answers after it, once
    // this change's own event has been applied. Its write must lose to the newer read's. (Only an event
    // that reads the provider: a handled type of a known customer, or the Checkout that links it.)
    const readers: PendingEvent[] = [];
    for (const event of pending) if (await readsProvider(event)) readers.push(event);
    const slow = readers.length > 0 && rng.chance(0.3) ? rng.pick(readers) : undefined;
    let slowDelivery: Promise<Awaited<ReturnType<typeof send>>> | undefined;
    let hold: ReturnType<FakeBillingProvider['holdNextRead']> | undefined;
    if (slow) {
      pending.splice(pending.indexOf(slow), 1);
      fault('slow_read');
      hold = provider.holdNextRead();
      totals.deliveries += 1;
      slowDelivery = send(slow, signatureHeader(slow.body, { timestamp: clock.seconds() }));
      const first = await Promise.race([hold.started.then(() => 'read' as const), slowDelivery.then(() => 'answered' as const)]);
      if (first !== 'read') throw new Error(`seed ${seed} run ${run}: the slow delivery of ${slow.type} answered without reading the provider`);
    }

    provider.setSubscription(customerId, next);
    const firstNew = pending.length;
    emit(events, next);

    if (slow && slowDelivery && hold) {
      // This change's first event, applied in full while the slow read is still out.
      await deliver(firstNew, { reordered: false });
      hold.release();
      const response = await slowDelivery;
      applied.push(slow);
      if (response.status !== 200) violation(`slow delivery of ${slow.type} answered ${response.status}`);
      await checkApplied(slow, response.json?.outcome);
    }

    await deliverSome(rng.between(0, pending.length));

    // Replays of old events after newer ones: re-signed now (Stripe's retry) they are duplicates; with their own old signature, stale.
    if (applied.length > 1 && rng.chance(0.35)) {
      const old = applied[rng.int(applied.length - 1)]!;
      if (old.firstSignedAt !== undefined && clock.seconds() - old.firstSignedAt > 300 && rng.chance(0.5)) {
        await refused(old, signatureHeader(old.body, { timestamp: old.firstSignedAt }), old.body, 400, 'stale_timestamp');
      }
      await noop(old, signatureHeader(old.body, { timestamp: clock.seconds() }), 'replay');
    }

    // The user's own routes never move billing (the caller is the verified token's user).
    if (rng.chance(0.3) && (await store.customerOf(userId)) !== undefined) {
      fault('user_routes');
      const claims = { sub: userId, email: `${userId}@artist.test` };
      const before = billingOf(await profileItem(userId));
      const checkout = await invokeApi(billingHandler, 'POST', '/api/billing/checkout', { claims, body: JSON.stringify({ tier: rng.pick(['pro', 'label']) }) });
      const portal = await invokeApi(billingHandler, 'POST', '/api/billing/portal', { claims });
      const patch = await invokeApi(profileHandler, 'PATCH', '/api/profile', {
        claims,
        body: JSON.stringify({ tier: 'label', email_limit: null, subscription_status: 'active' }),
      });
      if (checkout.status !== 200 || portal.status !== 200 || patch.status !== 400)
        violation(`user routes answered ${checkout.status} ${portal.status} ${patch.status}`);
      if (JSON.stringify(before) !== JSON.stringify(billingOf(await profileItem(userId)))) violation('a user route changed billing');
    }
  }

  // Stripe delivers everything in the end.
  clock.advance(60_000);
  while (pending.length > 0) await deliverSome(pending.length);
  const final = billingOf(await profileItem(userId));
  if (JSON.stringify(final) !== JSON.stringify(expected()))
    violation(`at the end the profile says ${JSON.stringify(final)}, the provider ${JSON.stringify(expected())}`);
  for (const event of applied) if (!(await store.wasApplied(event.id)) && event.type !== UNHANDLED) violation(`${event.type} ${event.id} was never recorded`);
  totals.runs += 1;
}

describe('two live subscriptions of one customer (two Checkout tabs paid)', () => {
  it('cancels the newer one once, under duplicate and concurrent deliveries; the profile is on the kept one’s plan', async () => {
    const runId = randomUUID().slice(0, 8);
    const userId = `matrix-two-tabs-${runId}`;
    const customerId = `cus_two_tabs_${runId}`;
    await profiles.createIfMissing(buildProfile({ id: userId, email: `${userId}@artist.test` }));
    await store.linkCustomer(userId, customerId);
    const created = clock.seconds();
    const subscription = (id: string, priceId: string, at: number) => ({
      id,
      status: 'active' as const,
      priceId,
      currentPeriodEnd: '2026-12-26T00:00:00.000Z',
      cancelAtPeriodEnd: false,
      created: at,
    });
    const kept = subscription(`sub_first_${runId}`, TEST_PRICES.pro, created);
    const newer = subscription(`sub_second_${runId}`, TEST_PRICES.label, created + 40);
    provider.setSubscriptions(customerId, [newer, kept]);
    const deliver = (type: string, id = `evt_two_tabs_${runId}_${type}`) => {
      const body = stripeEventBody(type, { id, customerId, subscription: newer, created: clock.seconds() });
      return invokeApi(billingHandler, 'POST', '/api/billing/webhook', {
        body,
        headers: { 'stripe-signature': signatureHeader(body, { timestamp: clock.seconds() }) },
      });
    };

    // The newer subscription's events arrive together (concurrent), and one of them twice.
    const answers = await Promise.all(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed'].map((type) => deliver(type)));
    expect(answers.map((a) => [a.status, a.json?.outcome])).toEqual([
      [200, 'applied'],
      [200, 'applied'],
      [200, 'applied'],
    ]);
    const duplicate = await deliver('customer.subscription.created');
    expect([duplicate.status, duplicate.json?.outcome]).toEqual([200, 'duplicate']);

    const cancels = provider.cancellations.filter((c) => c.customerId === customerId);
    expect(cancels.every((c) => c.subscriptionId === newer.id)).toBe(true);
    expect(cancels.filter((c) => c.outcome === 'canceled')).toHaveLength(1);
    expect(await provider.liveSubscriptions(customerId)).toEqual([{ id: kept.id, status: 'active', created }]);
    expect(billingOf(await profileItem(userId))).toEqual(billingStateOf(provider.subscriptions.get(customerId) ?? null, TEST_PRICES));
    expect(billingOf(await profileItem(userId))?.tier).toBe('pro');

    // A later event finds one live subscription: nothing more is cancelled.
    expect((await deliver('customer.subscription.updated')).status).toBe(200);
    expect(provider.cancellations.filter((c) => c.customerId === customerId && c.outcome === 'canceled')).toHaveLength(1);

    // Two tabs again; this delivery lists both, but a concurrent one cancels the newer first: applied, not failed.
    const third = subscription(`sub_third_${runId}`, TEST_PRICES.label, created + 80);
    provider.setSubscriptions(customerId, [kept, { ...newer, status: 'canceled' }, third]);
    provider.cancelledMeanwhile = true;
    const raced = await deliver('invoice.paid', `evt_two_tabs_${runId}_raced`);
    expect([raced.status, raced.json?.outcome]).toEqual([200, 'applied']);
    expect(provider.cancellations.at(-1)).toEqual({ customerId, subscriptionId: third.id, outcome: 'already_ended' });
    expect(billingOf(await profileItem(userId))?.tier).toBe('pro');
  });
});

describe('the billing webhook fault matrix', () => {
  it(`${RUNS} seeded runs (seed ${SEED}): the profile always ends as the provider's latest subscription`, { timeout: 600_000 }, async () => {
    const totals: Totals = {
      runs: 0,
      steps: 0,
      events: 0,
      deliveries: 0,
      faults: Object.fromEntries(faultKinds.map((k) => [k, 0])) as Record<FaultKind, number>,
      violations: [],
    };
    for (let run = 0; run < RUNS; run++) await runOnce(SEED, run, totals);
    console.log(
      `billing webhook matrix: seed ${SEED}, runs ${totals.runs}, steps ${totals.steps}, events ${totals.events}, deliveries ${totals.deliveries}, ` +
        `faults ${JSON.stringify(totals.faults)}, violations ${totals.violations.length}`,
    );
    expect(totals.violations.slice(0, 20)).toEqual([]);
    expect(totals.runs).toBe(RUNS);
    for (const kind of faultKinds) expect(totals.faults[kind], `${kind} injected`).toBeGreaterThanOrEqual(MIN_PER_FAULT);
  });
});
