/**
 * startLocalStack: DynamoDB Local + cognito-local + the local server, wired as in AWS, and the sending
 * ticker (the scheduler, SQS and the sender's event source in one: lib/local/ticker.ts). Used by
 * `npm start` (persisted data, fixed ports), the integration tests' global setup and the browser
 * tests (in memory, random ports).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { DynamoSendingCursorStore } from '../../lambdas/adapters/dynamodb/sending/cursor';
import { systemClock } from '../../lambdas/adapters/clock';
import { BillingTwin } from '../../lambdas/adapters/local-billing/twin';
import { localKeys } from '../../lambdas/adapters/local-secrets/localKeys';
import { LOCAL_BILLING_PRICES } from '../../lambdas/adapters/local-billing/paths';
import { isSendInterval, sendIntervalMs, type ServerConfig } from '../../lambdas/composition/config';
import type * as senderModule from '../../lambdas/workers/sender';
import { meetsPasswordRule, PASSWORD_RULE_MESSAGE } from '../../schema/passwordRule.mjs';
import { TABLE_NAME_DEFAULT } from '../../schema/table';
import { handlerGroups, type HandlerGroup } from '../../schema/routes';
import type { RuntimeConfig } from '../../schema/api/runtimeConfig';
import {
  confirmSignUp,
  pendingResetCode,
  ensureAdminUser,
  LOCAL_REGION,
  LOCAL_USER_POOL_ID,
  makeCognitoClient,
  seedUserPool,
  startCognitoLocal,
  startTriggerServer,
  type AdminAccount,
} from './cognito';
import { ensureTable, makeDynamoClients, startDynamoDbLocal } from './dynamodb';
import { LocalStackError } from './errors';
import { makeAuthorizer } from './jwt';
import { assertPortFree } from './net';
import { defaultWebDist, engineDataPaths, fromRoot } from './paths';
import { localAudioStore } from '../../lambdas/composition/audio';
import { appOrigins, importHandlerFactory, reserveLocalServer, startLocalServer } from './server';
import { seedSystemData } from './seed/index';
import { createLocalTicker, type SenderHandler, type TickResult } from './ticker';

/** The sender Lambda's module (the same entry lib/cloud/sending.ts deploys). */
const SENDER_MODULE = 'lambdas/workers/sender.ts';

export interface LocalStackOptions {
  /** Keep data here across restarts (DynamoDB file, cognito-local's `.cognito/`, logs); omitted = in memory. */
  dataDir?: string;
  /** 0 = any free port (the default for each). */
  ports?: { app?: number; dynamodb?: number; cognito?: number };
  tableName?: string;
  /** The seeded admin account; defaults from LOCAL_ADMIN_EMAIL / LOCAL_ADMIN_PASSWORD or DEFAULT_ADMIN. */
  admin?: Partial<AdminAccount>;
  webDist?: string;
  /** Where to write the engines' logs; default `<dataDir>/logs` (or the temporary folder). */
  logDir?: string;
  /** One line per API request (npm start prints them); omitted = silent. */
  accessLog?: (line: string) => void;
  /** Progress messages while starting. */
  onProgress?: (message: string) => void;
  /**
   * Run the sending ticker on a timer (every sendIntervalSeconds). Off unless asked for: the
   * integration tests' shared stack holds fake-clock pipelines on the same table, which a wall-clock
   * dispatcher would pick up. `npm start` turns it on; `stack.sending.tick()` works either way.
   */
  ticker?: boolean;
  /** Spacing of each user's emails and the ticker's period, in seconds (fractions allowed); default 60 (spec §9). */
  sendIntervalSeconds?: number;
  /** How many seconds a follow-up's "day" lasts (default a day): FOLLOW_UP_DAY_SECONDS=20 for a demo. */
  followUpDaySeconds?: number;
  /** The AI writer: the local writer unless Bedrock is asked for (`WRITER=bedrock npm start`, README). */
  writer?: WriterChoice;
  /**
   * The per-client limits of the public POST routes (core/allowance.ts), as in AWS unless turned off.
   * Only the browser and integration runs turn them off: every request of theirs comes from 127.0.0.1,
   * so a run's many waitlist joins would be one client's; the limits' own tests build their handlers.
   */
  clientLimits?: boolean;
}

export type WriterChoice = Pick<ServerConfig, 'writer' | 'bedrockModelId'>;

export interface LocalStack {
  appUrl: string;
  dynamoEndpoint: string;
  cognitoEndpoint: string;
  userPoolId: string;
  userPoolClientId: string;
  tableName: string;
  region: string;
  admin: AdminAccount;
  runtimeConfig: RuntimeConfig;
  /** What the seed wrote (system templates, directory entries). */
  seeded: { templates: number; directoryEntries: number };
  /** Child process ids, for leftovers detection (bin/local.ts writes them to a pid file). */
  pids: { dynamodb: number; cognito: number };
  logDir: string;
  /** The sending pipeline's local plumbing: its pace, whether its timer runs, and one tick on demand. */
  sending: { intervalMs: number; timed: boolean; tick(): Promise<TickResult> };
  /** Resolves if an engine exits while the stack is running (not after stop()). */
  engineExited: Promise<{ name: string; code: number | null; signal: NodeJS.Signals | null; logFile: string }>;
  stop(): Promise<void>;
}

export const DEFAULT_ADMIN: AdminAccount = {
  email: 'admin@example.com',
  password: 'Trackpitch-admin-1',
  name: 'Local Admin',
};

export const LOCAL_CONTACT_EMAILS = { support: 'support@example.com', privacy: 'privacy@example.com' };

/**
 * The configuration a local stack's handlers are built with (each group's handlerFor): its own table,
 * engines and URL, the local writer and mailbox. Passed, never set on process.env, so two stacks can
 * run in one process.
 */
export function localServerConfig(stack: {
  tableName: string;
  region: string;
  dynamoEndpoint: string;
  appUrl: string;
  intervalMs?: number;
  followUpDayMs?: number;
  dataDir?: string;
  writer?: WriterChoice;
  clientLimits?: boolean;
  /** cognito-local's pool and endpoint: the account deletion removes the user there. */
  cognito?: { userPoolId: string; endpoint: string };
}): ServerConfig {
  return {
    tableName: stack.tableName,
    region: stack.region,
    dynamoEndpoint: stack.dynamoEndpoint,
    writer: 'local',
    ...stack.writer,
    mailbox: 'local',
    billing: 'local',
    billingPrices: LOCAL_BILLING_PRICES,
    audio: 'local',
    appUrl: stack.appUrl,
    intervalMs: stack.intervalMs ?? sendIntervalMs(undefined),
    ...(stack.followUpDayMs !== undefined ? { followUpDayMs: stack.followUpDayMs } : {}),
    ...(stack.dataDir ? { localDataDir: stack.dataDir } : {}),
    ...(stack.clientLimits === false ? { clientLimitsOff: true } : {}),
    ...(stack.cognito ? { userPoolId: stack.cognito.userPoolId, cognitoEndpoint: stack.cognito.endpoint } : {}),
  };
}

/** The sender Lambda's module, loaded on first use (a broken sender then fails its ticks, not the whole stack). */
function lazySender(config: ServerConfig): SenderHandler {
  let loaded: Promise<SenderHandler> | undefined;
  return async (event) => {
    loaded ??= import(pathToFileURL(fromRoot(SENDER_MODULE)).href).then((module: Partial<typeof senderModule>) => {
      if (typeof module.handlerFor !== 'function' || typeof module.senderObservers !== 'function') {
        throw new Error(`${SENDER_MODULE} does not export handlerFor and senderObservers`);
      }
      return module.handlerFor(config, module.senderObservers());
    });
    loaded.catch(() => {
      loaded = undefined;
    });
    return (await loaded)(event);
  };
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const progress = options.onProgress ?? (() => undefined);
  const { sendIntervalSeconds } = options;
  if (sendIntervalSeconds !== undefined && !isSendInterval(sendIntervalSeconds)) {
    throw new LocalStackError(`The send interval must be a positive number of seconds, got ${sendIntervalSeconds}.`);
  }
  const ports = { app: options.ports?.app ?? 0, dynamodb: options.ports?.dynamodb ?? 0, cognito: options.ports?.cognito ?? 0 };
  const tableName = options.tableName ?? TABLE_NAME_DEFAULT;
  const region = LOCAL_REGION;
  const admin: AdminAccount = {
    email: options.admin?.email ?? process.env.LOCAL_ADMIN_EMAIL ?? DEFAULT_ADMIN.email,
    password: options.admin?.password ?? process.env.LOCAL_ADMIN_PASSWORD ?? DEFAULT_ADMIN.password,
    name: options.admin?.name ?? DEFAULT_ADMIN.name,
  };
  // Cognito refuses such a password (AdminSetUserPassword), so the local admin must follow the rule too.
  if (!meetsPasswordRule(admin.password)) {
    throw new LocalStackError(`LOCAL_ADMIN_PASSWORD does not follow the password rule. ${PASSWORD_RULE_MESSAGE}`);
  }

  // Fail fast, before anything starts, when a fixed port is taken.
  await assertPortFree(ports.app, 'the app', 'Stop what uses it, or choose another port: PORT=3100 npm start.');
  await assertPortFree(ports.dynamodb, 'DynamoDB Local', 'Stop what uses it, or choose another port: DYNAMODB_PORT=<port> npm start.');
  await assertPortFree(ports.cognito, 'cognito-local', 'Stop what uses it, or choose another port: COGNITO_PORT=<port> npm start.');

  const baseDir = options.dataDir || mkdtempSync(join(tmpdir(), 'trackpitch-local-'));
  const tempDir = options.dataDir ? undefined : baseDir;
  const logDir = options.logDir ?? join(baseDir, 'logs');

  const cleanups: Array<() => Promise<void>> = [];
  let stopping = false;
  const stopAll = async () => {
    stopping = true;
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch(() => undefined);
    }
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  };

  // Load the handler modules (AWS SDK, Powertools, …) while the engines boot, so the first request
  // does not pay for it. Each group's handler is built for this stack's configuration on its first request.
  const groups = Object.keys(handlerGroups) as HandlerGroup[];
  const handlersLoaded = Promise.all(groups.map(async (group) => [group, await importHandlerFactory(group)] as const));
  handlersLoaded.catch(() => undefined);

  try {
    // The app's port first: cognito-local must know the app's origin (the only browser origin it answers).
    const reserved = await reserveLocalServer(ports.app);
    cleanups.push(() => reserved.close());
    const trigger = await startTriggerServer();
    cleanups.push(() => trigger.close());

    progress('starting DynamoDB Local and cognito-local');
    const [dynamoStart, cognitoStart] = await Promise.allSettled([
      startDynamoDbLocal({
        port: ports.dynamodb,
        ...(options.dataDir ? { dbPath: engineDataPaths(options.dataDir).dynamodb } : {}),
        logFile: join(logDir, 'dynamodb-local.log'),
      }),
      startCognitoLocal({
        port: ports.cognito,
        dir: engineDataPaths(baseDir).cognito,
        logFile: join(logDir, 'cognito-local.log'),
        userPoolId: LOCAL_USER_POOL_ID,
        triggerEndpoint: trigger.endpoint,
        appOrigins: appOrigins(reserved.port),
      }),
    ]);
    for (const start of [dynamoStart, cognitoStart]) if (start.status === 'fulfilled') cleanups.push(() => start.value.stop());
    if (dynamoStart.status === 'rejected') throw dynamoStart.reason;
    if (cognitoStart.status === 'rejected') throw cognitoStart.reason;
    const dynamo = dynamoStart.value;
    const cognito = cognitoStart.value;

    const { client: dynamoClient, documentClient } = makeDynamoClients(dynamo.endpoint, region);
    const cognitoClient = makeCognitoClient(cognito.endpoint);
    cleanups.push(() => {
      dynamoClient.destroy();
      cognitoClient.destroy();
      return Promise.resolve();
    });

    progress('creating the table, seeding data and accounts');
    const [seeded, userPoolClientId] = await Promise.all([
      (async () => {
        await ensureTable(dynamoClient, tableName);
        return seedSystemData(documentClient, tableName);
      })(),
      (async () => {
        const clientId = await seedUserPool(cognitoClient, cognito.userPoolId);
        await ensureAdminUser(cognitoClient, cognito.userPoolId, admin);
        return clientId;
      })(),
    ]);

    const runtimeConfig: RuntimeConfig = {
      mode: 'local',
      region,
      userPoolId: cognito.userPoolId,
      userPoolClientId,
      userPoolEndpoint: cognito.endpoint,
      contactEmails: LOCAL_CONTACT_EMAILS,
    };

    // What this stack's handlers and sender are built with (its own table, engines and URL).
    const intervalMs = sendIntervalMs(sendIntervalSeconds);
    const config = localServerConfig({
      tableName,
      region,
      dynamoEndpoint: dynamo.endpoint,
      appUrl: reserved.url,
      intervalMs,
      ...(options.followUpDaySeconds !== undefined ? { followUpDayMs: Math.round(options.followUpDaySeconds * 1000) } : {}),
      cognito: { userPoolId: cognito.userPoolId, endpoint: cognito.endpoint },
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.writer ? { writer: options.writer } : {}),
      ...(options.clientLimits === false ? { clientLimits: false } : {}),
    });
    const factories = new Map(await handlersLoaded);

    const server = await startLocalServer({
      port: ports.app,
      reserved,
      webDist: options.webDist ?? defaultWebDist,
      runtimeConfig,
      authorize: makeAuthorizer({ userPoolId: cognito.userPoolId, userPoolClientId, cognitoEndpoint: cognito.endpoint }),
      confirmSignUp: (email) => confirmSignUp(cognitoClient, cognito.userPoolId, email),
      resetCode: (email) => Promise.resolve(pendingResetCode(engineDataPaths(baseDir).cognito, cognito.userPoolId, email)),
      region,
      loadHandler: async (group) => (factories.get(group) ?? (await importHandlerFactory(group)))(config),
      // The billing twin posts its events to this very server's webhook route, signed with the secret its verifier reads.
      billingTwin: new BillingTwin({
        db: documentClient,
        tableName,
        appUrl: reserved.url,
        clock: systemClock,
        webhookSecret: localKeys(options.dataDir).billingWebhookSecret,
        prices: LOCAL_BILLING_PRICES,
      }),
      audioFiles: localAudioStore(config),
      ...(options.accessLog ? { accessLog: options.accessLog } : {}),
    });
    cleanups.push(() => server.close());

    // Stopped before the server and the engines.
    const cursorDb = makeDocumentClient({ tableName, region, endpoint: dynamo.endpoint });
    const ticker = createLocalTicker({
      intervalMs,
      cursors: new DynamoSendingCursorStore(cursorDb, tableName),
      send: lazySender(config),
      clock: systemClock,
      region,
    });
    if (options.ticker) ticker.start();
    cleanups.push(async () => {
      await ticker.stop();
      cursorDb.destroy();
    });

    const engineExited = new Promise<Awaited<LocalStack['engineExited']>>((resolve) => {
      const watch = (engine: typeof dynamo | typeof cognito, logFile: string) =>
        void engine.process.exited.then(({ code, signal }) => {
          if (!stopping) resolve({ name: engine.process.name, code, signal, logFile });
        });
      watch(dynamo, join(logDir, 'dynamodb-local.log'));
      watch(cognito, join(logDir, 'cognito-local.log'));
    });

    return {
      appUrl: server.url,
      dynamoEndpoint: dynamo.endpoint,
      cognitoEndpoint: cognito.endpoint,
      userPoolId: cognito.userPoolId,
      userPoolClientId,
      tableName,
      region,
      admin,
      runtimeConfig,
      seeded,
      pids: { dynamodb: dynamo.process.pid, cognito: cognito.process.pid },
      logDir,
      sending: { intervalMs, timed: options.ticker === true, tick: () => ticker.tick() },
      engineExited,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
