/**
 * Plans and billing (spec §7 sync-subscription, create-checkout, manage-subscription; DESIGN §10). The
 * tier changes only here, and only to what the provider says now: the verified webhook and sync re-read
 * the customer's subscription and write its mapping onto the profile (lambdas/core/billing.ts).
 */
import type { Context } from 'aws-lambda';
import type { BillingRedirect } from '../../schema/api/billing';
import { MetricNames, MetricUnits } from '../../schema/metrics';
import { appMetrics } from '../adapters/metrics';
import {
  billingReturnUrls,
  billingStateOf,
  billingStateOfProfile,
  isHandledEventType,
  hasOpenSubscription,
  priceOfTier,
  subscriptionStateOf,
  WebhookSignatureError,
  type PriceTable,
} from '../core/billing';
import { DomainError } from '../core/errors';
import { oneLiveSubscription } from '../core/governingSubscription';
import { raisesMonthlyLimit } from '../core/plans';
import type { Identity } from '../core/profile';
import type { AppMetrics, BillingEvent, BillingProvider, BillingStore, Clock, ProfileStore, ProviderSubscription, SenderWake, WebhookVerifier } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { billingDeps, billingNotConfiguredMessage } from '../composition/billing';
import { notConfiguredError } from '../composition/notConfigured';
import { HttpError, httpApi, json, lazyHandler, logger, parse, type ApiEvent, type ApiResult } from './api';
import { ensureProfile } from './ensureProfile';

export interface BillingDeps {
  profiles: ProfileStore;
  billing: BillingStore;
  /** Stripe, or the local twin; a stand-in answering 503 when its config is missing. */
  provider: BillingProvider;
  verifier: WebhookVerifier;
  /** Wakes the user's sender after an upgrade, so campaigns held at the monthly limit go on at once. */
  sending: SenderWake;
  /** The price id of each paid plan; undefined when not configured (the routes answer 503). */
  prices: PriceTable | undefined;
  clock: Clock;
  appUrl: string;
  /** Counts the webhook deliveries that failed (WebhookFailures); none in the local server. */
  metrics?: AppMetrics;
}

/** The webhook's answer: what became of the event (the provider only reads the status). */
export interface WebhookAnswer {
  received: true;
  outcome: 'applied' | 'duplicate' | 'ignored' | 'unknown_customer';
}

/** The checkout body's schema, loaded by the first checkout: sync (every Subscription page load) and the webhook validate no JSON body. */
const billingSchemas = () => import('../../schema/api/billing');

export const PROVIDER_UNAVAILABLE = 'billing_provider_unavailable';

/** A provider call of a user route: a failure is a 502 the page can word ('Failed to start checkout process…'). */
async function fromProvider<T>(work: Promise<T>, what: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof DomainError || error instanceof HttpError) throw error;
    logger.error('Billing provider call failed', { error: error as Error, what });
    throw new HttpError(502, `The billing provider did not answer (${what}). Please try again.`, PROVIDER_UNAVAILABLE);
  }
}

const WEBHOOK_ROUTE = 'POST /api/billing/webhook';

export const makeHandler = ({ profiles, billing, provider, verifier, sending, prices, clock, appUrl, metrics }: BillingDeps) => {
  const urls = billingReturnUrls(appUrl);

  const configuredPrices = (): PriceTable => {
    if (!prices) throw notConfiguredError(billingNotConfiguredMessage(['STRIPE_PRICE_PRO', 'STRIPE_PRICE_LABEL']));
    return prices;
  };

  /**
   * After a written upgrade: the sender reads the new plan at its next tick. A failure is logged, not
   * answered: the tier is written, and the next Pacific month (or the artist's Resume) releases anyway.
   */
  const wakeSender = async (userId: string) => {
    try {
      await sending.wakeSender(userId, clock.now());
    } catch (error) {
      logger.error('Could not wake the sender after a plan upgrade', { error: error as Error, userId });
    }
  };

  /**
   * Reads the customer's subscription from the provider and writes its state onto the user's profile,
   * guarded by when the read started; returns what the profile says afterwards. A write that raises the
   * monthly limit wakes the sender. A price config does not name is our error (500, logged), not the provider's.
   */
  const applyProviderState = async (userId: string, customerId: string, read: (customerId: string) => Promise<ProviderSubscription | null>) => {
    const table = configuredPrices();
    const readAt = clock.now();
    const state = billingStateOf(await read(customerId), table);
    const result = await billing.writeBillingState(userId, state, readAt);
    if (result.outcome === 'written' && raisesMonthlyLimit(result.previousTier, result.profile.tier)) await wakeSender(userId);
    if (result.outcome === 'no_profile') logger.warn('Billing state for a user without a profile', { userId, customerId });
    return result.outcome === 'no_profile' ? state : billingStateOfProfile(result.profile);
  };

  /**
   * The safety net behind checkout's expiry: a customer with more than one live subscription (two tabs
   * paid at once) keeps the oldest; each newer one is cancelled, prorated, and logged. A cancel that
   * finds it already ended (a duplicate or concurrent delivery did it) is no failure.
   */
  const cancelSurplusSubscriptions = async (userId: string, customerId: string) => {
    const { keep, cancel } = oneLiveSubscription(await provider.liveSubscriptions(customerId));
    for (const surplus of cancel) {
      const outcome = await provider.cancelSubscription({ customerId, subscriptionId: surplus.id });
      logger.warn('Cancelled a second live subscription of one customer (prorated)', {
        userId,
        customerId,
        cancelledSubscriptionId: surplus.id,
        keptSubscriptionId: keep?.id,
        outcome,
      });
    }
  };

  /** The user's customer, created (and linked both ways) on first checkout. */
  const ensureCustomer = async (identity: Identity): Promise<string> => {
    const existing = await billing.customerOf(identity.userId);
    if (existing) return existing;
    const created = await fromProvider(provider.createCustomer({ userId: identity.userId, email: identity.email }), 'create customer');
    return billing.linkCustomer(identity.userId, created);
  };

  /**
   * The user a verified event is about: its customer's, as linked before Checkout. A session's
   * client_reference_id never links a customer: a Payment Link or pricing table takes it from its URL,
   * so a signed event can still name a user its payer is not.
   */
  const userOfEvent = (event: BillingEvent & { customerId: string }): Promise<string | undefined> => billing.userOfCustomer(event.customerId);

  const api = httpApi('billing', {
    'POST /api/billing/sync': async ({ identity }) => {
      const profile = await ensureProfile(profiles, identity, clock.now());
      const customerId = await billing.customerOf(identity.userId);
      if (!customerId) return json(200, subscriptionStateOf(billingStateOfProfile(profile)));
      const state = await applyProviderState(identity.userId, customerId, (id) => fromProvider(provider.currentSubscription(id), 'read subscription'));
      return json(200, subscriptionStateOf(state));
    },

    'POST /api/billing/checkout': async ({ identity, body }) => {
      const { tier } = parse((await billingSchemas()).checkoutRequestSchema, body);
      const priceId = priceOfTier(configuredPrices(), tier);
      await ensureProfile(profiles, identity, clock.now());
      const customerId = await ensureCustomer(identity);
      // One subscription per customer: a subscribed user changes plan in the portal.
      const current = await fromProvider(provider.currentSubscription(customerId), 'read subscription');
      if (hasOpenSubscription(current)) {
        const url = await fromProvider(provider.createPortalSession({ customerId, returnUrl: urls.portalReturn }), 'open the billing portal');
        return json(200, { url } satisfies BillingRedirect);
      }
      // Only the newest tab can pay: an older open Checkout paid after it would be a second subscription.
      await fromProvider(provider.expireOpenCheckoutSessions(customerId), 'expire open checkouts');
      const url = await fromProvider(
        provider.createCheckoutSession({ customerId, userId: identity.userId, priceId, successUrl: urls.success, cancelUrl: urls.cancel }),
        'start checkout',
      );
      return json(200, { url } satisfies BillingRedirect);
    },

    'POST /api/billing/portal': async ({ identity }) => {
      const customerId = await billing.customerOf(identity.userId);
      if (!customerId) throw new HttpError(404, 'No billing account yet: choose a plan first.', 'no_billing_customer');
      const url = await fromProvider(provider.createPortalSession({ customerId, returnUrl: urls.portalReturn }), 'open the billing portal');
      return json(200, { url } satisfies BillingRedirect);
    },

    /**
     * Public: the signature over the raw body says the provider sent it. Each event id is applied once;
     * a provider failure answers 500 so the provider delivers the event again.
     */
    [WEBHOOK_ROUTE]: async ({ event, rawBody }) => {
      let verified: BillingEvent;
      try {
        verified = await verifier.verify(rawBody ?? '', event.headers['stripe-signature']);
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw new HttpError(400, error.message, 'invalid_signature');
        throw error;
      }
      if (!isHandledEventType(verified.type)) return json(200, { received: true, outcome: 'ignored' } satisfies WebhookAnswer);
      if (await billing.wasApplied(verified.id)) return json(200, { received: true, outcome: 'duplicate' } satisfies WebhookAnswer);
      const { customerId } = verified;
      const userId = customerId === null ? undefined : await userOfEvent({ ...verified, customerId });
      if (customerId !== null && userId !== undefined) {
        await cancelSurplusSubscriptions(userId, customerId);
        await applyProviderState(userId, customerId, (id) => provider.currentSubscription(id));
      } else {
        logger.warn('Billing event for no known user', { eventId: verified.id, type: verified.type, customerId });
      }
      await billing.markApplied(verified.id, clock.now());
      return json(200, { received: true, outcome: userId === undefined ? 'unknown_customer' : 'applied' } satisfies WebhookAnswer);
    },
  });

  /**
   * A webhook delivery that failed is one answered 5xx: an event not applied (the provider, the table or
   * the configuration failed), which the provider delivers again. A 4xx is the sender's fault (a forged,
   * unsigned or stale request): no failure of ours, and counting it would let anyone set off the alarm.
   */
  return async (event: ApiEvent, context: Context): Promise<ApiResult> => {
    const answer = await api(event, context);
    if (metrics && event.routeKey === WEBHOOK_ROUTE && (answer.statusCode ?? 200) >= 500) {
      metrics.addMetric(MetricNames.WebhookFailures, MetricUnits.WebhookFailures, 1);
      metrics.publishStoredMetrics();
    }
    return answer;
  };
};

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(billingDeps(config));
/** The Lambda entry: reads the environment once, on the first request, and counts failed webhooks. */
export const handler = lazyHandler(() => makeHandler({ ...billingDeps(readServerConfig(process.env)), metrics: appMetrics() }));
