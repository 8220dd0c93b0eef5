/**
 * The billing composition (lambdas/composition/billing.ts; Secrets Manager mocked): which verifier and
 * secret each configuration wires (the provider built on first use is lazyAdapter's: lazy-adapter.test.ts).
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { localKeys } from '../../lambdas/adapters/local-secrets/localKeys';
import { billingDeps } from '../../lambdas/composition/billing';
import type { ServerConfig } from '../../lambdas/composition/config';
import { WebhookSignatureError } from '../../lambdas/core/billing';
import { signedDelivery } from '../fakes/billing';

const smMock = mockClient(SecretsManagerClient);
beforeEach(() => smMock.reset());

const base: ServerConfig = {
  tableName: 'tp',
  region: 'us-east-1',
  writer: 'local',
  mailbox: 'local',
  appUrl: 'https://app.test',
  intervalMs: 60_000,
  billing: 'stripe',
  billingPrices: { pro: 'price_p', label: 'price_l' },
};

describe('billingDeps', () => {
  it('Stripe: verifies with the signing secret read from the configured secret, and only with it', async () => {
    smMock.on(GetSecretValueCommand, { SecretId: 'trackpitch/test/stripe-webhook-secret-1' }).resolves({ SecretString: 'whsec_from_secrets_manager' });
    const deps = billingDeps({
      ...base,
      stripeSecretKeyName: 'trackpitch/test/stripe-secret-key-1',
      stripeWebhookSecretName: 'trackpitch/test/stripe-webhook-secret-1',
    });
    const good = signedDelivery('invoice.paid', { id: 'evt_c1', customerId: 'cus_1' }, { secret: 'whsec_from_secrets_manager' });
    expect(await deps.verifier.verify(good.body, good.signature)).toMatchObject({ id: 'evt_c1', customerId: 'cus_1' });
    const other = signedDelivery('invoice.paid', { customerId: 'cus_1' }, { secret: 'whsec_local' });
    await expect(deps.verifier.verify(other.body, other.signature)).rejects.toThrow(WebhookSignatureError);
    expect(smMock.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input.SecretId)).toEqual(['trackpitch/test/stripe-webhook-secret-1']);
    expect(deps.prices).toEqual({ pro: 'price_p', label: 'price_l' });
    expect(deps.appUrl).toBe('https://app.test');
  });

  it('local: verifies with the local twin’s secret, without Secrets Manager', async () => {
    const deps = billingDeps({ ...base, billing: 'local' });
    const secret = await localKeys(undefined).billingWebhookSecret();
    const good = signedDelivery('invoice.paid', { id: 'evt_c2', customerId: 'cus_2' }, { secret });
    expect(await deps.verifier.verify(good.body, good.signature)).toMatchObject({ id: 'evt_c2' });
    expect(smMock.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});
