/**
 * The billing provider in AWS: Stripe (stripe-node v23, API version basil and later, where the billing
 * period lives on each subscription item, not on the subscription). A customer per user (created once:
 * the idempotency key is the user's), Checkout in subscription mode for one price with the user id as
 * client_reference_id, the Customer Portal, and the customer's subscription as Stripe holds it now.
 *
 * Only the Stripe client's type is imported: the composition builds the client (key from Secrets
 * Manager), the tests point one at a local stand-in of the API.
 */
import type Stripe from 'stripe';
import { subscriptionStatuses, type SubscriptionStatus } from '../../../schema/api/profileValues';
import { appReturnUrl } from '../billingReturnUrl';
import { hasOpenSubscription, isLive } from '../../core/billing';
import { governingSubscription } from '../../core/governingSubscription';
import type { BillingProvider, CheckoutSessionInput, ListedSubscription, ProviderSubscription } from '../../ports';

/** What the port's answer is read from: the fields of a Stripe subscription it needs (the local twin renders the same shape). */
export type SubscriptionFields = Pick<Stripe.Subscription, 'id' | 'status' | 'cancel_at' | 'cancel_at_period_end'> & {
  items: { data: readonly (Pick<Stripe.SubscriptionItem, 'current_period_end'> & { price: Pick<Stripe.Price, 'id'> })[] };
};

const knownStatuses: ReadonlySet<string> = new Set(subscriptionStatuses.filter((status) => status !== 'none'));

const isoOfSeconds = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * The port's view of a Stripe subscription: its first item's price and period end. A subscription with
 * `cancel_at` set (what the Customer Portal sets on newer API versions instead of cancel_at_period_end)
 * is cancelling too, and ends at that date. A status this code does not know is an error, never read
 * as some plan.
 */
export function providerSubscriptionOf(subscription: SubscriptionFields): ProviderSubscription {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${subscription.id} has no items`);
  if (!knownStatuses.has(subscription.status)) throw new Error(`Stripe subscription ${subscription.id} has an unknown status "${subscription.status}"`);
  const cancelAt = subscription.cancel_at;
  return {
    id: subscription.id,
    status: subscription.status as SubscriptionStatus,
    priceId: item.price.id,
    currentPeriodEnd: isoOfSeconds(cancelAt ?? item.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end || cancelAt !== null,
  };
}

/** Stripe's idempotency key for a user's customer: a retry (or a race) within Stripe's 24 hours gets the same customer. */
export const customerIdempotencyKey = (userId: string) => `trackpitch-customer-${userId}`;

export class StripeBilling implements BillingProvider {
  constructor(
    private readonly stripe: Stripe,
    private readonly options: { appUrl: string },
  ) {}

  async createCustomer({ userId, email }: { userId: string; email: string }): Promise<string> {
    const customer = await this.stripe.customers.create({ email, metadata: { userId } }, { idempotencyKey: customerIdempotencyKey(userId) });
    return customer.id;
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<string> {
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: input.customerId,
      client_reference_id: input.userId,
      line_items: [{ price: input.priceId, quantity: 1 }],
      success_url: this.ownUrl(input.successUrl),
      cancel_url: this.ownUrl(input.cancelUrl),
      metadata: { userId: input.userId },
      subscription_data: { metadata: { userId: input.userId } },
    });
    if (!session.url) throw new Error(`Stripe returned Checkout Session ${session.id} without a URL`);
    return session.url;
  }

  async createPortalSession({ customerId, returnUrl }: { customerId: string; returnUrl: string }): Promise<string> {
    const session = await this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: this.ownUrl(returnUrl) });
    return session.url;
  }

  async currentSubscription(customerId: string): Promise<ProviderSubscription | null> {
    // status 'all': without it Stripe leaves out canceled subscriptions, and a deletion would read as "never subscribed".
    const subscriptions = await this.stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 }).autoPagingToArray({ limit: 1000 });
    const governing = governingSubscription(subscriptions);
    return governing ? providerSubscriptionOf(governing) : null;
  }

  async expireOpenCheckoutSessions(customerId: string): Promise<string[]> {
    const open = await this.stripe.checkout.sessions.list({ customer: customerId, status: 'open', limit: 100 }).autoPagingToArray({ limit: 1000 });
    const expired: string[] = [];
    for (const session of open) {
      try {
        await this.stripe.checkout.sessions.expire(session.id);
        expired.push(session.id);
      } catch (error) {
        // Paid or expired since the list: only an open session can be expired, and this one no longer pays twice.
        if (!(error instanceof this.stripe.errors.StripeInvalidRequestError)) throw error;
        if ((await this.stripe.checkout.sessions.retrieve(session.id)).status === 'open') throw error;
      }
    }
    return expired;
  }

  async liveSubscriptions(customerId: string): Promise<ListedSubscription[]> {
    // Stripe filters by one status at a time: list all and keep the live ones (one call).
    const subscriptions = await this.stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 }).autoPagingToArray({ limit: 1000 });
    // Live statuses are ones the port names.
    return subscriptions
      .filter(isLive)
      .map((subscription) => ({ id: subscription.id, status: subscription.status as SubscriptionStatus, created: subscription.created }));
  }

  async cancelSubscription({ subscriptionId }: { customerId: string; subscriptionId: string }): Promise<'canceled' | 'already_ended'> {
    try {
      // prorate: the unused time of the period is credited to the customer (their next invoice).
      await this.stripe.subscriptions.cancel(subscriptionId, { prorate: true });
      return 'canceled';
    } catch (error) {
      // A duplicate or concurrent webhook cancelled it first: Stripe refuses a second cancel; that is done, not failed.
      if (!(error instanceof this.stripe.errors.StripeInvalidRequestError)) throw error;
      if (hasOpenSubscription(await this.stripe.subscriptions.retrieve(subscriptionId))) throw error;
      return 'already_ended';
    }
  }

  private ownUrl(url: string): string {
    return appReturnUrl(this.options.appUrl, url);
  }
}
