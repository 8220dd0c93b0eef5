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

/** Oldest first; the id breaks a tie within one second. */
const oldestFirst = (a: SubscriptionCandidate, b: SubscriptionCandidate) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * One live subscription per customer (two Checkout tabs paid one after the other make two): the oldest
 * live one is kept (the first the customer paid for), every newer live one is cancelled (prorated). The
 * governing rule then finds the kept one. Nothing to cancel with one live subscription or none.
 */
export function oneLiveSubscription<T extends SubscriptionCandidate>(subscriptions: readonly T[]): { keep: T | undefined; cancel: T[] } {
  const [keep, ...cancel] = subscriptions.filter(isLive).sort(oldestFirst);
  return { keep, cancel };
}
