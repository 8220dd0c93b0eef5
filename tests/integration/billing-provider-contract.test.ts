/**
 * One contract for both billing providers (DESIGN §10): StripeBilling against the local stand-in of the
 * Stripe API (tests/support/stripeStandIn.ts), LocalBilling against DynamoDB Local, each subscription
 * driven the way its provider changes one (the stand-in as Stripe would; the twin through its own
 * transitions, events going to a webhook receiver). The same steps, the same answers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBilling } from '../../lambdas/adapters/local-billing/localBilling';
import { BillingTwin, monthsAfter, newSubscription, type PortalAction } from '../../lambdas/adapters/local-billing/twin';
import { epochSeconds } from '../../lambdas/adapters/clock';
import { StripeBilling } from '../../lambdas/adapters/stripe/stripeBilling';
import type { BillingProvider } from '../../lambdas/ports';
import { startStripeStandIn, type StripeStandIn } from '../support/stripeStandIn';
import { dynamodb, stack } from './helpers';

const NOW = new Date('2026-01-15T12:00:00.000Z');
const clock = { now: () => NOW };
const PRO = 'price_contract_pro';
const LABEL = 'price_contract_label';
const WEBHOOK_SECRET = 'whsec_contract';

/** What a provider's Checkout Session holds, read back from the provider's side. */
interface CheckoutFacts {
  mode: string;
  customerId: string;
  userId: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
}

interface Harness {
  provider: BillingProvider;
  appUrl: string;
  checkoutUrlPattern: RegExp;
  portalUrlPattern: RegExp;
  checkoutOf(url: string): Promise<CheckoutFacts>;
  portalOf(url: string): Promise<{ customerId: string; returnUrl: string }>;
  /** The person pays the session at NOW. */
  pay(checkoutUrl: string): Promise<void>;
  /** Pays the session at NOW even though the customer already subscribed (two tabs paid at once, past any check of the provider's). */
  payAlongside(checkoutUrl: string): Promise<void>;
  cancelAtPeriodEnd(customerId: string): Promise<void>;
  resume(customerId: string): Promise<void>;
  switchTo(customerId: string, priceId: string): Promise<void>;
  failRenewal(customerId: string): Promise<void>;
  /** The period ends (a cancelling subscription is deleted; an active one renews). */
  endPeriod(customerId: string): Promise<void>;
}

const sessionIdOf = (url: string) => new URL(url).searchParams.get('session') ?? url.split('/').pop()!;

function stripeHarness(standIn: StripeStandIn): Harness {
  const appUrl = 'https://app.trackpitch.example';
  const provider = new StripeBilling(standIn.client, { appUrl });
  const latest = (customerId: string) => {
    const subscription = [...standIn.subscriptions.values()]
      .filter((s) => s.customer === customerId)
      .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1))[0];
    if (!subscription) throw new Error(`no subscription for ${customerId}`);
    return subscription;
  };
  // What each session was created with, as Stripe received it.
  const sessions = new Map<string, Record<string, string>>();
  return {
    provider: {
      createCustomer: (input) => provider.createCustomer(input),
      async createCheckoutSession(input) {
        const url = await provider.createCheckoutSession(input);
        sessions.set(sessionIdOf(url), standIn.requests.at(-1)!.params);
        return url;
      },
      async createPortalSession(input) {
        const url = await provider.createPortalSession(input);
        sessions.set(sessionIdOf(url), standIn.requests.at(-1)!.params);
        return url;
      },
      currentSubscription: (customerId) => provider.currentSubscription(customerId),
      expireOpenCheckoutSessions: (customerId) => provider.expireOpenCheckoutSessions(customerId),
      liveSubscriptions: (customerId) => provider.liveSubscriptions(customerId),
      cancelSubscription: (input) => provider.cancelSubscription(input),
    },
    appUrl,
    checkoutUrlPattern: /^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/,
    portalUrlPattern: /^https:\/\/billing\.stripe\.com\/p\/session\//,
    checkoutOf: (url) => {
      const params = sessions.get(sessionIdOf(url))!;
      return Promise.resolve({
        mode: params.mode!,
        customerId: params.customer!,
        userId: params.client_reference_id!,
        priceId: params['line_items[0][price]']!,
        successUrl: params.success_url!,
        cancelUrl: params.cancel_url!,
      });
    },
    portalOf: (url) => {
      const params = sessions.get(sessionIdOf(url))!;
      return Promise.resolve({ customerId: params.customer!, returnUrl: params.return_url! });
    },
    pay: (url) => Promise.resolve().then(() => void standIn.completeCheckout(sessionIdOf(url), NOW)),
    // Stripe's Checkout takes a second subscription unless told otherwise.
    payAlongside: (url) => Promise.resolve().then(() => void standIn.completeCheckout(sessionIdOf(url), NOW)),
    cancelAtPeriodEnd: (customerId) => {
      standIn.update(latest(customerId).id, (s) => ({ ...s, cancel_at_period_end: true, cancel_at: s.items.data[0]!.current_period_end }));
      return Promise.resolve();
    },
    resume: (customerId) => {
      standIn.update(latest(customerId).id, (s) => ({ ...s, cancel_at_period_end: false, cancel_at: null }));
      return Promise.resolve();
    },
    switchTo: (customerId, priceId) => {
      standIn.update(latest(customerId).id, (s) => ({
        ...s,
        items: { ...s.items, data: [{ ...s.items.data[0]!, price: { ...s.items.data[0]!.price, id: priceId } }] },
      }));
      return Promise.resolve();
    },
    failRenewal: (customerId) => {
      standIn.update(latest(customerId).id, (s) => {
        const item = s.items.data[0]!;
        const end = monthsAfter(s.billing_cycle_anchor, 2);
        return { ...s, status: 'past_due', items: { ...s.items, data: [{ ...item, current_period_start: item.current_period_end, current_period_end: end }] } };
      });
      return Promise.resolve();
    },
    endPeriod: (customerId) => {
      standIn.update(latest(customerId).id, (s) => ({ ...s, status: 'canceled', ended_at: s.cancel_at }));
      return Promise.resolve();
    },
  };
}

function twinHarness(appUrl: string): Harness {
  const deps = { db: dynamodb().doc, tableName: stack().tableName, appUrl, clock };
  const provider = new LocalBilling(deps);
  const twin = new BillingTwin({ ...deps, webhookSecret: () => Promise.resolve(WEBHOOK_SECRET), prices: { pro: PRO, label: LABEL } });
  const act = async (customerId: string, action: PortalAction) => {
    const url = await provider.createPortalSession({ customerId, returnUrl: `${appUrl}/dashboard/subscription` });
    const { delivery } = await twin.portalAction(sessionIdOf(url), action);
    expect(delivery.failures).toEqual([]);
  };
  return {
    provider,
    appUrl,
    checkoutUrlPattern: new RegExp(`^${appUrl}/local/billing/checkout\\?session=cs_local_`),
    portalUrlPattern: new RegExp(`^${appUrl}/local/billing/portal\\?session=bps_local_`),
    async checkoutOf(url) {
      const session = (await twin.store.checkoutSession(sessionIdOf(url)))!;
      return {
        mode: 'subscription',
        customerId: session.customer,
        userId: session.userId,
        priceId: session.priceId,
        successUrl: session.successUrl,
        cancelUrl: session.cancelUrl,
      };
    },
    async portalOf(url) {
      const session = (await twin.store.portalSession(sessionIdOf(url)))!;
      return { customerId: session.customer, returnUrl: session.returnUrl };
    },
    async pay(url) {
      const { delivery } = await twin.payCheckout(sessionIdOf(url));
      expect(delivery.failures).toEqual([]);
    },
    async payAlongside(url) {
      // The twin's page refuses a subscribed customer; two payments at once both pass that check, as this does.
      const session = (await twin.store.checkoutSession(sessionIdOf(url)))!;
      const ids = { id: twin.store.newId('sub', NOW), latestInvoice: twin.store.newId('in', NOW) };
      expect(await twin.store.completeCheckoutSession(session, newSubscription(ids, session, epochSeconds(NOW)))).toBe(true);
    },
    cancelAtPeriodEnd: (customerId) => act(customerId, 'cancel-at-period-end'),
    resume: (customerId) => act(customerId, 'resume'),
    switchTo: (customerId, priceId) => act(customerId, priceId === LABEL ? 'switch-label' : 'switch-pro'),
    failRenewal: (customerId) => act(customerId, 'fail-renewal'),
    endPeriod: (customerId) => act(customerId, 'advance'),
  };
}

let standIn: StripeStandIn;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  // The twin's events need a webhook that accepts them; what they say is tested in billing-twin.test.ts.
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await standIn.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const harnesses: [string, () => Promise<Harness>][] = [
  ['StripeBilling (Stripe API stand-in)', () => Promise.resolve(stripeHarness(standIn))],
  ['LocalBilling (the local twin, DynamoDB Local)', () => Promise.resolve(twinHarness(receiverUrl))],
];

describe.each(harnesses)('the billing provider contract: %s', (_name, makeHarness) => {
  let h: Harness;
  let run = 0;
  const newUser = () => `user-${Date.now().toString(36)}-${++run}`;

  beforeAll(async () => {
    h = await makeHarness();
  });

  /** A new user's customer, subscribed to Pro at NOW. */
  async function subscribed() {
    const userId = newUser();
    const customerId = await h.provider.createCustomer({ userId, email: `${userId}@example.com` });
    await h.pay(await h.provider.createCheckoutSession(checkout(customerId, userId, PRO)));
    return customerId;
  }
  const checkout = (customerId: string, userId: string, priceId: string) => ({
    customerId,
    userId,
    priceId,
    successUrl: `${h.appUrl}/dashboard/subscription?success=true`,
    cancelUrl: `${h.appUrl}/dashboard/subscription?canceled=true`,
  });

  it('creates one customer per user: distinct for two users, the same for the same user again', async () => {
    const [a, b] = [newUser(), newUser()];
    const first = await h.provider.createCustomer({ userId: a, email: 'a@example.com' });
    const second = await h.provider.createCustomer({ userId: b, email: 'b@example.com' });
    expect(first).not.toBe(second);
    expect(await h.provider.createCustomer({ userId: a, email: 'a@example.com' })).toBe(first);
  });

  it('creates a subscription-mode Checkout Session for the price, naming the user, and returns its URL', async () => {
    const userId = newUser();
    const customerId = await h.provider.createCustomer({ userId, email: 'c@example.com' });
    const url = await h.provider.createCheckoutSession(checkout(customerId, userId, LABEL));
    expect(url).toMatch(h.checkoutUrlPattern);
    expect(await h.checkoutOf(url)).toEqual({
      mode: 'subscription',
      customerId,
      userId,
      priceId: LABEL,
      successUrl: `${h.appUrl}/dashboard/subscription?success=true`,
      cancelUrl: `${h.appUrl}/dashboard/subscription?canceled=true`,
    });
  });

  it('creates a portal session with the return URL and returns its URL', async () => {
    const customerId = await h.provider.createCustomer({ userId: newUser(), email: 'p@example.com' });
    const url = await h.provider.createPortalSession({ customerId, returnUrl: `${h.appUrl}/dashboard/subscription` });
    expect(url).toMatch(h.portalUrlPattern);
    expect(await h.portalOf(url)).toEqual({ customerId, returnUrl: `${h.appUrl}/dashboard/subscription` });
  });

  it('refuses return URLs on another origin', async () => {
    const customerId = await h.provider.createCustomer({ userId: newUser(), email: 'x@example.com' });
    await expect(h.provider.createCheckoutSession({ ...checkout(customerId, 'u', PRO), successUrl: 'https://evil.example/' })).rejects.toThrow();
    await expect(h.provider.createPortalSession({ customerId, returnUrl: 'https://evil.example/' })).rejects.toThrow();
  });

  it('answers null for a customer who never subscribed', async () => {
    const customerId = await h.provider.createCustomer({ userId: newUser(), email: 'n@example.com' });
    expect(await h.provider.currentSubscription(customerId)).toBeNull();
  });

  it('reports a paid subscription: active, its price, the period end a month on, not cancelling', async () => {
    const customerId = await subscribed();
    expect(await h.provider.currentSubscription(customerId)).toEqual({
      id: expect.any(String) as string,
      status: 'active',
      priceId: PRO,
      currentPeriodEnd: '2026-02-15T12:00:00.000Z',
      cancelAtPeriodEnd: false,
    });
  });

  it('reports cancel at period end, resume, and the end of a cancelling subscription as canceled', async () => {
    const customerId = await subscribed();
    const { id } = (await h.provider.currentSubscription(customerId))!;
    await h.cancelAtPeriodEnd(customerId);
    expect(await h.provider.currentSubscription(customerId)).toEqual({
      id,
      status: 'active',
      priceId: PRO,
      currentPeriodEnd: '2026-02-15T12:00:00.000Z',
      cancelAtPeriodEnd: true,
    });
    await h.resume(customerId);
    expect(await h.provider.currentSubscription(customerId)).toMatchObject({ id, status: 'active', cancelAtPeriodEnd: false });
    await h.cancelAtPeriodEnd(customerId);
    await h.endPeriod(customerId);
    expect(await h.provider.currentSubscription(customerId)).toMatchObject({ id, status: 'canceled', priceId: PRO });
  });

  it('reports a new subscription over the ended one', async () => {
    const customerId = await subscribed();
    const ended = (await h.provider.currentSubscription(customerId))!;
    await h.cancelAtPeriodEnd(customerId);
    await h.endPeriod(customerId);
    const userId = newUser();
    await h.pay(await h.provider.createCheckoutSession(checkout(customerId, userId, LABEL)));
    const current = (await h.provider.currentSubscription(customerId))!;
    expect(current).toMatchObject({ status: 'active', priceId: LABEL, cancelAtPeriodEnd: false });
    expect(current.id).not.toBe(ended.id);
  });

  it('expires the customer’s open Checkout Sessions: an older one cannot be paid, a new one can', async () => {
    const userId = newUser();
    const customerId = await h.provider.createCustomer({ userId, email: `${userId}@example.com` });
    const older = await h.provider.createCheckoutSession(checkout(customerId, userId, PRO));
    const newer = await h.provider.createCheckoutSession(checkout(customerId, userId, LABEL));
    expect((await h.provider.expireOpenCheckoutSessions(customerId)).sort()).toEqual([sessionIdOf(older), sessionIdOf(newer)].sort());
    await expect(h.pay(older)).rejects.toThrow(/expired/);
    expect(await h.provider.expireOpenCheckoutSessions(customerId)).toEqual([]);
    await h.pay(await h.provider.createCheckoutSession(checkout(customerId, userId, LABEL)));
    expect(await h.provider.currentSubscription(customerId)).toMatchObject({ status: 'active', priceId: LABEL });
  });

  it('lists live subscriptions and cancels one; a second cancel of it answers already_ended', async () => {
    const customerId = await subscribed();
    const kept = (await h.provider.currentSubscription(customerId))!;
    await h.payAlongside(await h.provider.createCheckoutSession(checkout(customerId, newUser(), LABEL)));
    const live = await h.provider.liveSubscriptions(customerId);
    expect(live).toHaveLength(2);
    expect(live.every((s) => s.status === 'active' && s.created === epochSeconds(NOW))).toBe(true);
    const newer = live.find((s) => s.id !== kept.id)!;
    expect(await h.provider.cancelSubscription({ customerId, subscriptionId: newer.id })).toBe('canceled');
    expect(await h.provider.cancelSubscription({ customerId, subscriptionId: newer.id })).toBe('already_ended');
    expect(await h.provider.liveSubscriptions(customerId)).toEqual([{ id: kept.id, status: 'active', created: epochSeconds(NOW) }]);
    expect(await h.provider.currentSubscription(customerId)).toEqual(kept);
  });

  it('reports a switched plan and a failed renewal (past_due, the next period)', async () => {
    const customerId = await subscribed();
    await h.switchTo(customerId, LABEL);
    expect(await h.provider.currentSubscription(customerId)).toMatchObject({ status: 'active', priceId: LABEL, currentPeriodEnd: '2026-02-15T12:00:00.000Z' });
    await h.failRenewal(customerId);
    expect(await h.provider.currentSubscription(customerId)).toMatchObject({
      status: 'past_due',
      priceId: LABEL,
      currentPeriodEnd: '2026-03-15T12:00:00.000Z',
      cancelAtPeriodEnd: false,
    });
  });
});
