/**
 * StripeBilling against a local HTTP stand-in of the Stripe API (tests/support/stripeStandIn.ts), through
 * the real stripe-node v23 client: what it sends Stripe (customer metadata and idempotency key, a
 * subscription-mode Checkout for one price with the user id, portal return URL), and how it reads the
 * customer's subscriptions (status all, the governing one, the period from the item, cancel_at as
 * cancelling, unknown statuses refused, Stripe's errors passed on), and how it keeps one payable
 * Checkout (list open sessions by customer, expire each) and one live subscription (cancel, prorated).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { StripeBilling, customerIdempotencyKey } from '../../lambdas/adapters/stripe/stripeBilling';
import { governingSubscription, oneLiveSubscription } from '../../lambdas/core/governingSubscription';
import { startStripeStandIn, type StripeStandIn } from '../support/stripeStandIn';

const APP = 'https://app.trackpitch.example';
const PRO = 'price_pro_test';
const LABEL = 'price_label_test';
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

let standIn: StripeStandIn;
let billing: StripeBilling;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  billing = new StripeBilling(standIn.client, { appUrl: APP });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.requests.length = 0;
});

const checkoutInput = (overrides: Partial<Parameters<StripeBilling['createCheckoutSession']>[0]> = {}) => ({
  customerId: 'cus_1',
  userId: 'user-1',
  priceId: PRO,
  successUrl: `${APP}/dashboard/subscription?success=true`,
  cancelUrl: `${APP}/dashboard/subscription?canceled=true`,
  ...overrides,
});

/** A customer with one paid subscription made through the stand-in's Checkout. */
async function subscribedCustomer(userId: string, now = new Date('2026-01-15T12:00:00Z')) {
  const customerId = await billing.createCustomer({ userId, email: `${userId}@example.com` });
  const url = await billing.createCheckoutSession(checkoutInput({ customerId, userId }));
  return { customerId, subscription: standIn.completeCheckout(url.split('/').pop()!, now) };
}

describe('StripeBilling writes', () => {
  it('creates a customer with the user id in its metadata, once per user (idempotency key)', async () => {
    const first = await billing.createCustomer({ userId: 'user-a', email: 'a@example.com' });
    const again = await billing.createCustomer({ userId: 'user-a', email: 'a@example.com' });
    const other = await billing.createCustomer({ userId: 'user-b', email: 'b@example.com' });
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    const [request] = standIn.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/customers', params: { email: 'a@example.com', 'metadata[userId]': 'user-a' } });
    expect(request!.headers['idempotency-key']).toBe(customerIdempotencyKey('user-a'));
  });

  it('creates a subscription-mode Checkout Session for one price, naming the user, and returns its URL', async () => {
    const url = await billing.createCheckoutSession(checkoutInput());
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(standIn.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      params: {
        mode: 'subscription',
        customer: 'cus_1',
        client_reference_id: 'user-1',
        'line_items[0][price]': PRO,
        'line_items[0][quantity]': '1',
        success_url: `${APP}/dashboard/subscription?success=true`,
        cancel_url: `${APP}/dashboard/subscription?canceled=true`,
        'subscription_data[metadata][userId]': 'user-1',
      },
    });
  });

  it('refuses a return URL on another origin before calling Stripe', async () => {
    await expect(billing.createCheckoutSession(checkoutInput({ successUrl: 'https://evil.example/x' }))).rejects.toThrow(/not on the app's origin/);
    await expect(billing.createPortalSession({ customerId: 'cus_1', returnUrl: 'https://evil.example/' })).rejects.toThrow(/not on the app's origin/);
    expect(standIn.requests).toEqual([]);
  });

  it('creates a billing portal session with the return URL and returns its URL', async () => {
    const url = await billing.createPortalSession({ customerId: 'cus_1', returnUrl: `${APP}/dashboard/subscription` });
    expect(url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(standIn.requests[0]).toMatchObject({
      path: '/v1/billing_portal/sessions',
      params: { customer: 'cus_1', return_url: `${APP}/dashboard/subscription` },
    });
  });

  it('passes Stripe’s errors on instead of answering something', async () => {
    standIn.failNext(500, 'Stripe is down');
    await expect(billing.createCheckoutSession(checkoutInput())).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    standIn.failNext(400, 'No such customer');
    await expect(billing.currentSubscription('cus_1')).rejects.toThrow('No such customer');
  });
});

describe('StripeBilling reads the subscription that governs the plan', () => {
  it('lists every status of the customer’s subscriptions and answers null without one', async () => {
    expect(await billing.currentSubscription('cus_nobody')).toBeNull();
    expect(standIn.requests[0]).toMatchObject({ method: 'GET', path: '/v1/subscriptions', params: { customer: 'cus_nobody', status: 'all' } });
  });

  it('reads the price and the period end from the subscription item', async () => {
    const { customerId, subscription } = await subscribedCustomer('reader');
    expect(await billing.currentSubscription(customerId)).toEqual({
      id: subscription.id,
      status: 'active',
      priceId: PRO,
      currentPeriodEnd: '2026-02-15T12:00:00.000Z',
      cancelAtPeriodEnd: false,
    });
  });

  it('reads cancel_at (what the portal sets on newer API versions) as cancelling on that date', async () => {
    const { customerId, subscription } = await subscribedCustomer('cancel-at');
    standIn.update(subscription.id, (s) => ({ ...s, cancel_at: at('2026-02-10T00:00:00Z'), cancel_at_period_end: false }));
    expect(await billing.currentSubscription(customerId)).toMatchObject({
      cancelAtPeriodEnd: true,
      currentPeriodEnd: '2026-02-10T00:00:00.000Z',
      status: 'active',
    });
  });

  it('prefers a live subscription over a newer one that ended or is incomplete', async () => {
    const { customerId, subscription } = await subscribedCustomer('several');
    const newer = (id: string, status: StripeStatus, created: string) => ({ ...subscription, id, status, created: at(created) });
    standIn.put(newer('sub_zz_canceled', 'canceled', '2026-01-20T00:00:00Z'));
    standIn.put(newer('sub_zz_incomplete', 'incomplete', '2026-01-21T00:00:00Z'));
    expect((await billing.currentSubscription(customerId))?.id).toBe(subscription.id);
    standIn.update(subscription.id, (s) => ({ ...s, status: 'canceled' }));
    expect(await billing.currentSubscription(customerId)).toMatchObject({ id: 'sub_zz_incomplete', status: 'incomplete' });
    standIn.update('sub_zz_incomplete', (s) => ({ ...s, status: 'incomplete_expired' }));
    // Every one ended: the newest, so the profile reads canceled rather than "never subscribed".
    expect(await billing.currentSubscription(customerId)).toMatchObject({ id: 'sub_zz_incomplete', status: 'incomplete_expired' });
  });

  it('refuses a status it does not know instead of guessing a plan', async () => {
    const { customerId, subscription } = await subscribedCustomer('odd-status');
    standIn.update(subscription.id, (s) => ({ ...s, status: 'frozen' }));
    await expect(billing.currentSubscription(customerId)).rejects.toThrow(/unknown status "frozen"/);
  });

  it('reads the switched price', async () => {
    const { customerId, subscription } = await subscribedCustomer('switcher');
    standIn.update(subscription.id, (s) => ({ ...s, items: { ...s.items, data: [{ ...s.items.data[0]!, price: { ...s.items.data[0]!.price, id: LABEL } }] } }));
    expect(await billing.currentSubscription(customerId)).toMatchObject({ priceId: LABEL });
  });
});

type StripeStatus = Stripe.Subscription.Status;

describe('StripeBilling keeps one payable Checkout and one live subscription per customer', () => {
  it('lists the customer’s open Checkout Sessions and expires each, so an older tab can no longer pay', async () => {
    const customerId = await billing.createCustomer({ userId: 'two-tabs', email: 'two-tabs@example.com' });
    const first = (await billing.createCheckoutSession(checkoutInput({ customerId }))).split('/').pop()!;
    const second = (await billing.createCheckoutSession(checkoutInput({ customerId, priceId: LABEL }))).split('/').pop()!;
    const other = await billing.createCheckoutSession(checkoutInput({ customerId: 'cus_someone_else' }));
    standIn.requests.length = 0;
    expect((await billing.expireOpenCheckoutSessions(customerId)).sort()).toEqual([first, second].sort());
    expect(standIn.requests.map(({ method, path, params }) => ({ method, path, params }))).toEqual([
      { method: 'GET', path: '/v1/checkout/sessions', params: { customer: customerId, status: 'open', limit: '100' } },
      { method: 'POST', path: `/v1/checkout/sessions/${second}/expire`, params: {} },
      { method: 'POST', path: `/v1/checkout/sessions/${first}/expire`, params: {} },
    ]);
    expect(() => standIn.completeCheckout(first, new Date())).toThrow(/expired/);
    // Another customer's session is left open; a second call finds nothing to expire.
    expect(standIn.completeCheckout(other.split('/').pop()!, new Date()).status).toBe('active');
    expect(await billing.expireOpenCheckoutSessions(customerId)).toEqual([]);
  });

  it('skips a session paid between the list and the expiry, and passes on any other refusal', async () => {
    const customerId = await billing.createCustomer({ userId: 'paid-meanwhile', email: 'paid@example.com' });
    const paid = (await billing.createCheckoutSession(checkoutInput({ customerId }))).split('/').pop()!;
    standIn.failNextAt(`/v1/checkout/sessions/${paid}/expire`, () => standIn.completeCheckout(paid, new Date()));
    expect(await billing.expireOpenCheckoutSessions(customerId)).toEqual([]);
    const open = (await billing.createCheckoutSession(checkoutInput({ customerId }))).split('/').pop()!;
    standIn.failNextAt(`/v1/checkout/sessions/${open}/expire`);
    await expect(billing.expireOpenCheckoutSessions(customerId)).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });

  it('lists only the live subscriptions, with their creation time', async () => {
    const { customerId, subscription } = await subscribedCustomer('live-list');
    standIn.put({ ...subscription, id: 'sub_zz_ended', status: 'canceled', created: at('2026-01-20T00:00:00Z') });
    standIn.put({ ...subscription, id: 'sub_zz_due', status: 'past_due', created: at('2026-01-21T00:00:00Z') });
    standIn.requests.length = 0;
    expect(await billing.liveSubscriptions(customerId)).toEqual([
      { id: 'sub_zz_due', status: 'past_due', created: at('2026-01-21T00:00:00Z') },
      { id: subscription.id, status: 'active', created: subscription.created },
    ]);
    expect(standIn.requests[0]).toMatchObject({ method: 'GET', path: '/v1/subscriptions', params: { customer: customerId, status: 'all' } });
  });

  it('cancels a subscription now with proration; a second cancel of the ended one is answered, not thrown', async () => {
    const { customerId, subscription } = await subscribedCustomer('cancel-twice');
    expect(await billing.cancelSubscription({ customerId, subscriptionId: subscription.id })).toBe('canceled');
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/subscriptions/${subscription.id}`, params: { prorate: 'true' } });
    expect(standIn.subscriptions.get(subscription.id)?.status).toBe('canceled');
    expect(await billing.cancelSubscription({ customerId, subscriptionId: subscription.id })).toBe('already_ended');
    standIn.failNext(500, 'Stripe is down');
    await expect(billing.cancelSubscription({ customerId, subscriptionId: subscription.id })).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
  });
});

describe('the governing subscription rule', () => {
  const sub = (id: string, status: string, created: number) => ({ id, status, created });
  it('keeps the oldest live subscription and cancels every newer live one; ended ones are left alone', () => {
    const ids = (result: { keep: { id: string } | undefined; cancel: { id: string }[] }) => ({ keep: result.keep?.id, cancel: result.cancel.map((s) => s.id) });
    expect(ids(oneLiveSubscription<ReturnType<typeof sub>>([]))).toEqual({ keep: undefined, cancel: [] });
    expect(ids(oneLiveSubscription([sub('a', 'active', 1), sub('z', 'canceled', 0)]))).toEqual({ keep: 'a', cancel: [] });
    expect(ids(oneLiveSubscription([sub('c', 'trialing', 3), sub('a', 'active', 1), sub('b', 'past_due', 2), sub('d', 'unpaid', 0)]))).toEqual({
      keep: 'a',
      cancel: ['b', 'c'],
    });
    expect(ids(oneLiveSubscription([sub('b', 'active', 5), sub('a', 'active', 5)]))).toEqual({ keep: 'a', cancel: ['b'] });
  });

  it('is the newest live one, else the newest not ended, else the newest; ties broken by id', () => {
    expect(governingSubscription<ReturnType<typeof sub>>([])).toBeUndefined();
    expect(governingSubscription([sub('a', 'active', 1), sub('b', 'past_due', 2), sub('c', 'canceled', 3)])?.id).toBe('b');
    expect(governingSubscription([sub('a', 'unpaid', 1), sub('b', 'canceled', 2)])?.id).toBe('a');
    expect(governingSubscription([sub('a', 'canceled', 1), sub('b', 'incomplete_expired', 2)])?.id).toBe('b');
    expect(governingSubscription([sub('a', 'active', 5), sub('b', 'active', 5)])?.id).toBe('b');
  });
});
