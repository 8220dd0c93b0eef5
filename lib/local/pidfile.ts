/**
 * `npm start`'s pid file (`.data/local.pid.json`): who is running on this data folder. A second
 * start refuses while the first is alive, and stops engines a crashed run left behind (normally
 * they exit on their own when their parent goes away; this is the safety net).
 *
 * A recorded pid may since belong to anything, including the same kind of engine started by
 * another checkout (a CI clone in /tmp/ci, a second working copy). So a process is taken for ours
 * only when it is bound to this data folder, never by a generic command-line marker:
 *   - DynamoDB Local: the launcher class with `-dbPath <dataDir>/dynamodb` in its arguments;
 *   - cognito-local: this checkout's lib/local/cognito-child.mjs, running in `<dataDir>/cognito`;
 *   - npm start itself: this checkout's bin/local.ts as its script.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cognitoChildScript, engineDataPaths, mainScript } from './paths';

export type EngineKind = 'dynamodb' | 'cognito';

export interface PidFileChild {
  name: string;
  pid: number;
  kind: EngineKind;
}

export interface PidFile {
  pid: number;
  appUrl: string;
  children: PidFileChild[];
  startedAt: string;
}

export const pidFilePath = (dataDir: string) => join(dataDir, 'local.pid.json');

/** The DynamoDB Local launcher's main class (lib/local/java/LoopbackDynamoDBLocal.java). */
const DYNAMODB_LAUNCHER_CLASS = 'LoopbackDynamoDBLocal';

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface ProcessInfo {
  /** The arguments, the executable first; undefined when they cannot be read. */
  argv: string[] | undefined;
  /** The working directory; undefined when it cannot be read. */
  cwd: string | undefined;
}

function readArgv(pid: number): string[] | undefined {
  try {
    const proc = `/proc/${pid}/cmdline`;
    if (existsSync(proc))
      return readFileSync(proc, 'utf8')
        .split('\0')
        .filter((arg, i, all) => arg !== '' || i < all.length - 1);
    // No /proc (macOS): ps joins the arguments with spaces, so arguments with spaces split up;
    // a path with a space then matches nothing, which errs on the side of not touching the process.
    const line = execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return line === '' ? undefined : line.split(/\s+/);
  } catch {
    return undefined;
  }
}

function readCwd(pid: number): string | undefined {
  try {
    const proc = `/proc/${pid}/cwd`;
    if (existsSync(`/proc/${pid}`)) return readlinkSync(proc);
    const out = execFileSync('lsof', ['-a', '-p', String(pid), '-d', 'cwd', '-Fn'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return (
      out
        .split('\n')
        .find((line) => line.startsWith('n'))
        ?.slice(1) || undefined
    );
  } catch {
    return undefined;
  }
}

/** The arguments and working directory of a running process (Linux /proc; ps and lsof elsewhere). */
export function processInfo(pid: number): ProcessInfo {
  return { argv: readArgv(pid), cwd: readCwd(pid) };
}

/** Both paths name the same file or folder (symbolic links resolved where the path exists). */
export function samePath(a: string, b: string): boolean {
  const canonical = (path: string) => {
    const absolute = resolve(path);
    try {
      return realpathSync(absolute);
    } catch {
      return absolute;
    }
  };
  return canonical(a) === canonical(b);
}

/**
 * What makes a process ours. Every condition given must hold; a condition that cannot be checked
 * (arguments or working directory unreadable) fails.
 */
export interface ProcessIdentity {
  /** Arguments that must appear, each exactly (paths compared as paths). */
  args?: string[];
  /** Pairs `[option, value]` that must appear as consecutive arguments, e.g. `['-dbPath', <dir>]`. */
  options?: [string, string][];
  /** The working directory. */
  cwd?: string;
  /** A script argument that, resolved against the process's working directory, is this file. */
  script?: string;
}

const looksLikePath = (value: string) => value.includes('/') || value.includes('\\');
const sameArg = (actual: string, expected: string) => actual === expected || (looksLikePath(expected) && looksLikePath(actual) && samePath(actual, expected));

export function matchesIdentity(info: ProcessInfo, identity: ProcessIdentity): boolean {
  const { argv, cwd } = info;
  if (!argv || argv.length === 0) return false;
  for (const expected of identity.args ?? []) {
    if (!argv.some((arg) => sameArg(arg, expected))) return false;
  }
  for (const [option, value] of identity.options ?? []) {
    if (!argv.some((arg, i) => arg === option && i + 1 < argv.length && sameArg(argv[i + 1] ?? '', value))) return false;
  }
  if (identity.cwd !== undefined && (cwd === undefined || !samePath(cwd, identity.cwd))) return false;
  if (identity.script !== undefined) {
    const script = identity.script;
    const found = argv.slice(1).some((arg) => {
      if (arg.startsWith('-') || !looksLikePath(arg)) return false;
      if (arg.startsWith('/')) return samePath(arg, script);
      return cwd !== undefined && samePath(resolve(cwd, arg), script);
    });
    if (!found) return false;
  }
  return true;
}

/** The identity of an engine started by this checkout on `dataDir`. */
export function engineIdentity(kind: EngineKind, dataDir: string): ProcessIdentity {
  const paths = engineDataPaths(dataDir);
  switch (kind) {
    case 'dynamodb':
      return { args: [DYNAMODB_LAUNCHER_CLASS], options: [['-dbPath', paths.dynamodb]] };
    case 'cognito':
      return { args: [cognitoChildScript], cwd: paths.cognito };
  }
}

/** npm start of this checkout (bin/local.ts, run by tsx from the repository root). */
export const mainIdentity = (script = mainScript): ProcessIdentity => ({ script });

/** True when `pid` is alive and matches `identity`. */
export function isOurProcess(pid: number, identity: ProcessIdentity): boolean {
  return isAlive(pid) && matchesIdentity(processInfo(pid), identity);
}

export function readPidFile(dataDir: string): PidFile | undefined {
  try {
    return JSON.parse(readFileSync(pidFilePath(dataDir), 'utf8')) as PidFile;
  } catch {
    return undefined;
  }
}

export function writePidFile(dataDir: string, content: PidFile) {
  writeFileSync(pidFilePath(dataDir), JSON.stringify(content, null, 2));
}

export function removePidFile(dataDir: string, ownPid = process.pid) {
  const current = readPidFile(dataDir);
  if (!current || current.pid === ownPid) rmSync(pidFilePath(dataDir), { force: true });
}

/** The previous run if its main process is still alive and is really this checkout's npm start. */
export function runningInstance(dataDir: string, identity: ProcessIdentity = mainIdentity()): PidFile | undefined {
  const previous = readPidFile(dataDir);
  if (!previous || previous.pid === process.pid) return undefined;
  return isOurProcess(previous.pid, identity) ? previous : undefined;
}

/** The kind of a recorded child; pid files written before `kind` existed named it only. */
function kindOf(child: Partial<PidFileChild>): EngineKind | undefined {
  if (child.kind === 'dynamodb' || child.kind === 'cognito') return child.kind;
  if (child.name === 'DynamoDB Local') return 'dynamodb';
  if (child.name === 'cognito-local') return 'cognito';
  return undefined;
}

/**
 * Stops the engines a crashed run left behind on `dataDir`; returns their pids. Only a recorded pid
 * whose process is bound to this data folder (engineIdentity) is touched.
 */
export async function stopLeftovers(dataDir: string): Promise<number[]> {
  const previous = readPidFile(dataDir);
  if (!previous) return [];
  // A file written before engines were recorded has no children.
  const leftovers = ((previous.children as PidFileChild[] | undefined) ?? []).flatMap((child) => {
    const kind = kindOf(child);
    const identity = kind === undefined ? undefined : engineIdentity(kind, dataDir);
    return identity && isOurProcess(child.pid, identity) ? [{ pid: child.pid, identity }] : [];
  });
  for (const child of leftovers) {
    try {
      process.kill(child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 3000;
  while (leftovers.some((child) => isAlive(child.pid)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const child of leftovers) {
    // Checked again: in those three seconds the pid may have been reused.
    if (isOurProcess(child.pid, child.identity)) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  rmSync(pidFilePath(dataDir), { force: true });
  return leftovers.map((child) => child.pid);
}
