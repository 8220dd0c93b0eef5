/**
 * Child processes of the local stack (DynamoDB Local, cognito-local). Each child gets a standard
 * input pipe that is never written: when this process ends, even by kill -9, the pipe closes and
 * the child exits (both engines are started through launchers that watch for that), so no engine
 * outlives `npm start`. Output goes to a log file and a short in-memory tail for error messages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

export interface EngineProcess {
  readonly name: string;
  readonly pid: number;
  /** Resolves when the process has exited (for whatever reason). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited(): boolean;
  /** The last lines the process printed, for error messages. */
  tail(lines?: number): string;
  /** Resolves with the first output line matching `pattern`; rejects if the process exits or fails to start first. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Appended to; created with its folder if missing. */
  logFile: string;
}

// eslint-disable-next-line no-control-regex -- the escape character starts every ANSI colour code
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const TAIL_LINES = 60;

export class SpawnError extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export function spawnEngine(name: string, command: string, args: string[], options: SpawnOptions): EngineProcess {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log: WriteStream = createWriteStream(options.logFile, { flags: 'a' });
  log.on('error', () => undefined);
  log.write(`\n--- ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);

  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });

  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  let spawnError: SpawnError | undefined;
  let exitedFlag = false;

  const onText = (chunk: Buffer, partial: { text: string }) => {
    log.write(chunk);
    partial.text += chunk.toString('utf8');
    const parts = partial.text.split(/\r?\n/);
    partial.text = parts.pop() ?? '';
    for (const raw of parts) {
      const line = raw.replace(ANSI, '');
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
      for (const listener of listeners) listener(line);
    }
  };
  const out = { text: '' };
  const err = { text: '' };
  child.stdout?.on('data', (chunk: Buffer) => onText(chunk, out));
  child.stderr?.on('data', (chunk: Buffer) => onText(chunk, err));
  // The pipe is only a lifeline; writing to it is never needed, and an EPIPE after exit is harmless.
  child.stdin?.on('error', () => undefined);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      spawnError = new SpawnError(error.code, error.message);
      if (child.pid === undefined) {
        exitedFlag = true;
        resolve({ code: null, signal: null });
      }
    });
    child.once('exit', (code, signal) => {
      exitedFlag = true;
      resolve({ code, signal });
    });
  });
  void exited.then(() => {
    log.end();
  });

  return {
    name,
    pid: child.pid ?? -1,
    exited,
    hasExited: () => exitedFlag,
    tail: (count = 15) => lines.slice(-count).join('\n'),
    waitForLine(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const finish = (fn: () => void) => {
          clearTimeout(timer);
          listeners.delete(listener);
          fn();
        };
        const listener = (line: string) => {
          const match = line.match(pattern);
          if (match) finish(() => resolve(match));
        };
        for (const line of lines) {
          const match = line.match(pattern);
          if (match) {
            resolve(match);
            return;
          }
        }
        const timer = setTimeout(() => finish(() => reject(new Error(`${name} did not start within ${timeoutMs / 1000} s`))), timeoutMs);
        listeners.add(listener);
        void exited.then(({ code, signal }) =>
          finish(() => reject(spawnError ?? new Error(`${name} exited (${signal ?? `code ${code}`}) before it was ready`))),
        );
      });
    },
    async stop(graceMs = 3000) {
      if (exitedFlag || child.pid === undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        if (!exitedFlag) child.kill('SIGKILL');
      }, graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
