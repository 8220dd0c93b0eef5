import type { SubscriptionState } from '../../../../schema/api/billing';
import type { Profile, SubscriptionStatus, Tier } from '../../../../schema/api/profile';
import { isPaidTier, type PaidTier } from '../../../../schema/plans';

/** What the Subscription page shows and does, apart from its layout (spec §2 Subscription, §4, §8). */

export const subscriptionMessages = {
  /** Spec §2 query flag success=true. */
  activated: 'Subscription activated! Welcome to your new plan.',
  /** Spec §2 query flag canceled=true. */
  canceled: 'Subscription canceled. You can try again anytime.',
  /** Spec §4 Subscription: sync failed, the page shows the profile's data. */
  syncFailed: 'Could not sync with the payment provider. Showing cached subscription data.',
  /** Spec §8 Subscription. */
  checkoutFailed: 'Failed to start checkout process. Please try again.',
  portalFailed: 'Failed to access billing portal',
  paymentFailedTitle: 'Your last payment failed',
} as const;

/** The query flags the Checkout page returns with (spec §2). */
export const SUCCESS_FLAG = 'success';
export const CANCELED_FLAG = 'canceled';

/** The subscription fields a sync answers with, as the profile holds them (what the sidebar reads). */
export function profilePatchOf(
  state: SubscriptionState,
): Pick<Profile, 'tier' | 'email_limit' | 'subscription_end' | 'subscription_status' | 'cancel_at_period_end'> {
  return {
    tier: state.tier,
    email_limit: state.email_limit,
    subscription_end: state.subscription_end,
    subscription_status: state.subscription_status,
    cancel_at_period_end: state.cancel_at_period_end,
  };
}

/** A plan card's button (spec §4 Plan card actions). */
export type PlanAction = { kind: 'current' } | { kind: 'upgrade'; tier: PaidTier } | { kind: 'cancel' };

export function planAction(cardTier: Tier, currentTier: Tier): PlanAction {
  if (cardTier === currentTier) return { kind: 'current' };
  // The Free card of a paying user: leaving a paid plan is done in the billing portal.
  if (!isPaidTier(cardTier)) return { kind: 'cancel' };
  // For a subscriber the server answers with the billing portal, where the plan is switched.
  return { kind: 'upgrade', tier: cardTier };
}

/** 'Manage Billing' is for paying subscribers only (spec §6). */
export const paysForPlan = (profile: Pick<Profile, 'tier'>) => isPaidTier(profile.tier);

/** The provider could not take the renewal payment: the plan is kept through its retries (issue 14 point 5). */
export const paymentFailed = (status: SubscriptionStatus) => status === 'past_due' || status === 'unpaid';

/** A date as the banner prints it: 'December 26, 2026' (the browser's time zone). */
export const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

/** The banner's period line: 'Renews on {date}' or, after a cancel at period end, 'Cancels on {date}'; null without a paid period. */
export function periodText(profile: Pick<Profile, 'tier' | 'subscription_end' | 'cancel_at_period_end'>): string | null {
  if (!isPaidTier(profile.tier) || !profile.subscription_end || Number.isNaN(Date.parse(profile.subscription_end))) return null;
  return `${profile.cancel_at_period_end ? 'Cancels on' : 'Renews on'} ${formatDate(profile.subscription_end)}`;
}
