/**
 * The billing group's adapters: the provider (Stripe in AWS, the local twin in `npm start` and the tests)
 * and the webhook verifier over the signing secret of each. Stripe is built on first use: its secret
 * key is read from Secrets Manager and the stripe library imported then, so a cold start pays for neither.
 * Missing settings make stand-ins that answer 503 naming what is missing.
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
import { DomainError } from '../core/errors';
import type { BillingDeps } from '../http/billing';
import type { BillingProvider, WebhookVerifier } from '../ports';
import type { ServerConfig } from './config';
import { secretsManagerOf } from './googleClient';
import { lazyAdapter } from './lazy';
import { tableOf } from './table';

const notConfigured = (settings: string[]) => (): Promise<never> =>
  Promise.reject(new DomainError('unavailable', `Billing is not configured: ${settings.join(' and ')} not set (see docs/deploy.md: Stripe).`));

/** A provider that fails every call with 503, naming the missing settings. */
const unconfiguredProvider = (settings: string[]): BillingProvider => ({
  createCustomer: notConfigured(settings),
  createCheckoutSession: notConfigured(settings),
  createPortalSession: notConfigured(settings),
  currentSubscription: notConfigured(settings),
});

function providerAdapters(config: ServerConfig, table: ReturnType<typeof tableOf>): { provider: BillingProvider; verifier: WebhookVerifier } {
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
          // Within the Lambda's 10 s: stripe-node's default is 80 s with retries, and checkout makes three calls.
          return new StripeBilling(new Stripe(secretKey, { timeout: 7000, maxNetworkRetries: 1 }), { appUrl: config.appUrl });
        }, ['createCustomer', 'createCheckoutSession', 'createPortalSession', 'currentSubscription'])
      : unconfiguredProvider(['STRIPE_SECRET_KEY_NAME']),
    verifier: stripeWebhookSecretName
      ? new StripeWebhookVerifier({ secret: () => cachedSecretString(secretsManager(), stripeWebhookSecretName) })
      : { verify: notConfigured(['STRIPE_WEBHOOK_SECRET_NAME']) },
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
