/**
 * Two Checkout tabs of one customer, end to end on the local stack: the real billing handler over the
 * local twin (LocalBilling, DynamoDB Local), the twin's pages on the same server posting signed events to
 * its webhook route. A second Checkout expires the first (its page says so and takes no payment); two
 * live subscriptions that slipped past (paid at once) are reduced to the older one by the webhook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamodb/billingStore';
import { DynamoProfileStore } from '../../lambdas/adapters/dynamodb/profileStore';
import { DynamoSendingCursorStore } from '../../lambdas/adapters/dynamodb/sending/cursor';
import { epochSeconds } from '../../lambdas/adapters/clock';
import { LocalBilling } from '../../lambdas/adapters/local-billing/localBilling';
import { BillingTwin, newSubscription } from '../../lambdas/adapters/local-billing/twin';
import { StripeWebhookVerifier } from '../../lambdas/adapters/stripe/webhookVerifier';
import { makeHandler } from '../../lambdas/http/billing';
import { importHandler, reserveLocalServer, type LambdaHandler, type LocalServer } from '../../lib/local/server';
import { signedDelivery } from '../fakes/billing';
import { callAt, createUser, dynamodb, stack, stackConfig, startServer, type TestUser } from './helpers';

const SECRET = 'whsec_two_tabs_test';
const PRICES = { pro: 'price_two_tabs_pro', label: 'price_two_tabs_label' } as const;

let server: LocalServer;
let billing: LocalBilling;
let twin: BillingTwin;

beforeAll(async () => {
  const reserved = await reserveLocalServer(0);
  const db = dynamodb().doc;
  const tableName = stack().tableName;
  const clock = { now: () => new Date() };
  const deps = { db, tableName, appUrl: reserved.url, clock };
  billing = new LocalBilling(deps);
  twin = new BillingTwin({ ...deps, webhookSecret: () => Promise.resolve(SECRET), prices: PRICES });
  const handler = makeHandler({
    profiles: new DynamoProfileStore(db, tableName),
    billing: new DynamoBillingStore(db, tableName),
    provider: billing,
    verifier: new StripeWebhookVerifier({ secret: () => Promise.resolve(SECRET) }),
    sending: new DynamoSendingCursorStore(db, tableName),
    prices: PRICES,
    clock,
    appUrl: reserved.url,
  }) as LambdaHandler;
  server = await startServer({
    reserved,
    billingTwin: twin,
    loadHandler: (group) => (group === 'billing' ? Promise.resolve(handler) : importHandler(group, stackConfig())),
  });
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when beforeAll failed before setting it
  await server?.close();
});

const api = (path: string, options: Parameters<ReturnType<typeof callAt>>[1] = {}) => callAt(server.url)(path, { method: 'POST', ...options });
const checkout = async (user: TestUser, tier: 'pro' | 'label') => {
  const response = await api('/api/billing/checkout', { token: user.idToken, body: { tier } });
  expect(response.status, response.text).toBe(200);
  return String(response.json?.url);
};
const sessionOf = (url: string) => new URL(url).searchParams.get('session')!;
const payPage = (session: string) =>
  fetch(`${server.url}/local/billing/checkout`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams({ session, card: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', decision: 'pay' }).toString(),
  });
const syncedTier = async (user: TestUser) => (await api('/api/billing/sync', { token: user.idToken })).json?.tier;

describe('two Checkout tabs of one customer', () => {
  it('a second Checkout expires the first: its page says expired and takes no payment; the newest tab pays', async () => {
    const user = await createUser();
    const first = await checkout(user, 'pro');
    const second = await checkout(user, 'label');
    const firstPage = await fetch(first.replace(/^https?:\/\/[^/]+/, server.url));
    expect(firstPage.status).toBe(410);
    expect(await firstPage.text()).toContain('has expired');
    expect((await payPage(sessionOf(first))).status).not.toBe(303);
    expect((await twin.store.checkoutSession(sessionOf(first)))?.status).toBe('expired');

    const paid = await payPage(sessionOf(second));
    expect(paid.status).toBe(303);
    expect(await syncedTier(user)).toBe('label');
    const customerId = (await twin.store.checkoutSession(sessionOf(second)))!.customer;
    expect((await billing.liveSubscriptions(customerId)).length).toBe(1);
  });

  it('two subscriptions paid at once: the webhook cancels the newer, the profile is on the older one’s plan', async () => {
    const user = await createUser();
    expect((await payPage(sessionOf(await checkout(user, 'pro')))).status).toBe(303);
    // The user's customer (made by the checkout; the twin answers the same one again).
    const customerId = (await twin.store.customerForUser({ userId: user.sub, email: user.email }, new Date())).id;
    const [kept] = await billing.liveSubscriptions(customerId);
    // A second payment that passed the twin's one-subscription check at the same moment as the first.
    const url = await billing.createCheckoutSession({
      customerId,
      userId: user.sub,
      priceId: PRICES.label,
      successUrl: `${server.url}/dashboard/subscription?success=true`,
      cancelUrl: `${server.url}/dashboard/subscription?canceled=true`,
    });
    const session = (await twin.store.checkoutSession(sessionOf(url)))!;
    const later = new Date(Date.now() + 2000);
    const newer = newSubscription({ id: twin.store.newId('sub', later), latestInvoice: twin.store.newId('in', later) }, session, epochSeconds(later));
    expect(await twin.store.completeCheckoutSession(session, newer)).toBe(true);
    expect(await billing.liveSubscriptions(customerId)).toHaveLength(2);

    const delivery = signedDelivery('customer.subscription.created', { customerId, subscription: null }, { secret: SECRET });
    const answer = await api('/api/billing/webhook', {
      body: delivery.body,
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature! },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(await twin.store.subscription(customerId, newer.id)).toMatchObject({ status: 'canceled' });
    expect(await billing.liveSubscriptions(customerId)).toEqual([kept]);
    expect(await syncedTier(user)).toBe('pro');
  });
});
