/**
 * `npm start`: the whole product on this machine, on 127.0.0.1 only (lib/local/stack.ts).
 *
 *   npm start                 data kept in .data/ across restarts
 *   npm start -- --reset      start from empty data
 *
 * Environment: PORT (app, default 3000), DYNAMODB_PORT (default 8741), COGNITO_PORT (default 8742),
 * LOCAL_ADMIN_EMAIL / LOCAL_ADMIN_PASSWORD (the seeded admin account, default admin@example.com /
 * Trackpitch-admin-1), SEND_INTERVAL_SECONDS (spacing of each user's emails and the sending ticker's
 * period, default 60; e.g. 5 for a demo), FOLLOW_UP_DAY_SECONDS (how long a follow-up's day lasts, default a
 * day; e.g. 20 for a demo), WRITER=bedrock with BEDROCK_MODEL_ID (the real model instead of the
 * local writer), JAVA_HOME (a JDK 17 other than the one on PATH). The ports, the interval and the writer are read
 * here once and passed to the stack; the admin account and JAVA_HOME are read where they are used.
 */
import { rmSync } from 'node:fs';
import { relative } from 'node:path';
import { parsePositiveSeconds } from '../lambdas/composition/config';
import { LocalStackError } from '../lib/local/errors';
import { defaultDataDir } from '../lib/local/paths';
import { removePidFile, runningInstance, stopLeftovers, writePidFile } from '../lib/local/pidfile';
import { startLocalStack, type LocalStack, type WriterChoice } from '../lib/local/stack';
import { warnIfOlderNode } from '../scripts/nodeVersion';

const DEFAULT_PORTS = { app: 3000, dynamodb: 8741, cognito: 8742 };

// tsx runs this file in a child process; if that parent is killed (kill -9), stop with it.
const parentPid = process.ppid;
const args = process.argv.slice(2);
const dataDir = defaultDataDir;
const shown = (path: string) => relative(process.cwd(), path) || '.';

function fail(message: string): never {
  console.error(`\n✖ ${message}`);
  process.exit(1);
}

/** SEND_INTERVAL_SECONDS (unset: 60 s, spec §9) or FOLLOW_UP_DAY_SECONDS (unset: a day): a positive number of seconds. */
function secondsFromEnv(name: 'SEND_INTERVAL_SECONDS' | 'FOLLOW_UP_DAY_SECONDS', example: string): number | undefined {
  const raw = process.env[name];
  const seconds = parsePositiveSeconds(raw);
  if (seconds === 'invalid') fail(`${name}=${raw} is not a positive number of seconds (${example}).`);
  return seconds;
}

/** WRITER=bedrock (with BEDROCK_MODEL_ID and AWS credentials): the real model instead of the local writer. */
function writerFromEnv(): WriterChoice | undefined {
  if (process.env.WRITER !== 'bedrock') return undefined;
  // Checked here: without a model every campaigns request and every sender tick would fail later.
  const bedrockModelId = process.env.BEDROCK_MODEL_ID;
  if (!bedrockModelId) fail('WRITER=bedrock needs BEDROCK_MODEL_ID (a Bedrock model or inference profile id).');
  return { writer: 'bedrock', bedrockModelId };
}

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`${name}=${raw} is not a port number (1-65535).`);
  return port;
}

// The AWS SDK warns on every start that a future release needs Node 22; that is known (DESIGN §7).
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (/NodeVersionSupportWarning|AWS SDK for JavaScript \(v2\)/.test(`${warning.name} ${warning.message}`)) return;
  console.warn(`${warning.name}: ${warning.message}`);
});

async function main() {
  warnIfOlderNode();
  const unknown = args.filter((arg) => arg !== '--reset' && arg !== '--help' && arg !== '-h');
  if (args.includes('--help') || args.includes('-h')) {
    console.log('Usage: npm start [-- --reset]\n  --reset  start from empty local data (deletes .data/)');
    return;
  }
  if (unknown.length > 0) fail(`Unknown option ${unknown.join(' ')}. Usage: npm start [-- --reset]`);

  const ports = {
    app: portFromEnv('PORT', DEFAULT_PORTS.app),
    dynamodb: portFromEnv('DYNAMODB_PORT', DEFAULT_PORTS.dynamodb),
    cognito: portFromEnv('COGNITO_PORT', DEFAULT_PORTS.cognito),
  };
  const sendIntervalSeconds = secondsFromEnv('SEND_INTERVAL_SECONDS', 'e.g. 5 for a quick demo; default 60');
  const followUpDaySeconds = secondsFromEnv('FOLLOW_UP_DAY_SECONDS', 'e.g. 20 for a quick demo; default a day');
  const writer = writerFromEnv();

  const running = runningInstance(dataDir);
  if (running) {
    fail(
      `Trackpitch is already running (pid ${running.pid}) at ${running.appUrl}: stop it with Ctrl-C in its terminal (or kill ${running.pid}), then run npm start again.`,
    );
  }
  const leftovers = await stopLeftovers(dataDir);
  if (leftovers.length > 0) console.log(`Stopped engines a previous run left behind (pids ${leftovers.join(', ')}).`);

  if (args.includes('--reset')) {
    rmSync(dataDir, { recursive: true, force: true });
    console.log(`Starting from empty data (${shown(dataDir)} was deleted).`);
  }

  console.log('Starting Trackpitch locally: DynamoDB Local, cognito-local and the app server…');
  // Until the stack is up, a vanished parent just ends this process (the engines exit with it).
  const orphanWatch = setInterval(() => {
    if (process.ppid !== parentPid) process.exit(1);
  }, 1000);
  orphanWatch.unref();
  let stack: LocalStack;
  try {
    stack = await startLocalStack({
      dataDir,
      ports,
      accessLog: (line) => console.log(`  ${line}`),
      ticker: true,
      ...(sendIntervalSeconds !== undefined ? { sendIntervalSeconds } : {}),
      ...(followUpDaySeconds !== undefined ? { followUpDaySeconds } : {}),
      ...(writer ? { writer } : {}),
    });
  } catch (error) {
    if (error instanceof LocalStackError) fail(error.message);
    throw error;
  }

  writePidFile(dataDir, {
    pid: process.pid,
    appUrl: stack.appUrl,
    children: [
      { name: 'DynamoDB Local', pid: stack.pids.dynamodb, kind: 'dynamodb' },
      { name: 'cognito-local', pid: stack.pids.cognito, kind: 'cognito' },
    ],
    startedAt: new Date().toISOString(),
  });

  let stopping = false;
  const shutdown = async (reason: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${reason}: stopping DynamoDB Local, cognito-local and the app server…`);
    const force = setTimeout(() => process.exit(exitCode || 1), 8000);
    force.unref();
    await stack.stop().catch(() => undefined);
    removePidFile(dataDir);
    process.exit(exitCode);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1); // a second Ctrl-C: leave now
      void shutdown(signal === 'SIGINT' ? 'Ctrl-C' : signal, 0);
    });
  }
  clearInterval(orphanWatch);
  setInterval(() => {
    if (process.ppid !== parentPid) void shutdown('The parent process is gone', 0);
  }, 1000).unref();
  void stack.engineExited.then(({ name, code, signal, logFile }) =>
    shutdown(`${name} stopped unexpectedly (${signal ?? `exit code ${code}`}; log: ${shown(logFile)})`, 1),
  );

  // From the start of this Node process (module loading included).
  const seconds = process.uptime().toFixed(1);
  console.log(`
Trackpitch is running at ${stack.appUrl}   (started in ${seconds} s after the web build)

  Sign in as the local admin:   ${stack.admin.email}  /  ${stack.admin.password}
  or create an account at ${stack.appUrl}/auth (local accounts are confirmed at once).

  Data:   ${shown(dataDir)}/ (kept across restarts; npm start -- --reset starts empty)
  Engines on 127.0.0.1: DynamoDB Local ${stack.dynamoEndpoint}, cognito-local ${stack.cognitoEndpoint}
  Logs:   ${shown(stack.logDir)}/
  Seeded: ${stack.seeded.templates} system templates, ${stack.seeded.directoryEntries} LabelFinder entries
  Mail:   the local mailbox sends nothing out: see ${stack.appUrl}/dashboard/outbox (one email per user every ${formatSeconds(stack.sending.intervalMs)}; SEND_INTERVAL_SECONDS=5 npm start for a quick demo)

Press Ctrl-C to stop.
`);
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

main().catch((error: unknown) => {
  if (error instanceof LocalStackError) fail(error.message);
  console.error(error);
  process.exit(1);
});
