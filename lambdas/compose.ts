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
import { DynamoSendingCursorStore } from './adapters/dynamodb/sendingCursorStore';
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
import type {
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
}

/** Which AI writer runs: Bedrock in AWS; the local writer (no network) in `npm start` and the tests. */
export type WriterKind = 'bedrock' | 'local';

export interface ServerConfig {
  tableName: string;
  region: string;
  dynamoEndpoint?: string;
  writer: WriterKind;
  /** Bedrock model (or inference profile) id; required when writer is bedrock. */
  bedrockModelId?: string;
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
