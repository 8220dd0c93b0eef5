/**
 * `npm start`'s pid file (`.data/local.pid.json`): who is running on this data folder. A second
 * start refuses while the first is alive, and stops engines a crashed run left behind (normally
 * they exit on their own when their parent goes away; this is the safety net).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PidFile {
  pid: number;
  appUrl: string;
  children: { name: string; pid: number; marker: string }[];
  startedAt: string;
}

export const pidFilePath = (dataDir: string) => join(dataDir, 'local.pid.json');

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a process, or '' when it cannot be read. */
export function commandLine(pid: number): string {
  try {
    const proc = `/proc/${pid}/cmdline`;
    if (existsSync(proc)) return readFileSync(proc, 'utf8').replace(/\0/g, ' ');
    return execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
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

/** The previous run if its main process is still alive (and is really ours). */
export function runningInstance(dataDir: string, mainMarker: string): PidFile | undefined {
  const previous = readPidFile(dataDir);
  if (!previous || previous.pid === process.pid) return undefined;
  return isAlive(previous.pid) && commandLine(previous.pid).includes(mainMarker) ? previous : undefined;
}

/** Stops the engines a crashed run left behind; returns their pids. Only processes whose command line carries the recorded marker are touched. */
export async function stopLeftovers(dataDir: string): Promise<number[]> {
  const previous = readPidFile(dataDir);
  if (!previous) return [];
  const leftovers = previous.children.filter((child) => isAlive(child.pid) && commandLine(child.pid).includes(child.marker));
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
    if (isAlive(child.pid)) {
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
