/**
 * Billing in the template (issue 14 point 8; DESIGN §10): Stripe's secret key and webhook signing secret
 * in Secrets Manager, readable by the billing function only; the price ids from config in its environment
 * (and nowhere else); the webhook route public and throttled; bad price settings refused at synth.
 */
import type { CfnResource } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { cloudHandlerGroups, type CloudHandlerGroup } from '../../lib/cloud/api';
import { ConfigError, readConfig } from '../../lib/cloud/config';
import { stripeSecretName } from '../../lib/cloud/secrets';
import { actionsOf, resourcesOfType, statementsOfRole, synth } from './synth';

const PRICES = { stripePricePro: 'price_1ProTest', stripePriceLabel: 'price_1LabelTest' } as const;

describe('billing in the template', () => {
  const { stack, template } = synth(PRICES);
  const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnResource);
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>;
  const variables = (group: typeof cloudHandlerGroups extends () => (infer G)[] ? G : never) =>
    (resources[logicalId(stack.api.functions[group].fn)]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  const keyId = logicalId(stack.billingSecrets.stripeSecretKey);
  const webhookId = logicalId(stack.billingSecrets.stripeWebhookSecret);

  it('creates the two Stripe secrets under their documented names', () => {
    expect(resources[keyId]!.Type).toBe('AWS::SecretsManager::Secret');
    expect(resources[keyId]!.Properties.Name).toBe(stripeSecretName('dev', 'stripe-secret-key'));
    expect(resources[webhookId]!.Properties.Name).toBe('trackpitch/dev/stripe-webhook-secret');
  });

  // The account deletion cancels the user's subscription (issue 26 §3): it is the one other reader.
  const stripeReaders: readonly CloudHandlerGroup[] = ['billing', 'account'];

  it('lets only the billing and account functions read them', () => {
    for (const group of cloudHandlerGroups()) {
      const statements = statementsOfRole(template, logicalId(stack.api.functions[group].role)).filter((s) =>
        actionsOf([s]).includes('secretsmanager:GetSecretValue'),
      );
      const readsStripe = statements.some((s) => JSON.stringify(s.Resource).includes(keyId) || JSON.stringify(s.Resource).includes(webhookId));
      expect(readsStripe, group).toBe(stripeReaders.includes(group));
    }
    const billing = statementsOfRole(template, logicalId(stack.api.functions.billing.role)).filter((s) =>
      actionsOf([s]).includes('secretsmanager:GetSecretValue'),
    );
    expect(billing).toHaveLength(1);
    expect(actionsOf(billing)).toEqual(['secretsmanager:GetSecretValue']);
    expect(billing[0]!.Resource).toEqual([{ Ref: keyId }, { Ref: webhookId }]);
    // The sender and the dispatcher never read them either.
    for (const fn of [stack.sending.sender, stack.sending.dispatcher]) {
      expect(JSON.stringify(statementsOfRole(template, logicalId(fn.role)))).not.toMatch(new RegExp(`${keyId}|${webhookId}`));
    }
  });

  it('tells the billing and account functions where the secrets are and the price of each plan, and no other function', () => {
    for (const group of stripeReaders) {
      expect(variables(group), group).toMatchObject({
        STRIPE_SECRET_KEY_NAME: { Ref: keyId },
        STRIPE_WEBHOOK_SECRET_NAME: { Ref: webhookId },
        STRIPE_PRICE_PRO: 'price_1ProTest',
        STRIPE_PRICE_LABEL: 'price_1LabelTest',
      });
    }
    for (const group of cloudHandlerGroups().filter((g) => !stripeReaders.includes(g))) {
      expect(
        Object.keys(variables(group)).filter((name) => name.startsWith('STRIPE_')),
        group,
      ).toEqual([]);
    }
  });

  it('deploys the webhook route without an authorizer, with its own throttle', () => {
    const route = resourcesOfType(template, 'AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties!.RouteKey === 'POST /api/billing/webhook');
    expect(route?.[1].Properties!.AuthorizationType).toBe('NONE');
    const [, stage] = resourcesOfType(template, 'AWS::ApiGatewayV2::Stage')[0]!;
    expect((stage.Properties!.RouteSettings as Record<string, unknown>)['POST /api/billing/webhook']).toEqual({
      ThrottlingRateLimit: 20,
      ThrottlingBurstLimit: 40,
    });
    for (const key of ['POST /api/billing/sync', 'POST /api/billing/checkout', 'POST /api/billing/portal']) {
      expect(
        resourcesOfType(template, 'AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties!.RouteKey === key)?.[1].Properties!.AuthorizationType,
        key,
      ).toBe('JWT');
    }
  });

  it('without prices sets no price variable (the routes then answer 503 naming them)', () => {
    const bare = synth();
    const fn = bare.stack.api.functions.billing.fn;
    const env = (bare.template.toJSON().Resources as Record<string, { Properties: { Environment: { Variables: Record<string, unknown> } } }>)[
      bare.stack.getLogicalId(fn.node.defaultChild as CfnResource)
    ]!.Properties.Environment.Variables;
    expect(env.STRIPE_PRICE_PRO).toBeUndefined();
    expect(env.STRIPE_PRICE_LABEL).toBeUndefined();
    expect(env.STRIPE_SECRET_KEY_NAME).toBeDefined();
  });
});

describe('the price settings', () => {
  const read = (context: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => readConfig({ context: (key) => context[key], env });

  it('reads both from context or the environment', () => {
    expect(read(PRICES).stripePrices).toEqual({ pro: 'price_1ProTest', label: 'price_1LabelTest' });
    expect(read({}, { TRACKPITCH_STRIPE_PRICE_PRO: 'price_A1', TRACKPITCH_STRIPE_PRICE_LABEL: 'price_B2' }).stripePrices).toEqual({
      pro: 'price_A1',
      label: 'price_B2',
    });
    expect(read({}).stripePrices).toBeUndefined();
  });

  it('refuses one without the other, a value that is no price id, and one price for both plans', () => {
    expect(() => read({ stripePricePro: 'price_1' })).toThrow(/stripePriceLabel .* is required/);
    expect(() => read({ stripePricePro: 'prod_1', stripePriceLabel: 'price_2' })).toThrow(/stripePricePro .* is not a Stripe price id/);
    expect(() => read({ stripePricePro: 'price_1', stripePriceLabel: 'price_1' })).toThrow(ConfigError);
  });
});
