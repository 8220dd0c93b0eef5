/**
 * The mailbox connection's secrets (DESIGN §5): the KMS key that seals Gmail refresh tokens (Data's
 * token key), the generated HMAC key of OAuth states, and the Google OAuth client secret the operator
 * stores (docs/deploy.md). Each grant names one key or one secret and the few actions the code calls;
 * the environment says where the mailbox and sender compositions (lambdas/composition/) find them.
 */
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { PriceTable } from '../../lambdas/core/billing';
import type { GoogleConfig } from './config';
import { acknowledge } from './nag';

/** Length of the generated OAuth state key: far more than HMAC-SHA256 needs (32 bytes of entropy). */
export const OAUTH_STATE_KEY_LENGTH = 64;

export interface MailboxSecretsProps {
  stage: string;
  /** Seals the refresh tokens (KMS envelope encryption; Data.tokenKey). */
  tokenKey: Key;
  google: GoogleConfig | undefined;
}

/**
 * The IAM resource of a secret named by the operator: a complete ARN as given, else the name (or
 * partial ARN) plus the six random characters Secrets Manager appends to every secret's ARN.
 */
export function operatorSecretArn(scope: Construct, nameOrArn: string): string {
  if (/^arn:[^:]+:secretsmanager:[^:]*:[^:]*:secret:.+-[A-Za-z0-9]{6}$/.test(nameOrArn)) return nameOrArn;
  if (nameOrArn.startsWith('arn:')) return `${nameOrArn}-??????`;
  const { partition, region, account } = Stack.of(scope);
  return `arn:${partition}:secretsmanager:${region}:${account}:secret:${nameOrArn}-??????`;
}

export class MailboxSecrets extends Construct {
  readonly tokenKey: Key;
  /** HMAC key of the OAuth state (lambdas/core/oauthState.ts): signs the consent round trip to the user. */
  readonly oauthStateSecret: Secret;
  private readonly google: GoogleConfig | undefined;

  constructor(scope: Construct, id: string, props: MailboxSecretsProps) {
    super(scope, id);
    this.tokenKey = props.tokenKey;
    this.google = props.google;
    this.oauthStateSecret = new Secret(this, 'OAuthStateKey', {
      description: `Trackpitch ${props.stage}: HMAC key of the Gmail connection's OAuth state`,
      generateSecretString: { passwordLength: OAUTH_STATE_KEY_LENGTH, excludePunctuation: true, includeSpace: false },
      // Losing it only invalidates consents in progress (a state lives 10 minutes).
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledge(this.oauthStateSecret, {
      id: 'AwsSolutions-SMG4',
      reason:
        'The OAuth state key only signs consent round trips that expire after 10 minutes; replacing it (a new stack deployment of the secret) invalidates nothing but consents in progress, so a rotation Lambda would add a moving part for no protection.',
    });
  }

  /** Sealing and opening refresh tokens (the mailbox group: connect seals, disconnect opens to revoke). */
  grantSeal(grantee: IGrantable): Record<string, string> {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ sid: 'SealMailboxTokens', actions: ['kms:GenerateDataKey', 'kms:Decrypt'], resources: [this.tokenKey.keyArn] }),
    );
    return { TOKEN_KEY_ID: this.tokenKey.keyArn };
  }

  /** Opening refresh tokens only (the sender). */
  grantOpen(grantee: IGrantable): Record<string, string> {
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ sid: 'OpenMailboxTokens', actions: ['kms:Decrypt'], resources: [this.tokenKey.keyArn] }));
    return { TOKEN_KEY_ID: this.tokenKey.keyArn };
  }

  /** The Google OAuth client: its id, and reading its secret (nothing when Google is not configured). */
  grantGoogleClient(grantee: IGrantable): Record<string, string> {
    if (!this.google) return {};
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        sid: 'ReadGoogleClientSecret',
        actions: ['secretsmanager:GetSecretValue'],
        resources: [operatorSecretArn(this, this.google.clientSecretName)],
      }),
    );
    return { GOOGLE_CLIENT_ID: this.google.clientId, GOOGLE_CLIENT_SECRET_NAME: this.google.clientSecretName };
  }

  /** The OAuth state key and the Google client (the mailbox group: consent URL, callback, code exchange). */
  grantOAuthSecrets(grantee: IGrantable): Record<string, string> {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ sid: 'ReadOAuthStateKey', actions: ['secretsmanager:GetSecretValue'], resources: [this.oauthStateSecret.secretArn] }),
    );
    // The ARN: GetSecretValue takes it as the secret id, and a generated name would need a lookup.
    return { OAUTH_STATE_SECRET_NAME: this.oauthStateSecret.secretArn, ...this.grantGoogleClient(grantee) };
  }
}

export interface BillingSecretsProps {
  stage: string;
  /** Stripe's price id of each paid plan (config); undefined: the billing routes answer 503 until set. */
  prices: PriceTable | undefined;
}

/**
 * Stripe's two secrets (DESIGN §10): the secret API key and the webhook endpoint's signing secret. The
 * stack creates them with placeholder values under fixed names; the operator puts the real values in
 * (docs/deploy.md: Stripe). Only the billing function may read them.
 */
export class BillingSecrets extends Construct {
  readonly stripeSecretKey: Secret;
  readonly stripeWebhookSecret: Secret;
  private readonly prices: BillingSecretsProps['prices'];

  constructor(scope: Construct, id: string, props: BillingSecretsProps) {
    super(scope, id);
    this.prices = props.prices;
    const secret = (construct: string, name: Parameters<typeof stripeSecretName>[1], what: string) => {
      const created = new Secret(this, construct, {
        secretName: stripeSecretName(props.stage, name),
        description: `Trackpitch ${props.stage}: ${what} (a placeholder until set: docs/deploy.md, Stripe)`,
        // Both are copies of values Stripe keeps: losing one means pasting it again.
        removalPolicy: RemovalPolicy.DESTROY,
      });
      acknowledge(created, {
        id: 'AwsSolutions-SMG4',
        reason: `The ${what} is issued by Stripe and rolled in the Stripe dashboard, then put here (docs/deploy.md); a Secrets Manager rotation Lambda cannot roll a Stripe key.`,
      });
      return created;
    };
    this.stripeSecretKey = secret('StripeSecretKey', 'stripe-secret-key', 'Stripe secret API key');
    this.stripeWebhookSecret = secret('StripeWebhookSecret', 'stripe-webhook-secret', 'Stripe webhook signing secret');
  }

  /** Reading both secrets (the billing group), and where the composition finds them and the prices. */
  grantRead(grantee: IGrantable): Record<string, string> {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        sid: 'ReadStripeSecrets',
        actions: ['secretsmanager:GetSecretValue'],
        resources: [this.stripeSecretKey.secretArn, this.stripeWebhookSecret.secretArn],
      }),
    );
    return {
      STRIPE_SECRET_KEY_NAME: this.stripeSecretKey.secretArn,
      STRIPE_WEBHOOK_SECRET_NAME: this.stripeWebhookSecret.secretArn,
      ...(this.prices ? { STRIPE_PRICE_PRO: this.prices.pro, STRIPE_PRICE_LABEL: this.prices.label } : {}),
    };
  }
}

/** The fixed name of a Stripe secret of a stage: `trackpitch/<stage>/stripe-secret-key`, `…/stripe-webhook-secret`. */
export const stripeSecretName = (stage: string, name: 'stripe-secret-key' | 'stripe-webhook-secret') => `trackpitch/${stage}/${name}`;
