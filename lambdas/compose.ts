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
import type {
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
  clock: Clock;
  ids: IdGenerator;
}

export interface ServerConfig {
  tableName: string;
  region: string;
  dynamoEndpoint?: string;
}

export function readServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const tableName = env.TABLE_NAME;
  if (!tableName) throw new Error('TABLE_NAME is not set');
  return {
    tableName,
    region: env.AWS_REGION ?? 'us-east-1',
    ...(env.DYNAMODB_ENDPOINT ? { dynamoEndpoint: env.DYNAMODB_ENDPOINT } : {}),
  };
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
