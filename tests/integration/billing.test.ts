/**
 * The billing routes end to end over real HTTP (spec §7 sync-subscription, create-checkout,
 * manage-subscription; DESIGN §10): the local server (JWT authorizer → lambdas/http/billing.ts → DynamoDB
 * Local) with a provider the test drives (tests/fakes/billing.ts) and the real webhook verifier. The user
 * id comes only from the token; the webhook's user only from its signed body; the tier changes only
 * through the verified webhook and sync.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamodb/billingStore';
import { DynamoProfileStore } from '../../lambdas/adapters/dynamodb/profileStore';
import { DynamoSendingCursorStore } from '../../lambdas/adapters/dynamodb/sending/cursor';
import { StripeWebhookVerifier } from '../../lambdas/adapters/stripe/webhookVerifier';
import { billingDeps } from '../../lambdas/composition/billing';
import { makeHandler, type BillingDeps } from '../../lambdas/http/billing';
import { importHandler, type LambdaHandler, type LocalServer } from '../../lib/local/server';
import { NOT_CONFIGURED } from '../../schema/api/serverMessages';
import { key } from '../../schema/table';
import {
  buildSubscription,
  FakeBillingProvider,
  invokeApi,
  signatureHeader,
  signedDelivery,
  stripeEventBody,
  TEST_PRICES,
  TEST_WEBHOOK_SECRET,
  type Delivery,
  type InvokeOptions,
} from '../fakes/billing';
import { MetricNames } from '../../schema/metrics';
import { RecordingMetrics } from '../fakes/metrics';
import { callAt, createUser, dynamodb, stack, stackConfig, startServer, type TestUser } from './helpers';

const provider = new FakeBillingProvider();
const metrics = new RecordingMetrics();
let api: LocalServer;

beforeAll(async () => {
  const db = dynamodb().doc;
  const tableName = stack().tableName;
  let billing: LambdaHandler | undefined;
  // The public webhook's throttle (20/s, burst 40) is not what this file tests: the server's clock moves a
  // second per reading, so its bucket never empties.
  let seconds = 0;
  api = await startServer({
    now: () => Date.now() + ++seconds * 1000,
    loadHandler: async (group) => {
      if (group !== 'billing') return importHandler(group, stackConfig());
      billing ??= makeHandler({
        profiles: new DynamoProfileStore(db, tableName),
        billing: new DynamoBillingStore(db, tableName),
        provider,
        verifier: new StripeWebhookVerifier({ secret: () => Promise.resolve(TEST_WEBHOOK_SECRET) }),
        sending: new DynamoSendingCursorStore(db, tableName),
        prices: TEST_PRICES,
        clock: { now: () => new Date() },
        appUrl: 'https://app.trackpitch.test',
        metrics,
      }) as LambdaHandler;
      return billing;
    },
  });
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when beforeAll failed before setting it
  await api?.close();
});

const request = (path: string, options: Parameters<ReturnType<typeof callAt>>[1] = {}) => callAt(api.url)(path, { method: 'POST', ...options });
const sync = (user: TestUser, body?: unknown) => request('/api/billing/sync', { token: user.idToken, body });
const checkout = (user: TestUser, body: unknown) => request('/api/billing/checkout', { token: user.idToken, body });
const portal = (user: TestUser, body?: unknown) => request('/api/billing/portal', { token: user.idToken, body });
const deliver = (delivery: Delivery, options: { path?: string; headers?: Record<string, string> } = {}) =>
  request(options.path ?? '/api/billing/webhook', {
    body: delivery.body,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(delivery.signature === undefined ? {} : { 'stripe-signature': delivery.signature }),
      ...options.headers,
    },
  });

const db = () => dynamodb().doc;
const item = async (PK: string, SK: string) => (await db().send(new GetCommand({ TableName: stack().tableName, Key: { PK, SK } }))).Item;
const storedProfile = (user: TestUser) => item(key.user(user.sub), key.profile());
const customerOf = async (user: TestUser) => (await item(key.user(user.sub), key.billingCustomer()))?.customerId as string | undefined;
const eventApplied = async (id: string) => (await item(key.billingEventPartition(id), key.billingEventSort())) !== undefined;

/** A user who went through checkout: has a customer, and (unless `subscribe` is false) an active Pro subscription applied by the webhook. */
async function subscribedUser(
  subscription = buildSubscription({ status: 'active', priceId: TEST_PRICES.pro }),
): Promise<{ user: TestUser; customerId: string }> {
  const user = await createUser();
  expect((await checkout(user, { tier: 'pro' })).status).toBe(200);
  const customerId = (await customerOf(user))!;
  provider.setSubscription(customerId, subscription);
  const response = await deliver(signedDelivery('checkout.session.completed', { customerId, clientReferenceId: user.sub, subscription }));
  expect(response.status, response.text).toBe(200);
  return { user, customerId };
}

const billingFields = (profile: Record<string, unknown> | undefined) => ({
  tier: profile?.tier,
  email_limit: profile?.email_limit,
  subscription_status: profile?.subscription_status,
  subscription_end: profile?.subscription_end,
  cancel_at_period_end: profile?.cancel_at_period_end,
});

describe('POST /api/billing/sync', () => {
  it("a user who never checked out gets the profile's Free state, without asking the provider", async () => {
    const user = await createUser();
    const reads = provider.reads.length;
    const response = await sync(user);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      subscribed: false,
      tier: 'free',
      email_limit: 50,
      subscription_end: null,
      subscription_status: 'none',
      cancel_at_period_end: false,
    });
    expect(provider.reads.length).toBe(reads);
  });

  it('re-reads the provider and writes its state: sync alone brings a checkout that beat the webhook', async () => {
    const user = await createUser();
    await checkout(user, { tier: 'label' });
    const customerId = (await customerOf(user))!;
    provider.setSubscription(customerId, buildSubscription({ status: 'active', priceId: TEST_PRICES.label, currentPeriodEnd: '2026-12-30T00:00:00.000Z' }));
    const response = await sync(user);
    expect(response.json).toEqual({
      subscribed: true,
      tier: 'label',
      email_limit: null,
      subscription_end: '2026-12-30T00:00:00.000Z',
      subscription_status: 'active',
      cancel_at_period_end: false,
    });
    expect(billingFields(await storedProfile(user))).toEqual({
      tier: 'label',
      email_limit: null,
      subscription_status: 'active',
      subscription_end: '2026-12-30T00:00:00.000Z',
      cancel_at_period_end: false,
    });
  });

  it('a provider failure is a 502 with a clear message, and the profile is unchanged', async () => {
    const { user } = await subscribedUser();
    const before = await storedProfile(user);
    provider.failing = true;
    try {
      const response = await sync(user);
      expect(response.status).toBe(502);
      expect(response.json?.message).toMatch(/billing provider did not answer/);
    } finally {
      provider.failing = false;
    }
    expect(await storedProfile(user)).toEqual(before);
  });

  it('a live subscription on a price config does not name is a 500 (our misconfiguration), never a silent Free', async () => {
    const { user, customerId } = await subscribedUser();
    provider.setSubscription(customerId, buildSubscription({ status: 'active', priceId: 'price_not_configured' }));
    const response = await sync(user);
    expect(response.status).toBe(500);
    expect((await storedProfile(user))?.tier).toBe('pro');
  });

  it("syncs the caller's own customer whatever the body names", async () => {
    const { customerId: aCustomer } = await subscribedUser();
    const b = await createUser();
    const response = await sync(b, { customerId: aCustomer, userId: 'someone' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ subscribed: false, tier: 'free' });
    expect((await storedProfile(b))?.tier).toBe('free');
  });

  it('needs a token', async () => {
    expect((await request('/api/billing/sync')).status).toBe(401);
  });
});

describe('POST /api/billing/checkout', () => {
  it("creates the user's customer with the token's email, links it both ways, and starts Checkout on the configured price", async () => {
    const user = await createUser();
    const response = await checkout(user, { tier: 'pro' });
    expect(response.status, response.text).toBe(200);
    expect(response.json?.url).toMatch(/^https:\/\/checkout\.fake\.test\/session\/\d+$/);
    const customerId = (await customerOf(user))!;
    expect(provider.customers.get(customerId)).toEqual({ userId: user.sub, email: user.email });
    expect((await item(key.customerPartition(customerId), key.customerSort()))?.userId).toBe(user.sub);
    expect(provider.checkoutSessions.at(-1)).toEqual({
      customerId,
      userId: user.sub,
      priceId: 'price_test_pro',
      successUrl: 'https://app.trackpitch.test/dashboard/subscription?success=true',
      cancelUrl: 'https://app.trackpitch.test/dashboard/subscription?canceled=true',
    });
    // Checkout alone changes no tier: only the verified webhook or sync does.
    expect((await storedProfile(user))?.tier).toBe('free');
  });

  it('Expert is the label price; a second checkout reuses the customer', async () => {
    const user = await createUser();
    await checkout(user, { tier: 'pro' });
    const customerId = await customerOf(user);
    const customers = provider.customers.size;
    const response = await checkout(user, { tier: 'label' });
    expect(response.status).toBe(200);
    expect(provider.customers.size).toBe(customers);
    expect(provider.checkoutSessions.at(-1)).toMatchObject({ customerId, priceId: 'price_test_label' });
  });

  it('two concurrent first checkouts leave one linked customer, and both sessions use it', async () => {
    const user = await createUser();
    const sessions = provider.checkoutSessions.length;
    const responses = await Promise.all([checkout(user, { tier: 'pro' }), checkout(user, { tier: 'pro' }), checkout(user, { tier: 'label' })]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const customerId = await customerOf(user);
    expect(customerId).toBeDefined();
    expect(provider.checkoutSessions.slice(sessions).map((s) => s.customerId)).toEqual([customerId, customerId, customerId]);
  });

  it('a subscribed user is sent to the portal instead (one subscription per customer)', async () => {
    const { user, customerId } = await subscribedUser();
    const sessions = provider.checkoutSessions.length;
    const response = await checkout(user, { tier: 'label' });
    expect(response.status).toBe(200);
    expect(response.json?.url).toMatch(/^https:\/\/portal\.fake\.test\//);
    expect(provider.checkoutSessions.length).toBe(sessions);
    expect(provider.portalSessions.at(-1)).toEqual({ customerId, returnUrl: 'https://app.trackpitch.test/dashboard/subscription' });
  });

  it('a past_due user also goes to the portal; a canceled one gets a new Checkout', async () => {
    const { user, customerId } = await subscribedUser();
    provider.setSubscription(customerId, buildSubscription({ status: 'past_due' }));
    expect((await checkout(user, { tier: 'pro' })).json?.url).toMatch(/portal\.fake\.test/);
    provider.setSubscription(customerId, buildSubscription({ status: 'canceled' }));
    expect((await checkout(user, { tier: 'pro' })).json?.url).toMatch(/checkout\.fake\.test/);
  });

  it.each([
    ['no body', undefined, /JSON body/],
    ['an empty object', {}, /tier/],
    ['the free tier', { tier: 'free' }, /Choose the Pro or Expert plan/],
    ['an unknown tier', { tier: 'gold' }, /Choose the Pro or Expert plan/],
    ['a price id from the browser', { tier: 'pro', priceId: 'price_cheap' }, /Unknown field: priceId/],
    ["another user's customer", { tier: 'pro', customerId: 'cus_fake_1' }, /Unknown field: customerId/],
    ['not JSON', '{tier:', /not valid JSON/],
  ])('refuses %s with a 400 and creates nothing', async (_name, body, message) => {
    const user = await createUser();
    const customers = provider.customers.size;
    const sessions = provider.checkoutSessions.length;
    const response = await checkout(user, body);
    expect(response.status).toBe(400);
    expect(response.json?.message).toMatch(message);
    expect(provider.customers.size).toBe(customers);
    expect(provider.checkoutSessions.length).toBe(sessions);
    expect(await customerOf(user)).toBeUndefined();
  });

  it('a provider failure is a 502', async () => {
    const user = await createUser();
    provider.failing = true;
    try {
      const response = await checkout(user, { tier: 'pro' });
      expect(response.status).toBe(502);
      expect(response.json?.message).toMatch(/billing provider did not answer \(create customer\)/);
    } finally {
      provider.failing = false;
    }
  });
});

describe('POST /api/billing/portal', () => {
  it("opens the portal of the caller's customer with the return URL", async () => {
    const { user, customerId } = await subscribedUser();
    const response = await portal(user);
    expect(response.status).toBe(200);
    expect(response.json?.url).toMatch(/^https:\/\/portal\.fake\.test\//);
    expect(provider.portalSessions.at(-1)).toEqual({ customerId, returnUrl: 'https://app.trackpitch.test/dashboard/subscription' });
  });

  it("is a 404 with a clear message for a user with no customer, whatever the body names (never another's portal)", async () => {
    const { customerId: aCustomer } = await subscribedUser();
    const b = await createUser();
    const sessions = provider.portalSessions.length;
    const response = await portal(b, { customerId: aCustomer });
    expect(response.status).toBe(404);
    expect(response.json?.message).toBe('No billing account yet: choose a plan first.');
    expect(provider.portalSessions.length).toBe(sessions);
  });
});

describe('POST /api/billing/webhook', () => {
  it('a completed Checkout makes the user Pro from the provider, then answers duplicates without work', async () => {
    const user = await createUser();
    await checkout(user, { tier: 'pro' });
    const customerId = (await customerOf(user))!;
    provider.setSubscription(customerId, buildSubscription({ status: 'active', priceId: TEST_PRICES.pro, currentPeriodEnd: '2026-12-26T00:00:00.000Z' }));
    const delivery = signedDelivery('checkout.session.completed', { customerId, clientReferenceId: user.sub });
    const eventId = (JSON.parse(delivery.body) as { id: string }).id;
    const first = await deliver(delivery);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ received: true, outcome: 'applied' });
    expect(billingFields(await storedProfile(user))).toEqual({
      tier: 'pro',
      email_limit: 500,
      subscription_status: 'active',
      subscription_end: '2026-12-26T00:00:00.000Z',
      cancel_at_period_end: false,
    });
    expect(await eventApplied(eventId)).toBe(true);
    const reads = provider.reads.length;
    const again = await deliver(delivery);
    expect(again.json).toEqual({ received: true, outcome: 'duplicate' });
    expect(provider.reads.length).toBe(reads);
  });

  it("does not trust the payload: an 'updated' saying canceled while the provider says active keeps the plan", async () => {
    const { user, customerId } = await subscribedUser();
    const response = await deliver(signedDelivery('customer.subscription.updated', { customerId, subscription: buildSubscription({ status: 'canceled' }) }));
    expect(response.status).toBe(200);
    expect((await storedProfile(user))?.tier).toBe('pro');
  });

  it('cancel at period end, failed payment and deletion follow the provider', async () => {
    const { user, customerId } = await subscribedUser();
    provider.setSubscription(customerId, buildSubscription({ status: 'active', cancelAtPeriodEnd: true }));
    await deliver(signedDelivery('customer.subscription.updated', { customerId }));
    expect(billingFields(await storedProfile(user))).toMatchObject({ tier: 'pro', cancel_at_period_end: true });
    provider.setSubscription(customerId, buildSubscription({ status: 'past_due' }));
    await deliver(signedDelivery('invoice.payment_failed', { customerId }));
    expect(billingFields(await storedProfile(user))).toMatchObject({ tier: 'pro', subscription_status: 'past_due', email_limit: 500 });
    provider.setSubscription(customerId, buildSubscription({ status: 'canceled' }));
    await deliver(signedDelivery('customer.subscription.deleted', { customerId }));
    expect(billingFields(await storedProfile(user))).toEqual({
      tier: 'free',
      email_limit: 50,
      subscription_status: 'canceled',
      subscription_end: null,
      cancel_at_period_end: false,
    });
  });

  it.each([
    ['a missing signature', (d: Delivery): Delivery => ({ body: d.body, signature: undefined })],
    ['another secret', (d: Delivery): Delivery => ({ body: d.body, signature: signatureHeader(d.body, { secret: 'whsec_attacker' }) })],
    [
      'a stale signature (301 s)',
      (d: Delivery): Delivery => ({ body: d.body, signature: signatureHeader(d.body, { timestamp: Math.floor(Date.now() / 1000) - 301 }) }),
    ],
    ['a body altered after signing', (d: Delivery): Delivery => ({ body: d.body.replace('"livemode":false', '"livemode":true'), signature: d.signature })],
  ])('%s is a 400 and changes nothing', async (_name, spoil) => {
    const { user, customerId } = await subscribedUser();
    provider.setSubscription(customerId, buildSubscription({ status: 'canceled' }));
    const before = await storedProfile(user);
    const good = signedDelivery('customer.subscription.deleted', { customerId });
    const reads = provider.reads.length;
    const response = await deliver(spoil(good));
    expect(response.status).toBe(400);
    expect(response.json?.code).toBe('invalid_signature');
    expect(await storedProfile(user)).toEqual(before);
    expect(provider.reads.length).toBe(reads);
    expect(await eventApplied((JSON.parse(good.body) as { id: string }).id)).toBe(false);
    // The control: the same event, untouched, applies.
    expect((await deliver(good)).status).toBe(200);
    expect((await storedProfile(user))?.tier).toBe('free');
  });

  it('cannot be aimed at another user: only the signed customer decides, not the query, headers or an unsigned field', async () => {
    const { user: a, customerId: aCustomer } = await subscribedUser();
    const { user: b, customerId: bCustomer } = await subscribedUser();
    provider.setSubscription(aCustomer, buildSubscription({ status: 'canceled' }));
    provider.setSubscription(bCustomer, buildSubscription({ status: 'canceled' }));
    // B's user id as client_reference_id on A's customer: the customer's mapping wins.
    const response = await deliver(signedDelivery('checkout.session.completed', { customerId: aCustomer, clientReferenceId: b.sub }), {
      path: `/api/billing/webhook?userId=${b.sub}&customer=${bCustomer}`,
      headers: { 'x-user-id': b.sub },
    });
    expect(response.status).toBe(200);
    expect((await storedProfile(a))?.tier).toBe('free');
    expect((await storedProfile(b))?.tier).toBe('pro');
    // Re-signed? No: a body pointing at B's customer without the provider's signature is refused.
    const forged = stripeEventBody('customer.subscription.deleted', { customerId: bCustomer });
    expect((await deliver({ body: forged, signature: signatureHeader(forged, { secret: 'whsec_guess' }) })).status).toBe(400);
    expect((await storedProfile(b))?.tier).toBe('pro');
  });

  it('a signed Checkout for a customer the app did not link cannot bind it to the user its client_reference_id names', async () => {
    const victim = await createUser();
    expect((await sync(victim)).status).toBe(200);
    provider.setSubscription('cus_payment_link', buildSubscription({ status: 'active', priceId: TEST_PRICES.pro }));
    const response = await deliver(signedDelivery('checkout.session.completed', { customerId: 'cus_payment_link', clientReferenceId: victim.sub }));
    expect(response.json).toEqual({ received: true, outcome: 'unknown_customer' });
    expect(await customerOf(victim)).toBeUndefined();
    expect((await storedProfile(victim))?.tier).toBe('free');
  });

  it('an unknown customer and an unhandled event type are acknowledged without writes', async () => {
    const reads = provider.reads.length;
    const unknown = await deliver(signedDelivery('customer.subscription.updated', { customerId: 'cus_nobody' }));
    expect(unknown.json).toEqual({ received: true, outcome: 'unknown_customer' });
    const ignored = await deliver(signedDelivery('charge.succeeded', { customerId: 'cus_nobody' }));
    expect(ignored.json).toEqual({ received: true, outcome: 'ignored' });
    expect(provider.reads.length).toBe(reads);
  });

  it('a provider failure is a 500 and the event is not recorded, so the redelivery applies it', async () => {
    const { user, customerId } = await subscribedUser();
    provider.setSubscription(customerId, buildSubscription({ status: 'active', priceId: TEST_PRICES.label }));
    const delivery = signedDelivery('customer.subscription.updated', { customerId });
    provider.failing = true;
    try {
      expect((await deliver(delivery)).status).toBe(500);
    } finally {
      provider.failing = false;
    }
    expect((await storedProfile(user))?.tier).toBe('pro');
    expect(await eventApplied((JSON.parse(delivery.body) as { id: string }).id)).toBe(false);
    expect((await deliver(delivery)).json).toEqual({ received: true, outcome: 'applied' });
    expect((await storedProfile(user))?.tier).toBe('label');
  });

  it('verifies a base64-encoded body (API Gateway encodes a non-text content type)', async () => {
    const { user, customerId } = await subscribedUser();
    provider.setSubscription(customerId, buildSubscription({ status: 'active', priceId: TEST_PRICES.label }));
    const response = await deliver(signedDelivery('customer.subscription.updated', { customerId }), {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(response.status, response.text).toBe(200);
    expect((await storedProfile(user))?.tier).toBe('label');
  });
});

describe('WebhookFailures', () => {
  const webhookFailures = () => metrics.named(MetricNames.WebhookFailures);

  it('counts a delivery answered 5xx, and not one applied, acknowledged, forged or unsigned, nor a failed user route', async () => {
    const { user, customerId } = await subscribedUser();
    metrics.clear();
    provider.setSubscription(customerId, buildSubscription({ status: 'active', priceId: TEST_PRICES.label }));
    const delivery = signedDelivery('customer.subscription.updated', { customerId });
    expect((await deliver({ body: delivery.body, signature: undefined })).status).toBe(400);
    expect((await deliver({ body: delivery.body, signature: signatureHeader(delivery.body, { secret: 'whsec_attacker' }) })).status).toBe(400);
    expect((await deliver(signedDelivery('charge.succeeded', { customerId }))).json).toEqual({ received: true, outcome: 'ignored' });
    provider.failing = true;
    try {
      expect((await sync(user)).status).toBe(502);
      expect(webhookFailures()).toEqual([]);
      expect((await deliver(delivery)).status).toBe(500);
    } finally {
      provider.failing = false;
    }
    expect(webhookFailures()).toEqual([{ name: MetricNames.WebhookFailures, unit: 'Count', value: 1 }]);
    expect(metrics.published).toBe(1);
    // Delivered again, it applies: nothing more is counted.
    expect((await deliver(delivery)).json).toEqual({ received: true, outcome: 'applied' });
    expect(webhookFailures()).toHaveLength(1);
  });

  it('counts a delivery this deployment cannot verify (no signing secret configured: 503)', async () => {
    const unconfigured = new RecordingMetrics();
    const handler = makeHandler({
      ...billingDeps({ ...stackConfig(), billing: 'stripe', billingPrices: TEST_PRICES }),
      metrics: unconfigured,
    }) as LambdaHandler;
    const delivery = signedDelivery('invoice.paid', { customerId: 'cus_x' });
    const webhook = await invokeApi(handler, 'POST', '/api/billing/webhook', { body: delivery.body, headers: { 'stripe-signature': delivery.signature! } });
    expect(webhook.status).toBe(503);
    expect(unconfigured.named(MetricNames.WebhookFailures)).toEqual([{ name: MetricNames.WebhookFailures, unit: 'Count', value: 1 }]);
  });
});

describe('no other route changes a tier', () => {
  it('PATCH /api/profile refuses billing fields and leaves them as they are', async () => {
    const { user } = await subscribedUser();
    const before = billingFields(await storedProfile(user));
    for (const body of [
      { tier: 'label' },
      { email_limit: 100000 },
      { subscription_status: 'active' },
      { cancel_at_period_end: true },
      { full_name: 'X', tier: 'free' },
    ]) {
      const response = await request('/api/profile', { method: 'PATCH', token: user.idToken, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect(billingFields(await storedProfile(user))).toEqual(before);
    // The profile never shows when the billing state was read.
    const profile = await request('/api/profile', { method: 'GET', token: user.idToken });
    expect(profile.json).not.toHaveProperty('billing_synced_at');
  });
});

describe('billing without its configuration', () => {
  const invoke = (handler: LambdaHandler, path: string, options: InvokeOptions = {}) => invokeApi(handler, 'POST', path, options);

  it('answers 503 naming the missing Stripe settings', async () => {
    const deps: BillingDeps = billingDeps({ ...stackConfig(), billing: 'stripe', billingPrices: undefined });
    const handler = makeHandler(deps) as LambdaHandler;
    const user = await createUser();
    const claims = { sub: user.sub, email: user.email };
    const checkoutResponse = await invoke(handler, '/api/billing/checkout', { claims, body: JSON.stringify({ tier: 'pro' }) });
    expect(checkoutResponse.status).toBe(503);
    expect(checkoutResponse.json?.message).toMatch(/STRIPE_PRICE_PRO and STRIPE_PRICE_LABEL/);
    expect(checkoutResponse.json?.code).toBe(NOT_CONFIGURED);
    const priced = makeHandler({ ...deps, prices: TEST_PRICES }) as LambdaHandler;
    const pricedCheckout = await invoke(priced, '/api/billing/checkout', { claims, body: JSON.stringify({ tier: 'pro' }) });
    expect(pricedCheckout.status).toBe(503);
    expect(pricedCheckout.json?.message).toMatch(/STRIPE_SECRET_KEY_NAME/);
    const delivery = signedDelivery('invoice.paid', { customerId: 'cus_x' });
    const webhook = await invoke(priced, '/api/billing/webhook', { body: delivery.body, headers: { 'stripe-signature': delivery.signature! } });
    expect(webhook.status).toBe(503);
    expect(webhook.json?.message).toMatch(/STRIPE_WEBHOOK_SECRET_NAME/);
  });
});
