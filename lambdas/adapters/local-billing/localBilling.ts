/**
 * The billing provider of the local runtime: the local twin of Stripe, with no network. It keeps its
 * own records (twinStore.ts) and sends the browser to the local Checkout and portal pages
 * (lib/local/billingPages.ts), whose transitions (twin.ts) post Stripe's events to the app's webhook.
 * Its answers go through the same reading of a Stripe subscription as the Stripe adapter's, so both
 * report a subscription the same way (one contract test runs against both).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { hasOpenSubscription, isLive } from '../../core/billing';
import { governingSubscription } from '../../core/governingSubscription';
import type { BillingProvider, CheckoutSessionInput, Clock, ListedSubscription, ProviderSubscription } from '../../ports';
import { appReturnUrl } from '../billingReturnUrl';
import { epochSeconds } from '../clock';
import { providerSubscriptionOf } from '../stripe/stripeBilling';
import { checkoutPageUrl, portalPageUrl } from './paths';
import { subscriptionJson } from './stripeShapes';
import { TwinConflictError, TwinStore } from './twinStore';

export class LocalBilling implements BillingProvider {
  private readonly store: TwinStore;

  constructor(private readonly deps: { db: DynamoDBDocumentClient; tableName: string; appUrl: string; clock: Clock }) {
    this.store = new TwinStore(deps.db, deps.tableName);
  }

  async createCustomer(input: { userId: string; email: string }): Promise<string> {
    return (await this.store.customerForUser(input, this.deps.clock.now())).id;
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<string> {
    const now = this.deps.clock.now();
    const id = this.store.newSessionId('cs');
    await this.store.putCheckoutSession({
      id,
      customer: input.customerId,
      userId: input.userId,
      priceId: input.priceId,
      successUrl: appReturnUrl(this.deps.appUrl, input.successUrl),
      cancelUrl: appReturnUrl(this.deps.appUrl, input.cancelUrl),
      status: 'open',
      subscription: null,
      created: epochSeconds(now),
    });
    return checkoutPageUrl(this.deps.appUrl, id);
  }

  async createPortalSession({ customerId, returnUrl }: { customerId: string; returnUrl: string }): Promise<string> {
    const now = this.deps.clock.now();
    const id = this.store.newSessionId('bps');
    await this.store.putPortalSession({ id, customer: customerId, returnUrl: appReturnUrl(this.deps.appUrl, returnUrl), created: epochSeconds(now) });
    return portalPageUrl(this.deps.appUrl, id);
  }

  async currentSubscription(customerId: string): Promise<ProviderSubscription | null> {
    const governing = governingSubscription(await this.store.subscriptions(customerId));
    return governing ? providerSubscriptionOf(subscriptionJson(governing)) : null;
  }

  async expireOpenCheckoutSessions(customerId: string): Promise<string[]> {
    const expired: string[] = [];
    for (const session of await this.store.openCheckoutSessions(customerId)) {
      // False: paid or expired since the list, so it cannot be paid twice either.
      if (await this.store.closeCheckoutSession(session.id)) expired.push(session.id);
    }
    return expired;
  }

  async liveSubscriptions(customerId: string): Promise<ListedSubscription[]> {
    return (await this.store.subscriptions(customerId)).filter(isLive).map(({ id, status, created }) => ({ id, status, created }));
  }

  /** Ends the subscription now, as Stripe's cancel does (the twin keeps no invoices, so the proration credit is not modelled). */
  async cancelSubscription({ customerId, subscriptionId }: { customerId: string; subscriptionId: string }): Promise<'canceled' | 'already_ended'> {
    // Two tries: a concurrent webhook may cancel it between the read and the write.
    for (let attempt = 0; attempt < 2; attempt++) {
      const subscription = await this.store.subscription(customerId, subscriptionId);
      if (!subscription) throw new Error(`No local subscription ${subscriptionId} for customer ${customerId}`);
      if (!hasOpenSubscription(subscription)) return 'already_ended';
      const at = epochSeconds(this.deps.clock.now());
      try {
        await this.store.replaceSubscription(
          { ...subscription, status: 'canceled', cancelAtPeriodEnd: false, cancelAt: null, canceledAt: at, endedAt: at },
          this.deps.clock.now(),
        );
        return 'canceled';
      } catch (error) {
        if (!(error instanceof TwinConflictError)) throw error;
      }
    }
    const subscription = await this.store.subscription(customerId, subscriptionId);
    if (subscription && !hasOpenSubscription(subscription)) return 'already_ended';
    throw new TwinConflictError();
  }
}
