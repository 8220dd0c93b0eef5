/**
 * Which of a customer's subscriptions governs their plan now (BillingProvider.currentSubscription): the
 * newest one that has not ended, preferring a live one (active, trialing, past_due) over one that is
 * still settling (incomplete, unpaid, paused); when every one has ended, the newest (so its 'canceled'
 * reaches the profile). One rule for both billing adapters, so Stripe and the local twin agree.
 */
import { hasOpenSubscription, isLive } from './billing';

export interface SubscriptionCandidate {
  id: string;
  status: string;
  /** Epoch seconds, as Stripe's `created`. */
  created: number;
}

/** Newest first; the id breaks a tie within one second (both adapters' ids sort by creation). */
const newestFirst = (a: SubscriptionCandidate, b: SubscriptionCandidate) => b.created - a.created || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function governingSubscription<T extends SubscriptionCandidate>(subscriptions: readonly T[]): T | undefined {
  const ordered = [...subscriptions].sort(newestFirst);
  return ordered.find(isLive) ?? ordered.find(hasOpenSubscription) ?? ordered[0];
}
