/**
 * npm start's leftover handling touches only processes bound to its own data folder: a recorded pid
 * now used by another checkout's engine (a CI clone in /tmp/ci), by an engine of another data
 * folder, or by anything else, is never stopped; an engine a crashed run left on this folder is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cognitoChildScript, engineDataPaths, repoRoot } from '../../lib/local/paths';
import {
  engineIdentity,
  isAlive,
  isOurProcess,
  mainIdentity,
  readPidFile,
  runningInstance,
  stopLeftovers,
  writePidFile,
  type PidFile,
} from '../../lib/local/pidfile';
import { stack } from './helpers';

const started: ChildProcess[] = [];
const folders: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const folder = (label: string) => {
  const path = mkdtempSync(join(tmpdir(), `trackpitch-${label}-`));
  folders.push(path);
  return path;
};

/** A harmless process whose command line carries `args` (as an engine's would), running in `cwd`. */
async function impostor(args: string[], cwd: string): Promise<number> {
  mkdirSync(cwd, { recursive: true });
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', ...args], { cwd, stdio: 'ignore' });
  started.push(child);
  await once(child, 'spawn');
  return child.pid!;
}

const exited = async (pid: number) => {
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return !isAlive(pid);
};

/** Another checkout of the repository (as a CI clone in /tmp/ci) with its own `.data/`. */
function otherCheckout() {
  const root = folder('ci-clone');
  const dataDir = join(root, '.data');
  return { root, dataDir, cognitoChild: join(root, 'lib', 'local', 'cognito-child.mjs') };
}

const pidFile = (children: PidFile['children'] | Record<string, unknown>[], pid = 999_999): PidFile =>
  ({ pid, appUrl: 'http://127.0.0.1:3000', children, startedAt: new Date().toISOString() }) as PidFile;

describe('leftover engines', () => {
  it("never takes another checkout's engines, another data folder's, or an unrelated process for ours", async () => {
    const dataDir = folder('data');
    const other = otherCheckout();
    const foreignDynamo = await impostor(['LoopbackDynamoDBLocal', '-dbPath', engineDataPaths(other.dataDir).dynamodb, '-sharedDb'], other.root);
    const foreignCognito = await impostor([other.cognitoChild], engineDataPaths(other.dataDir).cognito);
    // This checkout's scripts, but on another data folder (as every test stack runs).
    const otherFolderCognito = await impostor([cognitoChildScript], engineDataPaths(folder('data-b')).cognito);
    const unrelated = await impostor(['some-tool', '--serve'], dataDir);
    // The shared test stack's real engines: in memory and in a temporary folder, not on `dataDir`.
    const realEngines = [stack().pids.dynamodb, stack().pids.cognito];

    for (const pid of [foreignDynamo, foreignCognito, otherFolderCognito, unrelated, ...realEngines, process.pid]) {
      expect(isOurProcess(pid, engineIdentity('dynamodb', dataDir)), `pid ${pid} as DynamoDB Local`).toBe(false);
      expect(isOurProcess(pid, engineIdentity('cognito', dataDir)), `pid ${pid} as cognito-local`).toBe(false);
    }

    writePidFile(
      dataDir,
      pidFile([
        { name: 'DynamoDB Local', pid: foreignDynamo, kind: 'dynamodb' },
        { name: 'cognito-local', pid: foreignCognito, kind: 'cognito' },
        { name: 'cognito-local', pid: otherFolderCognito, kind: 'cognito' },
        { name: 'DynamoDB Local', pid: unrelated, kind: 'dynamodb' },
        { name: 'DynamoDB Local', pid: realEngines[0]!, kind: 'dynamodb' },
        { name: 'cognito-local', pid: realEngines[1]!, kind: 'cognito' },
        // The format before `kind`: generic markers the processes above all carry.
        { name: 'DynamoDB Local', pid: foreignDynamo, marker: 'LoopbackDynamoDBLocal' },
        { name: 'cognito-local', pid: otherFolderCognito, marker: 'cognito-child.mjs' },
      ]),
    );
    expect(await stopLeftovers(dataDir)).toEqual([]);
    for (const pid of [foreignDynamo, foreignCognito, otherFolderCognito, unrelated, ...realEngines]) expect(isAlive(pid), `pid ${pid}`).toBe(true);
    expect(readPidFile(dataDir)).toBeUndefined();
  });

  it('stops the engines a crashed run left on this data folder', async () => {
    const dataDir = folder('data');
    const paths = engineDataPaths(dataDir);
    const dynamo = await impostor(['LoopbackDynamoDBLocal', '-inMemory', '-dbPath', paths.dynamodb, '-sharedDb'], folder('jar'));
    const cognito = await impostor([cognitoChildScript], paths.cognito);
    const oldFormat = await impostor(['LoopbackDynamoDBLocal', '-dbPath', paths.dynamodb], folder('jar'));
    expect(isOurProcess(dynamo, engineIdentity('dynamodb', dataDir))).toBe(true);
    expect(isOurProcess(cognito, engineIdentity('cognito', dataDir))).toBe(true);
    expect(isOurProcess(cognito, engineIdentity('dynamodb', dataDir))).toBe(false);

    writePidFile(
      dataDir,
      pidFile([
        { name: 'DynamoDB Local', pid: dynamo, kind: 'dynamodb' },
        { name: 'cognito-local', pid: cognito, kind: 'cognito' },
        { name: 'DynamoDB Local', pid: oldFormat, marker: 'LoopbackDynamoDBLocal' },
      ]),
    );
    expect((await stopLeftovers(dataDir)).sort()).toEqual([dynamo, cognito, oldFormat].sort());
    for (const pid of [dynamo, cognito, oldFormat]) expect(await exited(pid), `pid ${pid}`).toBe(true);
    expect(readPidFile(dataDir)).toBeUndefined();
  });
});

describe('a running npm start', () => {
  it("is this checkout's bin/local.ts only", async () => {
    const dataDir = folder('data');
    const other = otherCheckout();
    // As tsx runs it: `node --require … --import … bin/local.ts` in the repository root.
    const otherStart = await impostor(['bin/local.ts'], other.root);
    const unrelated = await impostor(['some-tool'], repoRoot);
    for (const pid of [otherStart, unrelated]) {
      writePidFile(dataDir, pidFile([], pid));
      expect(runningInstance(dataDir), `pid ${pid}`).toBeUndefined();
    }
    expect(isOurProcess(otherStart, mainIdentity(join(other.root, 'bin', 'local.ts')))).toBe(true); // control: it is the other checkout's

    const ours = await impostor(['bin/local.ts'], repoRoot);
    writePidFile(dataDir, pidFile([], ours));
    expect(runningInstance(dataDir)?.pid).toBe(ours);
  });
});
