/**
 * The local billing twin's state transitions (DESIGN §10): what the local Checkout and portal pages
 * (lib/local/billingPages.ts) do, each one changing the twin's own records (twinStore.ts) and then
 * posting the events Stripe would send, as Stripe's JSON, signed with the webhook secret by stripe-node's
 * `webhooks.generateTestHeaderString`, to the app's real webhook route:
 *
 *   pay checkout            customer.subscription.created, invoice.paid, checkout.session.completed
 *   cancel checkout         (none)
 *   switch plan             customer.subscription.updated, invoice.paid
 *   cancel at period end    customer.subscription.updated (cancel_at_period_end true)
 *   resume                  customer.subscription.updated (cancel_at_period_end false)
 *   failed renewal payment  invoice.payment_failed, customer.subscription.updated (past_due, next period)
 *   advance to period end   cancelling: customer.subscription.deleted (canceled)
 *                           past_due, first time: invoice.payment_failed (the retry fails; still past_due)
 *                           past_due, again: customer.subscription.deleted (canceled)
 *                           otherwise: invoice.paid, customer.subscription.updated (renewed a month)
 *
 * A change is kept even when the webhook refuses its events (as Stripe keeps it and retries); the
 * delivery report says which events failed, so the page shows it instead of pretending all is well.
 */
import Stripe from 'stripe';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { planOf, type PaidTier } from '../../../schema/plans';
import type { Clock } from '../../ports';
import { epochSeconds } from '../clock';
import { hasOpenSubscription, isLive, paidTierOfPrice, type PriceTable } from '../../core/billing';
import { governingSubscription } from '../../core/governingSubscription';
import {
  checkoutSessionJson,
  invoiceJson,
  subscriptionJson,
  type InvoiceFacts,
  type StripeEventJson,
  type StripeEventObject,
  type StripeSubscriptionJson,
} from './stripeShapes';
import { BILLING_WEBHOOK_PATH, LOCAL_BILLING_PRICES, STRIPE_SIGNATURE_HEADER } from './paths';
import { SESSION_LIFETIME_SECONDS, TwinStore, type TwinCheckoutSession, type TwinPortalSession, type TwinSubscription } from './twinStore';

const DELIVERY_TIMEOUT_MS = 10_000;

/** A subscription just paid for at `at` (epoch seconds): active for its first month. The stand-in of Stripe's API (tests) makes its own the same way. */
export function newSubscription(ids: { id: string; latestInvoice: string }, checkout: { customer: string; priceId: string }, at: number): TwinSubscription {
  return {
    ...ids,
    customer: checkout.customer,
    priceId: checkout.priceId,
    status: 'active',
    created: at,
    billingCycleAnchor: at,
    periods: 1,
    currentPeriodStart: at,
    currentPeriodEnd: monthsAfter(at, 1),
    cancelAtPeriodEnd: false,
    cancelAt: null,
    canceledAt: null,
    endedAt: null,
    failedPaymentAttempts: 0,
    version: 1,
    updated: at,
  };
}

/** One month after `anchor`, `months` times over, on the anchor's day (or the month's last day), as Stripe bills monthly. */
export function monthsAfter(anchorSeconds: number, months: number): number {
  const anchor = new Date(anchorSeconds * 1000);
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return epochSeconds(new Date(Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds())));
}

export interface SignedEvent {
  event: StripeEventJson;
  /** The exact body posted (what the signature covers). */
  payload: string;
  signature: string;
}

export interface DeliveryFailure {
  eventId: string;
  type: string;
  /** What went wrong, for the page: the webhook's status and answer, or the network error. */
  reason: string;
}

export interface DeliveryReport {
  events: SignedEvent[];
  failures: DeliveryFailure[];
}

/** Why a transition did nothing: said to the person as is. */
export class TwinRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TwinRefusal';
  }
}

export interface TwinDeps {
  db: DynamoDBDocumentClient;
  tableName: string;
  /** The app's base URL: its webhook route is `${appUrl}/api/billing/webhook`. */
  appUrl: string;
  clock: Clock;
  /** The webhook signing secret the app's webhook verifies with (localKeys(dataDir).billingWebhookSecret). */
  webhookSecret: () => Promise<string>;
  /** The price id of each paid plan (default: LOCAL_BILLING_PRICES, what the local runtime's config names). */
  prices?: PriceTable;
  /** How events are posted (default: global fetch). */
  fetch?: typeof fetch;
}

export type CheckoutView =
  { state: 'open'; session: TwinCheckoutSession; tier: PaidTier } | { state: 'unknown' | 'used' | 'expired' | 'unknown-price'; session?: TwinCheckoutSession };

export interface PortalView {
  session: TwinPortalSession;
  /** The customer's subscription that governs the plan, unless it has ended. */
  subscription: TwinSubscription | null;
  tier: PaidTier | null;
}

export const portalActions = ['switch-pro', 'switch-label', 'cancel-at-period-end', 'resume', 'fail-renewal', 'advance'] as const;
export type PortalAction = (typeof portalActions)[number];
export const isPortalAction = (value: string): value is PortalAction => (portalActions as readonly string[]).includes(value);

/** What a portal action did, as the page says it. */
export const portalOutcomes = {
  'switched-pro': `Switched to ${planOf('pro').name}.`,
  'switched-label': `Switched to ${planOf('label').name}.`,
  cancelling: 'The subscription will cancel at the end of the period.',
  resumed: 'The subscription was resumed.',
  'payment-failed': 'The renewal payment failed: the subscription is past due.',
  'retry-failed': 'The payment retry failed: the subscription stays past due. Advance again to end the retry window.',
  renewed: 'The subscription renewed for another month.',
  ended: 'The period ended: the subscription is canceled.',
} as const;
export type PortalOutcome = keyof typeof portalOutcomes;
export const isPortalOutcome = (value: string): value is PortalOutcome => Object.hasOwn(portalOutcomes, value);

export interface PortalActionResult {
  outcome: PortalOutcome;
  subscription: TwinSubscription;
  delivery: DeliveryReport;
}

export class BillingTwin {
  readonly store: TwinStore;
  private readonly fetch: typeof fetch;
  private readonly prices: PriceTable;

  constructor(private readonly deps: TwinDeps) {
    this.store = new TwinStore(deps.db, deps.tableName);
    this.fetch = deps.fetch ?? fetch;
    this.prices = deps.prices ?? LOCAL_BILLING_PRICES;
  }

  get appUrl(): string {
    return this.deps.appUrl;
  }

  tierOfPrice(priceId: string): PaidTier | null {
    return paidTierOfPrice(this.prices, priceId);
  }

  // ---- Checkout -------------------------------------------------------------------------------

  async checkoutView(sessionId: string): Promise<CheckoutView> {
    const session = await this.store.checkoutSession(sessionId);
    if (!session) return { state: 'unknown' };
    // Expired: by a newer Checkout of the customer (only the newest tab pays) or by cancelling it.
    if (session.status === 'expired') return { state: 'expired', session };
    if (session.status !== 'open') return { state: 'used', session };
    if (session.created + SESSION_LIFETIME_SECONDS <= epochSeconds(this.deps.clock.now())) return { state: 'expired', session };
    const tier = this.tierOfPrice(session.priceId);
    return tier ? { state: 'open', session, tier } : { state: 'unknown-price', session };
  }

  /** Pays an open session: an active subscription for a month, then its events. */
  async payCheckout(sessionId: string): Promise<{ session: TwinCheckoutSession; subscription: TwinSubscription; delivery: DeliveryReport }> {
    const view = await this.openCheckout(sessionId);
    const { session, tier } = view;
    // 'Limit customers to one subscription': a customer who already has a live one is refused, as Stripe's Checkout does.
    const existing = governingSubscription(await this.store.subscriptions(session.customer));
    if (isLive(existing ?? null)) throw new TwinRefusal('This customer already has a subscription. Change the plan in the billing portal instead.');

    const now = this.deps.clock.now();
    const at = epochSeconds(now);
    const subscription = newSubscription({ id: this.store.newId('sub', now), latestInvoice: this.store.newId('in', now) }, session, at);
    if (!(await this.store.completeCheckoutSession(session, subscription))) throw new TwinRefusal(USED_SESSION);
    const completed: TwinCheckoutSession = { ...session, status: 'complete', subscription: subscription.id };
    const delivery = await this.deliver([
      ['customer.subscription.created', subscriptionJson(subscription)],
      ['invoice.paid', this.invoice(subscription, { paid: true, billingReason: 'subscription_create', tier })],
      ['checkout.session.completed', checkoutSessionJson(completed)],
    ]);
    return { session: completed, subscription, delivery };
  }

  /** Cancels an open session: nothing is paid and no event is sent, as when a person leaves Stripe's Checkout. */
  async cancelCheckout(sessionId: string): Promise<TwinCheckoutSession> {
    const { session } = await this.openCheckout(sessionId);
    if (!(await this.store.closeCheckoutSession(session.id))) throw new TwinRefusal(USED_SESSION);
    return { ...session, status: 'expired' };
  }

  // ---- Portal ---------------------------------------------------------------------------------

  async portalView(sessionId: string): Promise<PortalView | undefined> {
    const session = await this.store.portalSession(sessionId);
    if (!session || session.created + SESSION_LIFETIME_SECONDS <= epochSeconds(this.deps.clock.now())) return undefined;
    const governing = governingSubscription(await this.store.subscriptions(session.customer)) ?? null;
    const subscription = hasOpenSubscription(governing) ? governing : null;
    return { session, subscription, tier: subscription ? this.tierOfPrice(subscription.priceId) : null };
  }

  /** Applies one portal action to the customer's subscription; what it did (for the page's status message) and the delivery report. */
  async portalAction(sessionId: string, action: PortalAction): Promise<PortalActionResult> {
    const view = await this.portalView(sessionId);
    if (!view) throw new TwinRefusal(EXPIRED_PORTAL);
    const { subscription } = view;
    if (!subscription) throw new TwinRefusal('There is no subscription to change.');
    switch (action) {
      case 'switch-pro':
      case 'switch-label':
        return this.switchPlan(subscription, action === 'switch-pro' ? 'pro' : 'label');
      case 'cancel-at-period-end':
        return this.setCancelAtPeriodEnd(subscription, true);
      case 'resume':
        return this.setCancelAtPeriodEnd(subscription, false);
      case 'fail-renewal':
        return this.failRenewal(subscription);
      case 'advance':
        return this.advance(subscription);
    }
  }

  private async switchPlan(subscription: TwinSubscription, tier: PaidTier) {
    const priceId = this.prices[tier];
    if (subscription.priceId === priceId) throw new TwinRefusal(`The subscription is already on ${planOf(tier).name}.`);
    const before = subscriptionJson(subscription);
    const changed = await this.change({ ...subscription, priceId, latestInvoice: this.store.newId('in', this.deps.clock.now()) });
    const delivery = await this.deliver([
      ['customer.subscription.updated', subscriptionJson(changed), { items: before.items, latest_invoice: before.latest_invoice }],
      ['invoice.paid', this.invoice(changed, { paid: true, billingReason: 'subscription_update', tier })],
    ]);
    return { outcome: tier === 'pro' ? 'switched-pro' : 'switched-label', subscription: changed, delivery } as const;
  }

  private async setCancelAtPeriodEnd(subscription: TwinSubscription, cancel: boolean) {
    if (subscription.cancelAtPeriodEnd === cancel)
      throw new TwinRefusal(cancel ? 'The subscription already cancels at period end.' : 'The subscription is not cancelling.');
    const at = epochSeconds(this.deps.clock.now());
    const changed = await this.change({
      ...subscription,
      cancelAtPeriodEnd: cancel,
      cancelAt: cancel ? subscription.currentPeriodEnd : null,
      canceledAt: cancel ? at : null,
    });
    const delivery = await this.deliver([
      [
        'customer.subscription.updated',
        subscriptionJson(changed),
        { cancel_at_period_end: subscription.cancelAtPeriodEnd, cancel_at: subscription.cancelAt, canceled_at: subscription.canceledAt },
      ],
    ]);
    return { outcome: cancel ? 'cancelling' : 'resumed', subscription: changed, delivery } as const;
  }

  /** The renewal happens and its payment fails: the next period starts unpaid, past_due, and Stripe's retries begin. */
  private async failRenewal(subscription: TwinSubscription) {
    if (subscription.status !== 'active' && subscription.status !== 'trialing') throw new TwinRefusal('Only an active subscription can fail to renew.');
    if (subscription.cancelAtPeriodEnd) throw new TwinRefusal('The subscription cancels at period end: nothing renews.');
    const changed = await this.change({
      ...this.nextPeriod(subscription),
      status: 'past_due',
      failedPaymentAttempts: 1,
      latestInvoice: this.store.newId('in', this.deps.clock.now()),
    });
    const delivery = await this.deliver([
      ['invoice.payment_failed', this.invoice(changed, { paid: false, billingReason: 'subscription_cycle' })],
      ['customer.subscription.updated', subscriptionJson(changed), { status: subscription.status, items: subscriptionJson(subscription).items }],
    ]);
    return { outcome: 'payment-failed', subscription: changed, delivery } as const;
  }

  private async advance(subscription: TwinSubscription) {
    if (subscription.cancelAtPeriodEnd || (subscription.status === 'past_due' && subscription.failedPaymentAttempts >= 2)) {
      const ended = await this.change({
        ...subscription,
        status: 'canceled',
        endedAt: subscription.cancelAt ?? subscription.currentPeriodEnd,
        canceledAt: subscription.canceledAt ?? epochSeconds(this.deps.clock.now()),
      });
      const delivery = await this.deliver([['customer.subscription.deleted', subscriptionJson(ended)]]);
      return { outcome: 'ended', subscription: ended, delivery } as const;
    }
    if (subscription.status === 'past_due') {
      const retried = await this.change({ ...subscription, failedPaymentAttempts: subscription.failedPaymentAttempts + 1 });
      const delivery = await this.deliver([['invoice.payment_failed', this.invoice(retried, { paid: false, billingReason: 'subscription_cycle' })]]);
      return { outcome: 'retry-failed', subscription: retried, delivery } as const;
    }
    const renewed = await this.change({ ...this.nextPeriod(subscription), latestInvoice: this.store.newId('in', this.deps.clock.now()) });
    const delivery = await this.deliver([
      ['invoice.paid', this.invoice(renewed, { paid: true, billingReason: 'subscription_cycle' })],
      ['customer.subscription.updated', subscriptionJson(renewed), { items: subscriptionJson(subscription).items }],
    ]);
    return { outcome: 'renewed', subscription: renewed, delivery } as const;
  }

  // ---- Helpers --------------------------------------------------------------------------------

  private async openCheckout(sessionId: string) {
    const view = await this.checkoutView(sessionId);
    if (view.state === 'open') return view;
    throw new TwinRefusal(view.state === 'used' ? USED_SESSION : view.state === 'unknown-price' ? UNKNOWN_PRICE : EXPIRED_CHECKOUT);
  }

  private nextPeriod(subscription: TwinSubscription): TwinSubscription {
    const periods = subscription.periods + 1;
    return {
      ...subscription,
      periods,
      currentPeriodStart: subscription.currentPeriodEnd,
      currentPeriodEnd: monthsAfter(subscription.billingCycleAnchor, periods),
    };
  }

  private change(next: TwinSubscription): Promise<TwinSubscription> {
    return this.store.replaceSubscription(next, this.deps.clock.now());
  }

  private invoice(subscription: TwinSubscription, facts: Pick<InvoiceFacts, 'paid' | 'billingReason'> & { tier?: PaidTier }) {
    const tier = facts.tier ?? this.tierOfPrice(subscription.priceId);
    return invoiceJson({
      id: subscription.latestInvoice ?? this.store.newId('in', this.deps.clock.now()),
      subscription,
      paid: facts.paid,
      billingReason: facts.billingReason,
      amountCents: tier ? planOf(tier).priceUsd * 100 : 0,
      created: epochSeconds(this.deps.clock.now()),
    });
  }

  /** Posts each event in order, signed; every one is tried, and each failure is reported. */
  private async deliver(
    events: readonly [type: string, object: StripeEventObject | StripeSubscriptionJson, previous?: Record<string, unknown>][],
  ): Promise<DeliveryReport> {
    const secret = await this.deps.webhookSecret();
    const report: DeliveryReport = { events: [], failures: [] };
    const url = `${this.deps.appUrl}${BILLING_WEBHOOK_PATH}`;
    for (const [type, object, previous] of events) {
      const now = this.deps.clock.now();
      const event: StripeEventJson = {
        id: this.store.newId('evt', now),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: epochSeconds(now),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object, ...(previous ? { previous_attributes: previous } : {}) },
      };
      const payload = JSON.stringify(event);
      // Signed at the real time (not the twin's clock): the webhook checks the signature's age against its own.
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
      report.events.push({ event, payload, signature });
      try {
        const response = await this.fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [STRIPE_SIGNATURE_HEADER]: signature },
          body: payload,
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        });
        if (!response.ok) {
          const answer = (await response.text()).slice(0, 300);
          report.failures.push({ eventId: event.id, type, reason: `the webhook answered ${response.status}${answer ? `: ${answer}` : ''}` });
        }
      } catch (error) {
        report.failures.push({
          eventId: event.id,
          type,
          reason: `the webhook could not be reached (${error instanceof Error ? error.message : String(error)})`,
        });
      }
    }
    return report;
  }
}

const USED_SESSION = 'This checkout session was already used. Start again from the Subscription page.';
const EXPIRED_CHECKOUT = 'This checkout session is not valid or has expired. Start again from the Subscription page.';
const UNKNOWN_PRICE = 'This checkout session names a price that is not one of the local plans. Start again from the Subscription page.';
const EXPIRED_PORTAL = 'This billing portal session is not valid or has expired. Open it again with Manage Billing.';
