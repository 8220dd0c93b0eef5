/**
 * The composition root: the one place that reads provider configuration from the environment and
 * wires adapters to ports. The CDK stack sets these variables on every Lambda; the local runtime
 * sets them before it loads the handlers.
 */
import { makeDocumentClient } from './adapters/dynamodb/client';
import { DynamoProfileStore } from './adapters/dynamodb/profileStore';
import { DynamoWaitlistStore } from './adapters/dynamodb/waitlistStore';
import { SQSClient } from '@aws-sdk/client-sqs';
import { ulidGenerator } from './adapters/ulid';
import { DynamoSendingCursorStore } from './adapters/dynamodb/sending/cursor';
import { SqsQueue } from './adapters/sqs/sqsQueue';
import { DynamoContactStore } from './adapters/dynamodb/contactStore';
import { DynamoDirectoryStore } from './adapters/dynamodb/directoryStore';
import { DynamoUnsubscribeStore } from './adapters/dynamodb/unsubscribeStore';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { DynamoCampaignStore } from './adapters/dynamodb/campaignStore';
import { DynamoContactListStore } from './adapters/dynamodb/contactListStore';
import { DynamoTemplateStore } from './adapters/dynamodb/templateStore';
import { DynamoWrittenEmailStore } from './adapters/dynamodb/writtenEmailStore';
import { BedrockWriter } from './adapters/bedrock/bedrockWriter';
import { LocalWriter } from './adapters/local-writer/localWriter';
import { DomPurifySanitizer } from './adapters/html/domPurifySanitizer';
import { KMSClient } from '@aws-sdk/client-kms';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoMailboxStore } from './adapters/dynamodb/mailboxStore';
import { DynamoOAuthStateStore } from './adapters/dynamodb/oauthStateStore';
import { DynamoSendQueueStore } from './adapters/dynamodb/sending/queue';
import { DynamoSenderStore } from './adapters/dynamodb/sending/sender';
import { DynamoTrackingStore } from './adapters/dynamodb/trackingStore';
import { DynamoOutboxStore } from './adapters/dynamodb/outboxStore';
import { GoogleMailboxAuth } from './adapters/google/googleMailboxAuth';
import { GmailMailer } from './adapters/gmail/gmailMailer';
import { LocalMailboxAuth } from './adapters/local-mailbox/localMailboxAuth';
import { LocalMailer } from './adapters/local-mailbox/localMailer';
import { KmsSecretBox } from './adapters/kms/kmsSecretBox';
import { localKeys } from './adapters/local-secrets/localKeys';
import { cachedSecretString, SecretsManagerOAuthStateKey } from './adapters/secrets-manager/secretValue';
import { SEND_INTERVAL_MS } from './core/sendingWindow';
import type {
  Mailer,
  MailboxAuthProvider,
  MailboxStore,
  OAuthStateKeySource,
  OAuthStateStore,
  OutboxStore,
  SecretBox,
  SendQueueStore,
  TrackingStore,
  CampaignStore,
  ContactListStore,
  EmailWriter,
  HtmlSanitizer,
  TemplateStore,
  WrittenEmailStore,
  Clock,
  ContactStore,
  DirectoryStore,
  IdGenerator,
  ProfileStore,
  Queue,
  SendingCursorStore,
  UnsubscribeStore,
  WaitlistStore,
} from './ports';

export interface Deps {
  profiles: ProfileStore;
  waitlist: WaitlistStore;
  contacts: ContactStore;
  unsubscribes: UnsubscribeStore;
  directory: DirectoryStore;
  campaigns: CampaignStore;
  templates: TemplateStore;
  contactLists: ContactListStore;
  written: WrittenEmailStore;
  writer: EmailWriter;
  sanitizer: HtmlSanitizer;
  clock: Clock;
  ids: IdGenerator;
  mailboxes: MailboxStore;
  oauthStates: OAuthStateStore;
  oauthStateKey: OAuthStateKeySource;
  mailboxAuth: MailboxAuthProvider;
  secrets: SecretBox;
  sendQueue: SendQueueStore;
  tracking: TrackingStore;
  /** The local mailbox's sent folder: local runtime only. */
  outbox: OutboxStore | undefined;
  sending: SendingConfig;
}

export interface SendingConfig {
  /** The public base URL of the app (links in emails, the OAuth redirect): APP_URL. */
  appUrl: string;
  /** Spacing of a user's emails: SEND_INTERVAL_SECONDS (default 60, spec §9); a demo or a test may run faster. */
  intervalMs: number;
}

/** Which AI writer runs: Bedrock in AWS; the local writer (no network) in `npm start` and the tests. */
export type WriterKind = 'bedrock' | 'local';

/** Which mailbox sends: Gmail in AWS; the local mailbox (the outbox page) in `npm start` and the tests. */
export type MailboxKind = 'gmail' | 'local';

export interface ServerConfig {
  tableName: string;
  region: string;
  dynamoEndpoint?: string;
  writer: WriterKind;
  /** Bedrock model (or inference profile) id; required when writer is bedrock. */
  bedrockModelId?: string;
  mailbox: MailboxKind;
  appUrl: string;
  intervalMs: number;
  /** Local runtime: where the local keys live (absent: in memory, per process). */
  localDataDir?: string;
  /** AWS: the KMS key sealing refresh tokens; the secrets holding the OAuth state key and the Google client secret. */
  tokenKeyId?: string;
  oauthStateSecretName?: string;
  googleClientId?: string;
  googleClientSecretName?: string;
}

export function readServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const tableName = env.TABLE_NAME;
  if (!tableName) throw new Error('TABLE_NAME is not set');
  // WRITER overrides; otherwise the local runtime writes locally and a Lambda uses Bedrock.
  const writer: WriterKind = env.WRITER === 'local' || env.WRITER === 'bedrock' ? env.WRITER : env.TRACKPITCH_RUNTIME === 'local' ? 'local' : 'bedrock';
  return {
    tableName,
    region: env.AWS_REGION ?? 'us-east-1',
    ...(env.DYNAMODB_ENDPOINT ? { dynamoEndpoint: env.DYNAMODB_ENDPOINT } : {}),
    writer,
    ...(env.BEDROCK_MODEL_ID ? { bedrockModelId: env.BEDROCK_MODEL_ID } : {}),
    mailbox: env.MAILBOX === 'local' || env.MAILBOX === 'gmail' ? env.MAILBOX : env.TRACKPITCH_RUNTIME === 'local' ? 'local' : 'gmail',
    appUrl: (env.APP_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, ''),
    intervalMs: sendIntervalMs(env.SEND_INTERVAL_SECONDS),
    ...(env.LOCAL_DATA_DIR ? { localDataDir: env.LOCAL_DATA_DIR } : {}),
    ...(env.TOKEN_KEY_ID ? { tokenKeyId: env.TOKEN_KEY_ID } : {}),
    ...(env.OAUTH_STATE_SECRET_NAME ? { oauthStateSecretName: env.OAUTH_STATE_SECRET_NAME } : {}),
    ...(env.GOOGLE_CLIENT_ID ? { googleClientId: env.GOOGLE_CLIENT_ID } : {}),
    ...(env.GOOGLE_CLIENT_SECRET_NAME ? { googleClientSecretName: env.GOOGLE_CLIENT_SECRET_NAME } : {}),
  };
}

/** SEND_INTERVAL_SECONDS as milliseconds: a positive number of seconds (fractions allowed), else spec §9's 60 s. */
export function sendIntervalMs(value: string | undefined): number {
  const seconds = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : SEND_INTERVAL_MS;
}

/** The Google OAuth client (AWS): its id, and its secret read from Secrets Manager on first use. */
function googleClient(config: ServerConfig, secretsManager: () => SecretsManagerClient) {
  const { googleClientId, googleClientSecretName } = config;
  if (!googleClientId || !googleClientSecretName) return undefined;
  return { clientId: googleClientId, clientSecret: () => cachedSecretString(secretsManager(), googleClientSecretName) };
}

/** The adapters of the mailbox connection and delivery: Google/KMS/Secrets Manager in AWS, the local twins locally. */
function mailboxAdapters(config: ServerConfig, outbox: OutboxStore | undefined, clock: Clock) {
  if (config.mailbox === 'local') {
    const keys = localKeys(config.localDataDir);
    return {
      secrets: keys.secretBox,
      oauthStateKey: keys.oauthStateKey,
      mailboxAuth: new LocalMailboxAuth({ consentUrl: `${config.appUrl}/local/mailbox/consent` }),
      mailer: new LocalMailer(outbox!, clock) as Mailer,
    };
  }
  let secretsManager: SecretsManagerClient | undefined;
  const secretsClient = () => (secretsManager ??= new SecretsManagerClient({ region: config.region }));
  const google = googleClient(config, secretsClient);
  const notConfigured = (what: string) => () => {
    throw new Error(`${what} is not configured (see docs/deploy.md: Gmail sending)`);
  };
  return {
    secrets: config.tokenKeyId
      ? new KmsSecretBox(new KMSClient({ region: config.region }), config.tokenKeyId)
      : ({ seal: notConfigured('TOKEN_KEY_ID'), open: notConfigured('TOKEN_KEY_ID') } as SecretBox),
    oauthStateKey: config.oauthStateSecretName
      ? new SecretsManagerOAuthStateKey(secretsClient(), config.oauthStateSecretName)
      : ({ key: notConfigured('OAUTH_STATE_SECRET_NAME') } as OAuthStateKeySource),
    mailboxAuth: google
      ? new GoogleMailboxAuth(google)
      : ({
          authorizationUrl: notConfigured('Google OAuth'),
          exchangeCode: notConfigured('Google OAuth'),
          revoke: async () => undefined,
        } as MailboxAuthProvider),
    mailer: google ? (new GmailMailer(google) as Mailer) : ({ send: notConfigured('Google OAuth') } as Mailer),
  };
}

/** The configured writer. Bedrock's client is built only when used, so local runs never touch AWS. */
export function makeWriter(config: Pick<ServerConfig, 'writer' | 'region' | 'bedrockModelId'>): EmailWriter {
  if (config.writer === 'local') return new LocalWriter();
  if (!config.bedrockModelId) throw new Error('BEDROCK_MODEL_ID is not set');
  return new BedrockWriter(new BedrockRuntimeClient({ region: config.region }), config.bedrockModelId);
}

export const systemClock: Clock = { now: () => new Date() };

export { ulidGenerator } from './adapters/ulid';

export function makeDeps(config: ServerConfig): Deps {
  const db = makeDocumentClient({ tableName: config.tableName, region: config.region, endpoint: config.dynamoEndpoint });
  const ids = ulidGenerator();
  const contacts = new DynamoContactStore(db, config.tableName);
  const outbox = config.mailbox === 'local' ? new DynamoOutboxStore(db, config.tableName, { ids }) : undefined;
  const { secrets, oauthStateKey, mailboxAuth } = mailboxAdapters(config, outbox, systemClock);
  return {
    profiles: new DynamoProfileStore(db, config.tableName),
    waitlist: new DynamoWaitlistStore(db, config.tableName),
    contacts,
    unsubscribes: new DynamoUnsubscribeStore(db, config.tableName),
    directory: new DynamoDirectoryStore(db, config.tableName, { ids, contacts }),
    campaigns: new DynamoCampaignStore(db, config.tableName, { ids }),
    templates: new DynamoTemplateStore(db, config.tableName, { ids }),
    contactLists: new DynamoContactListStore(db, config.tableName, { ids }),
    written: new DynamoWrittenEmailStore(db, config.tableName),
    writer: makeWriter(config),
    // Loads jsdom and builds its DOM on first use: only the campaigns handler ever sanitizes.
    sanitizer: new DomPurifySanitizer(),
    clock: systemClock,
    ids,
    mailboxes: new DynamoMailboxStore(db, config.tableName),
    oauthStates: new DynamoOAuthStateStore(db, config.tableName),
    oauthStateKey,
    mailboxAuth,
    secrets,
    sendQueue: new DynamoSendQueueStore(db, config.tableName, { intervalMs: config.intervalMs }),
    tracking: new DynamoTrackingStore(db, config.tableName),
    outbox,
    sending: { appUrl: config.appUrl, intervalMs: config.intervalMs },
  };
}

let cached: Deps | undefined;

/** Lazily built once per Lambda container (or per local server process). */
export function compose(): Deps {
  cached ??= makeDeps(readServerConfig());
  return cached;
}

/** The dispatcher's wiring in AWS: the DUE index and the SQS FIFO queue named by QUEUE_URL. */
export function composeDispatcher(env: NodeJS.ProcessEnv = process.env): {
  cursors: SendingCursorStore;
  queue: Queue;
  clock: Clock;
} {
  const config = readServerConfig(env);
  const queueUrl = env.QUEUE_URL;
  if (!queueUrl) throw new Error('QUEUE_URL is not set');
  const db = makeDocumentClient({ tableName: config.tableName, region: config.region, endpoint: config.dynamoEndpoint });
  return {
    cursors: new DynamoSendingCursorStore(db, config.tableName),
    queue: new SqsQueue(new SQSClient({ region: config.region }), queueUrl),
    clock: systemClock,
  };
}

/**
 * The sender's wiring (lambdas/workers/sender.ts): the API's deps plus the pipeline's store and the
 * mailer (Gmail in AWS, the local mailbox locally).
 */
export function composeSender(env: NodeJS.ProcessEnv = process.env) {
  const config = readServerConfig(env);
  const deps = makeDeps(config);
  const db = makeDocumentClient({ tableName: config.tableName, region: config.region, endpoint: config.dynamoEndpoint });
  const { mailer } = mailboxAdapters(config, deps.outbox, deps.clock);
  return {
    ...deps,
    senderStore: new DynamoSenderStore(db, config.tableName, { intervalMs: config.intervalMs }),
    mailer,
  };
}
