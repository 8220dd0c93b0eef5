/**
 * The local billing twin's transitions on DynamoDB Local (lambdas/adapters/local-billing/twin.ts): each
 * one posts the events Stripe would, in Stripe's JSON, to the app's webhook route with a
 * `stripe-signature` that stripe-node's own `webhooks.constructEvent` accepts with the webhook secret
 * (300 s tolerance); a webhook that refuses them, or cannot be reached, is reported, never swallowed.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalBilling } from '../../lambdas/adapters/local-billing/localBilling';
import { BillingTwin, monthsAfter, TwinRefusal, type PortalAction } from '../../lambdas/adapters/local-billing/twin';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { dynamodb, stack } from './helpers';

const SECRET = 'whsec_twin_test';
const PRO = 'price_twin_pro';
const LABEL = 'price_twin_label';
const NOW = new Date('2026-01-31T09:30:00.000Z');
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

let receiver: WebhookReceiver;
let billing: LocalBilling;
let twin: BillingTwin;
let run = 0;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  const deps = { db: dynamodb().doc, tableName: stack().tableName, appUrl: receiver.url, clock: { now: () => NOW } };
  billing = new LocalBilling(deps);
  twin = new BillingTwin({ ...deps, webhookSecret: () => Promise.resolve(SECRET), prices: { pro: PRO, label: LABEL } });
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.status = 200;
});

const sessionOf = (url: string) => new URL(url).searchParams.get('session')!;

/** The events the webhook got since the last reset, each verified as Stripe's library verifies them. */
function verifiedEvents() {
  return receiver.received.map(({ path, headers, payload }) => {
    expect(path).toBe('/api/billing/webhook');
    expect(headers['content-type']).toBe('application/json');
    const signature = headers['stripe-signature'];
    expect(typeof signature).toBe('string');
    return Stripe.webhooks.constructEvent(payload, signature as string, SECRET, 300);
  });
}
const typesReceived = () => verifiedEvents().map((event) => event.type);
const objectOf = (event: Stripe.Event) => event.data.object as unknown as Record<string, unknown>;

async function newCheckout(priceId = PRO) {
  const userId = `twin-user-${++run}-${Date.now().toString(36)}`;
  const customerId = await billing.createCustomer({ userId, email: `${userId}@example.com` });
  const url = await billing.createCheckoutSession({
    customerId,
    userId,
    priceId,
    successUrl: `${receiver.url}/dashboard/subscription?success=true`,
    cancelUrl: `${receiver.url}/dashboard/subscription?canceled=true`,
  });
  return { userId, customerId, sessionId: sessionOf(url) };
}

async function subscribed() {
  const checkout = await newCheckout();
  const { subscription } = await twin.payCheckout(checkout.sessionId);
  const portal = sessionOf(await billing.createPortalSession({ customerId: checkout.customerId, returnUrl: `${receiver.url}/dashboard/subscription` }));
  receiver.received.length = 0;
  return { ...checkout, subscription, portal, act: (action: PortalAction) => twin.portalAction(portal, action) };
}

describe('the twin’s Checkout', () => {
  it('pay: customer.subscription.created, invoice.paid, checkout.session.completed, signed for the webhook secret', async () => {
    const { userId, customerId, sessionId } = await newCheckout();
    const { subscription, delivery } = await twin.payCheckout(sessionId);
    expect(delivery.failures).toEqual([]);
    const events = verifiedEvents();
    expect(events.map((e) => e.type)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    for (const event of events) {
      expect(event).toMatchObject({ object: 'event', livemode: false });
      expect(event.id).toMatch(/^evt_/);
      expect(objectOf(event).customer).toBe(customerId);
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    const [created, invoice, completed] = events.map(objectOf);
    expect(created).toMatchObject({ object: 'subscription', id: subscription.id, status: 'active', cancel_at_period_end: false });
    expect((created!.items as Stripe.ApiList<Stripe.SubscriptionItem>).data[0]).toMatchObject({
      price: { id: PRO },
      current_period_start: at('2026-01-31T09:30:00Z'),
      current_period_end: at('2026-02-28T09:30:00Z'),
    });
    expect(invoice).toMatchObject({
      object: 'invoice',
      status: 'paid',
      amount_paid: 2900,
      billing_reason: 'subscription_create',
      parent: { subscription_details: { subscription: subscription.id } },
    });
    expect(completed).toMatchObject({
      object: 'checkout.session',
      id: sessionId,
      mode: 'subscription',
      client_reference_id: userId,
      subscription: subscription.id,
      payment_status: 'paid',
    });
  });

  it('signs so that another secret, or a changed body, is refused', async () => {
    const { sessionId } = await newCheckout();
    const { delivery } = await twin.payCheckout(sessionId);
    const [{ payload, signature }] = delivery.events as [(typeof delivery.events)[number]];
    expect(() => Stripe.webhooks.constructEvent(payload, signature, 'whsec_other', 300)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => Stripe.webhooks.constructEvent(payload.replace('active', 'canceled'), signature, SECRET, 300)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('cancel: no event, and the session cannot be paid afterwards', async () => {
    const { sessionId } = await newCheckout();
    const session = await twin.cancelCheckout(sessionId);
    expect(session.cancelUrl).toMatch(/canceled=true$/);
    expect(receiver.received).toEqual([]);
    await expect(twin.payCheckout(sessionId)).rejects.toThrow(TwinRefusal);
    expect((await twin.checkoutView(sessionId)).state).toBe('expired');
  });

  it('uses a session once, and refuses a second subscription for a subscribed customer', async () => {
    const { customerId, userId, sessionId } = await newCheckout();
    await twin.payCheckout(sessionId);
    await expect(twin.payCheckout(sessionId)).rejects.toThrow(/already used/);
    const second = await billing.createCheckoutSession({
      customerId,
      userId,
      priceId: LABEL,
      successUrl: `${receiver.url}/s`,
      cancelUrl: `${receiver.url}/c`,
    });
    await expect(twin.payCheckout(sessionOf(second))).rejects.toThrow(/already has a subscription/);
    expect(await billing.currentSubscription(customerId)).toMatchObject({ priceId: PRO, status: 'active' });
  });

  it('refuses an unknown or expired session', async () => {
    expect((await twin.checkoutView('cs_local_nothing')).state).toBe('unknown');
    const later = new BillingTwin({
      db: dynamodb().doc,
      tableName: stack().tableName,
      appUrl: receiver.url,
      clock: { now: () => new Date(NOW.getTime() + 25 * 3600_000) },
      webhookSecret: () => Promise.resolve(SECRET),
      prices: { pro: PRO, label: LABEL },
    });
    const { sessionId } = await newCheckout();
    expect((await later.checkoutView(sessionId)).state).toBe('expired');
    await expect(later.payCheckout(sessionId)).rejects.toThrow(TwinRefusal);
  });
});

describe('the twin’s portal', () => {
  it('switch plan: customer.subscription.updated (the new price), invoice.paid', async () => {
    const { act, subscription } = await subscribed();
    const result = await act('switch-label');
    expect(result.outcome).toBe('switched-label');
    const events = verifiedEvents();
    expect(events.map((e) => e.type)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    expect((objectOf(events[0]!).items as Stripe.ApiList<Stripe.SubscriptionItem>).data[0]!.price.id).toBe(LABEL);
    expect(events[0]!.data.previous_attributes).toHaveProperty('items');
    expect(objectOf(events[1]!)).toMatchObject({
      amount_paid: 9900,
      billing_reason: 'subscription_update',
      parent: { subscription_details: { subscription: subscription.id } },
    });
    await expect(act('switch-label')).rejects.toThrow(/already on Expert/);
  });

  it('cancel at period end, then resume: customer.subscription.updated with the flag each way', async () => {
    const { act } = await subscribed();
    await act('cancel-at-period-end');
    let [event] = verifiedEvents();
    expect(typesReceived()).toEqual(['customer.subscription.updated']);
    expect(objectOf(event!)).toMatchObject({ cancel_at_period_end: true, cancel_at: at('2026-02-28T09:30:00Z') });
    expect(event!.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
    receiver.received.length = 0;
    await act('resume');
    [event] = verifiedEvents();
    expect(typesReceived()).toEqual(['customer.subscription.updated']);
    expect(objectOf(event!)).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
  });

  it('failed renewal: invoice.payment_failed, customer.subscription.updated (past_due); advance: one more failed retry, then deleted', async () => {
    const { act, customerId } = await subscribed();
    await act('fail-renewal');
    expect(typesReceived()).toEqual(['invoice.payment_failed', 'customer.subscription.updated']);
    expect(objectOf(verifiedEvents()[1]!)).toMatchObject({ status: 'past_due' });
    expect(await billing.currentSubscription(customerId)).toMatchObject({ status: 'past_due', currentPeriodEnd: '2026-03-31T09:30:00.000Z' });

    receiver.received.length = 0;
    expect((await act('advance')).outcome).toBe('retry-failed');
    expect(typesReceived()).toEqual(['invoice.payment_failed']);
    expect(objectOf(verifiedEvents()[0]!)).toMatchObject({ status: 'open', attempt_count: 2 });
    expect(await billing.currentSubscription(customerId)).toMatchObject({ status: 'past_due' });

    receiver.received.length = 0;
    expect((await act('advance')).outcome).toBe('ended');
    expect(typesReceived()).toEqual(['customer.subscription.deleted']);
    expect(objectOf(verifiedEvents()[0]!)).toMatchObject({ status: 'canceled' });
    expect(await billing.currentSubscription(customerId)).toMatchObject({ status: 'canceled' });
    await expect(act('advance')).rejects.toThrow(/no subscription/);
  });

  it('advance: an active subscription renews (invoice.paid, customer.subscription.updated); a cancelling one is deleted', async () => {
    const { act, customerId } = await subscribed();
    expect((await act('advance')).outcome).toBe('renewed');
    expect(typesReceived()).toEqual(['invoice.paid', 'customer.subscription.updated']);
    expect(await billing.currentSubscription(customerId)).toMatchObject({ status: 'active', currentPeriodEnd: '2026-03-31T09:30:00.000Z' });
    receiver.received.length = 0;
    await act('cancel-at-period-end');
    await act('advance');
    expect(typesReceived()).toEqual(['customer.subscription.updated', 'customer.subscription.deleted']);
    expect(await billing.currentSubscription(customerId)).toMatchObject({ status: 'canceled' });
  });

  it('refuses a failed renewal for a subscription that cancels at period end', async () => {
    const { act } = await subscribed();
    await act('cancel-at-period-end');
    await expect(act('fail-renewal')).rejects.toThrow(/nothing renews/);
  });
});

describe('event delivery failures', () => {
  it('keeps the change and reports each event the webhook refused, with its answer', async () => {
    const { act, customerId } = await subscribed();
    receiver.status = 400;
    const { delivery } = await act('cancel-at-period-end');
    expect(delivery.failures).toEqual([
      {
        eventId: expect.stringMatching(/^evt_/) as string,
        type: 'customer.subscription.updated',
        reason: 'the webhook answered 400: {"message":"Invalid signature"}',
      },
    ]);
    expect(await billing.currentSubscription(customerId)).toMatchObject({ cancelAtPeriodEnd: true });
  });

  it('reports an unreachable webhook', async () => {
    const closed = await startWebhookReceiver();
    await closed.close();
    const deps = { db: dynamodb().doc, tableName: stack().tableName, appUrl: closed.url, clock: { now: () => NOW } };
    const offline = new BillingTwin({ ...deps, webhookSecret: () => Promise.resolve(SECRET), prices: { pro: PRO, label: LABEL } });
    const { sessionId } = await newCheckout();
    const { delivery } = await offline.payCheckout(sessionId);
    expect(delivery.failures.map((f) => f.type)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    for (const failure of delivery.failures) expect(failure.reason).toMatch(/^the webhook could not be reached/);
  });
});

describe('monthly periods', () => {
  it('keep the anchor day, or the month’s last day when it has fewer', () => {
    const anchor = at('2026-01-31T09:30:00Z');
    expect([1, 2, 3, 13].map((n) => new Date(monthsAfter(anchor, n) * 1000).toISOString())).toEqual([
      '2026-02-28T09:30:00.000Z',
      '2026-03-31T09:30:00.000Z',
      '2026-04-30T09:30:00.000Z',
      '2027-02-28T09:30:00.000Z',
    ]);
    expect(new Date(monthsAfter(at('2027-12-31T00:00:00Z'), 2) * 1000).toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });
});
