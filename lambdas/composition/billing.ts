/**
 * The billing group's adapters: the provider (Stripe in AWS, the local twin in `npm start` and the tests)
 * and the webhook verifier over the signing secret of each. Stripe is built on first use: its secret
 * key is read from Secrets Manager and the stripe library imported then, so a cold start pays for neither.
 * Missing settings make stand-ins that answer 503 naming what is missing (./notConfigured).
 */
import { systemClock } from '../adapters/clock';
import { DynamoBillingStore } from '../adapters/dynamodb/billingStore';
import { DynamoProfileStore } from '../adapters/dynamodb/profileStore';
import { DynamoSendingCursorStore } from '../adapters/dynamodb/sending/cursor';
import { LocalBilling } from '../adapters/local-billing/localBilling';
import { localKeys } from '../adapters/local-secrets/localKeys';
import { cachedSecretString } from '../adapters/secrets-manager/secretValue';
import { StripeBilling } from '../adapters/stripe/stripeBilling';
import { StripeWebhookVerifier } from '../adapters/stripe/webhookVerifier';
import { notConfiguredMessage } from '../../schema/api/serverMessages';
import type { BillingDeps } from '../http/billing';
import type { BillingProvider, WebhookVerifier } from '../ports';
import type { ServerConfig } from './config';
import { secretsManagerOf } from './googleClient';
import { lazyAdapter } from './lazy';
import { notConfigured } from './notConfigured';
import { tableOf } from './table';

/** Billing's 503 when `settings` are missing (the provider's secrets here, the price ids in the handler). */
export const billingNotConfiguredMessage = (settings: readonly string[]) => notConfiguredMessage('Billing', settings, 'Stripe billing');

const billingNotConfigured = (setting: string) => notConfigured(billingNotConfiguredMessage([setting]));

/** A provider that fails every call with 503, naming the missing setting. */
const unconfiguredProvider = (setting: string): BillingProvider => ({
  createCustomer: billingNotConfigured(setting),
  createCheckoutSession: billingNotConfigured(setting),
  createPortalSession: billingNotConfigured(setting),
  currentSubscription: billingNotConfigured(setting),
  expireOpenCheckoutSessions: billingNotConfigured(setting),
  liveSubscriptions: billingNotConfigured(setting),
  cancelSubscription: billingNotConfigured(setting),
});

/** The billing provider and webhook verifier of a configuration (the account deletion cancels through the same provider). */
export function providerAdapters(config: ServerConfig, table: ReturnType<typeof tableOf>): { provider: BillingProvider; verifier: WebhookVerifier } {
  if (config.billing === 'local') {
    return {
      provider: new LocalBilling({ db: table.db, tableName: table.name, appUrl: config.appUrl, clock: systemClock }),
      verifier: new StripeWebhookVerifier({ secret: localKeys(config.localDataDir).billingWebhookSecret }),
    };
  }
  const secretsManager = secretsManagerOf(config);
  const { stripeSecretKeyName, stripeWebhookSecretName } = config;
  return {
    provider: stripeSecretKeyName
      ? lazyAdapter(async () => {
          const [{ default: Stripe }, secretKey] = await Promise.all([import('stripe'), cachedSecretString(secretsManager(), stripeSecretKeyName)]);
          // Within the Lambda's 10 s: stripe-node's default is 80 s with retries, and checkout makes four or more calls (read, list and expire open sessions, create).
          return new StripeBilling(new Stripe(secretKey, { timeout: 7000, maxNetworkRetries: 1 }), { appUrl: config.appUrl });
        }, [
          'createCustomer',
          'createCheckoutSession',
          'createPortalSession',
          'currentSubscription',
          'expireOpenCheckoutSessions',
          'liveSubscriptions',
          'cancelSubscription',
        ])
      : unconfiguredProvider('STRIPE_SECRET_KEY_NAME'),
    verifier: stripeWebhookSecretName
      ? new StripeWebhookVerifier({ secret: () => cachedSecretString(secretsManager(), stripeWebhookSecretName) })
      : { verify: billingNotConfigured('STRIPE_WEBHOOK_SECRET_NAME') },
  };
}

export function billingDeps(config: ServerConfig): BillingDeps {
  const table = tableOf(config);
  return {
    profiles: new DynamoProfileStore(table.db, table.name),
    billing: new DynamoBillingStore(table.db, table.name),
    ...providerAdapters(config, table),
    sending: new DynamoSendingCursorStore(table.db, table.name),
    prices: config.billingPrices,
    clock: systemClock,
    appUrl: config.appUrl,
  };
}
