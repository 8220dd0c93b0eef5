/**
 * The server configuration every composition takes: read from the environment once, by a Lambda's
 * entry (readServerConfig), or built by the local stack for its own engines and URL. Nothing below the
 * entry reads process.env, so two local stacks can run in one process.
 */
import type { PriceTable } from '../core/billing';
import { SEND_INTERVAL_MS } from '../core/sendingWindow';

/** Which AI writer runs: Bedrock in AWS; the local writer (no network) in `npm start` and the tests. */
export type WriterKind = 'bedrock' | 'local';

/** Which mailbox sends: Gmail in AWS; the local mailbox (the outbox page) in `npm start` and the tests. */
export type MailboxKind = 'gmail' | 'local';

/** Which billing provider answers: Stripe in AWS; the local twin (the /local/billing pages) in `npm start` and the tests. */
export type BillingKind = 'stripe' | 'local';

/** Where tracks' audio is kept: a private S3 bucket in AWS; the local folder (lib/local) in `npm start` and the tests. */
export type AudioKind = 's3' | 'local';

export interface ServerConfig {
  tableName: string;
  region: string;
  dynamoEndpoint?: string;
  writer: WriterKind;
  /** Bedrock model (or inference profile) id; required when writer is bedrock. */
  bedrockModelId?: string;
  mailbox: MailboxKind;
  /** The public base URL of the app (links in emails, the OAuth redirect). */
  appUrl: string;
  /** Spacing of a user's emails (default 60 s, spec §9); a demo or a test may run faster. */
  intervalMs: number;
  /** How long a follow-up's "day" lasts (default a day; FOLLOW_UP_DAY_SECONDS=20 for a demo). */
  followUpDayMs?: number;
  /** Local runtime: where the local keys live (absent: in memory, per process). */
  localDataDir?: string;
  /** AWS: the KMS key sealing refresh tokens; the secrets holding the OAuth state key and the Google client secret. */
  tokenKeyId?: string;
  oauthStateSecretName?: string;
  googleClientId?: string;
  googleClientSecretName?: string;
  billing: BillingKind;
  /** Absent when not configured: the billing routes then answer 503 with what is missing. */
  /** The provider's price id of each paid plan (config, never the browser). */
  billingPrices?: PriceTable;
  /** AWS: the Secrets Manager names of the Stripe secret API key and the webhook signing secret. */
  stripeSecretKeyName?: string;
  stripeWebhookSecretName?: string;
  /** Set by readServerConfig (a Lambda: s3); absent, as in a test's hand-made config, the local folder. */
  audio?: AudioKind;
  /** AWS: the private bucket of tracks' audio (absent: the tracks routes answer 503 naming it). */
  audioBucketName?: string;
  /** AWS: the value CloudFront sends the API in x-origin-verify (http/clientLimit.ts); absent locally. */
  originVerifySecret?: string;
  /** Local test runs only (lib/local/stack.ts clientLimits): no per-client limit, every request being 127.0.0.1's. */
  clientLimitsOff?: true;
  /** The Cognito user pool (AWS) or cognito-local's (the local runtime): the account deletion removes its user. */
  userPoolId?: string;
  /** cognito-local's endpoint (local runtime only); absent, the region's Cognito. */
  cognitoEndpoint?: string;
}

export function readServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const tableName = env.TABLE_NAME;
  if (!tableName) throw new Error('TABLE_NAME is not set');
  // WRITER overrides; otherwise the local runtime writes locally and a Lambda uses Bedrock.
  const writer: WriterKind = env.WRITER === 'local' || env.WRITER === 'bedrock' ? env.WRITER : env.TRACKPITCH_RUNTIME === 'local' ? 'local' : 'bedrock';
  const interval = parsePositiveSeconds(env.SEND_INTERVAL_SECONDS);
  const followUpDay = parsePositiveSeconds(env.FOLLOW_UP_DAY_SECONDS);
  return {
    tableName,
    region: env.AWS_REGION ?? 'us-east-1',
    ...(env.DYNAMODB_ENDPOINT ? { dynamoEndpoint: env.DYNAMODB_ENDPOINT } : {}),
    writer,
    ...(env.BEDROCK_MODEL_ID ? { bedrockModelId: env.BEDROCK_MODEL_ID } : {}),
    mailbox: env.MAILBOX === 'local' || env.MAILBOX === 'gmail' ? env.MAILBOX : env.TRACKPITCH_RUNTIME === 'local' ? 'local' : 'gmail',
    appUrl: (env.APP_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, ''),
    intervalMs: typeof interval === 'number' ? sendIntervalMs(interval) : SEND_INTERVAL_MS,
    ...(typeof followUpDay === 'number' ? { followUpDayMs: Math.round(followUpDay * 1000) } : {}),
    ...(env.LOCAL_DATA_DIR ? { localDataDir: env.LOCAL_DATA_DIR } : {}),
    ...(env.TOKEN_KEY_ID ? { tokenKeyId: env.TOKEN_KEY_ID } : {}),
    ...(env.OAUTH_STATE_SECRET_NAME ? { oauthStateSecretName: env.OAUTH_STATE_SECRET_NAME } : {}),
    ...(env.GOOGLE_CLIENT_ID ? { googleClientId: env.GOOGLE_CLIENT_ID } : {}),
    ...(env.GOOGLE_CLIENT_SECRET_NAME ? { googleClientSecretName: env.GOOGLE_CLIENT_SECRET_NAME } : {}),
    billing: env.BILLING === 'local' || env.BILLING === 'stripe' ? env.BILLING : env.TRACKPITCH_RUNTIME === 'local' ? 'local' : 'stripe',
    ...(env.STRIPE_PRICE_PRO && env.STRIPE_PRICE_LABEL ? { billingPrices: { pro: env.STRIPE_PRICE_PRO, label: env.STRIPE_PRICE_LABEL } } : {}),
    ...(env.STRIPE_SECRET_KEY_NAME ? { stripeSecretKeyName: env.STRIPE_SECRET_KEY_NAME } : {}),
    ...(env.STRIPE_WEBHOOK_SECRET_NAME ? { stripeWebhookSecretName: env.STRIPE_WEBHOOK_SECRET_NAME } : {}),
    audio: env.AUDIO === 'local' || env.AUDIO === 's3' ? env.AUDIO : env.TRACKPITCH_RUNTIME === 'local' ? 'local' : 's3',
    ...(env.AUDIO_BUCKET_NAME ? { audioBucketName: env.AUDIO_BUCKET_NAME } : {}),
    ...(env.ORIGIN_VERIFY_SECRET ? { originVerifySecret: env.ORIGIN_VERIFY_SECRET } : {}),
    ...(env.USER_POOL_ID ? { userPoolId: env.USER_POOL_ID } : {}),
  };
}

/**
 * SEND_INTERVAL_SECONDS and FOLLOW_UP_DAY_SECONDS, the one parser (Lambda entries, `npm start`): unset or
 * blank is undefined (the default: 60 s, a day), a positive number of seconds (fractions allowed) is that
 * number, anything else 'invalid'.
 */
export function parsePositiveSeconds(value: string | undefined): number | undefined | 'invalid' {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  return isSendInterval(seconds) ? seconds : 'invalid';
}

export const isSendInterval = (seconds: number) => Number.isFinite(seconds) && seconds > 0;

/** A send interval in seconds as the milliseconds the stores and the ticker use; undefined is spec §9's 60 s. */
export const sendIntervalMs = (seconds: number | undefined) => (seconds === undefined ? SEND_INTERVAL_MS : Math.round(seconds * 1000));

/** What the handlers that build links and pace sends read of the configuration. */
export type SendingConfig = Pick<ServerConfig, 'appUrl' | 'intervalMs'>;
