/**
 * Billing rules (DESIGN §10), pure: what a provider subscription means for the profile, the price id of
 * each paid plan and back, and the sync answer. The webhook and sync write only what these return, read
 * from the provider, never from an event's payload.
 */
import type { SubscriptionState } from '../../schema/api/billing';
import type { Profile, SubscriptionStatus, Tier } from '../../schema/api/profile';
import { isPaidTier, type PaidTier } from '../../schema/plans';
import type { ProfileBillingState, ProviderSubscription } from '../ports';
import { monthlyLimitOf } from './plans';

/** The webhook's signature is bad, missing or stale (older than the tolerance): answered 400, nothing changes. */
export class WebhookSignatureError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookSignatureError';
  }
}

/** A subscription bills a price that config does not name: a misconfiguration, never read as Free. */
export class UnknownPriceError extends Error {
  constructor(readonly priceId: string) {
    super(`The billing price ${priceId} is not configured for any plan (STRIPE_PRICE_PRO, STRIPE_PRICE_LABEL).`);
    this.name = 'UnknownPriceError';
  }
}

/** The provider's price id of each paid plan (config: ServerConfig.billingPrices). */
export type PriceTable = Readonly<Record<PaidTier, string>>;

/** The webhook's signature tolerance: an event signed longer ago is refused (Stripe's default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** How long an applied event id is remembered: far past Stripe's three days of retries. */
export const PROCESSED_EVENT_TTL_DAYS = 30;

/** The events that may change a subscription: each re-reads the provider; any other type is acknowledged and ignored. */
export const handledEventTypes = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;
export const isHandledEventType = (type: string) => (handledEventTypes as readonly string[]).includes(type);

/**
 * The statuses that keep the paid plan: active, trialing, and past_due (a failed renewal keeps the plan
 * through the provider's retry window). Every other status is Free. Read as strings: the adapters ask
 * of a provider's own subscription objects too (core/governingSubscription.ts, the local twin).
 */
const liveStatuses: ReadonlySet<string> = new Set<SubscriptionStatus>(['active', 'trialing', 'past_due']);
export const isLive = (subscription: { status: string } | null): boolean => subscription !== null && liveStatuses.has(subscription.status);

/** The statuses of a subscription that has ended: a customer with any other is changed in the portal, never sent to a second Checkout. */
const endedStatuses: ReadonlySet<string> = new Set<SubscriptionStatus>(['canceled', 'incomplete_expired']);
export const hasOpenSubscription = (subscription: { status: string } | null): boolean => subscription !== null && !endedStatuses.has(subscription.status);

/** The paid plan a price id bills, or null for a price config does not name (the local twin's pages say so). */
export function paidTierOfPrice(prices: PriceTable, priceId: string): PaidTier | null {
  return (Object.keys(prices) as PaidTier[]).find((candidate) => prices[candidate] === priceId) ?? null;
}

/** The paid plan a price id bills; a price config does not name is an error. */
export function tierOfPrice(prices: PriceTable, priceId: string): PaidTier {
  const tier = paidTierOfPrice(prices, priceId);
  if (!tier) throw new UnknownPriceError(priceId);
  return tier;
}

export const priceOfTier = (prices: PriceTable, tier: PaidTier): string => prices[tier];

/** The profile's billing fields: written by the verified webhook and sync only. */
export type BillingState = ProfileBillingState;

/** The billing state of a tier with no live subscription behind it. */
const freeState = (status: SubscriptionStatus): BillingState => ({
  tier: 'free',
  email_limit: monthlyLimitOf({ tier: 'free' }),
  subscription_status: status,
  subscription_end: null,
  cancel_at_period_end: false,
});

/**
 * What the profile says for the provider's current subscription: a live one (active, trialing,
 * past_due) is the plan of its price, with its period end and cancel flag; none or any other status is Free.
 */
export function billingStateOf(subscription: ProviderSubscription | null, prices: PriceTable): BillingState {
  if (subscription === null || !isLive(subscription)) return freeState(subscription?.status ?? 'none');
  const tier: Tier = tierOfPrice(prices, subscription.priceId);
  return {
    tier,
    email_limit: monthlyLimitOf({ tier }),
    subscription_status: subscription.status,
    subscription_end: subscription.currentPeriodEnd,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
  };
}

/** The billing fields of a stored profile (the answer for a user who never had a customer); the limit from the tier, as GET /api/profile says it. */
export const billingStateOfProfile = (profile: Profile): BillingState => ({
  tier: profile.tier,
  email_limit: monthlyLimitOf(profile),
  subscription_status: profile.subscription_status,
  subscription_end: profile.subscription_end,
  cancel_at_period_end: profile.cancel_at_period_end,
});

/** POST /api/billing/sync's answer (spec §7): subscribed means a paid plan is in force. */
export const subscriptionStateOf = (state: BillingState): SubscriptionState => ({
  subscribed: isPaidTier(state.tier),
  tier: state.tier,
  email_limit: state.email_limit,
  subscription_end: state.subscription_end,
  subscription_status: state.subscription_status,
  cancel_at_period_end: state.cancel_at_period_end,
});

/** Where Checkout and the portal send the browser back (spec §2 Subscription's query flags). */
export const billingReturnUrls = (appUrl: string) => ({
  success: `${appUrl}/dashboard/subscription?success=true`,
  cancel: `${appUrl}/dashboard/subscription?canceled=true`,
  portalReturn: `${appUrl}/dashboard/subscription`,
});
