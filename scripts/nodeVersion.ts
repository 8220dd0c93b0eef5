/**
 * One Node version everywhere: the Lambda runtime's (Node 22), named once in .nvmrc. `npm start` and
 * `npm test` still run on an older Node (a fresh machine of this kind has Node 20), but say so loudly
 * with the one command that installs the right one (.ci/node.sh, which .ci/run sources).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The version in .nvmrc, e.g. "22.23.3". */
export const requiredNodeVersion = (): string => readFileSync(path.join(repoRoot, '.nvmrc'), 'utf8').trim();

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/** The warning to print when `running` (process.version) is older than .nvmrc's major, else undefined. */
export function olderNodeWarning(running: string, required = requiredNodeVersion()): string | undefined {
  if (major(running) >= major(required)) return undefined;
  return [
    `This is Node ${running.replace(/^v/, '')}; Trackpitch runs on Node ${required} (the Lambda runtime, .nvmrc).`,
    `Install it without root (or \`nvm install\`):  source .ci/node.sh`,
  ].join('\n');
}

export function warnIfOlderNode(): void {
  const warning = olderNodeWarning(process.version);
  if (!warning) return;
  const banner = '!'.repeat(78);
  console.warn(
    `\n${banner}\n${warning
      .split('\n')
      .map((line) => `!! ${line}`)
      .join('\n')}\n${banner}\n`,
  );
}
