import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { BUNDLE_TARGET } from '../../lib/cloud/bundling';
import { LAMBDA_RUNTIME } from '../../lib/cloud/functions';
import { olderNodeWarning, requiredNodeVersion } from '../../scripts/nodeVersion';

describe('one Node version: the Lambda runtime', () => {
  it('.nvmrc, engines, the bundle target and the Lambda runtime name the same major', () => {
    const major = requiredNodeVersion().split('.')[0];
    const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    expect(major).toBe('22');
    expect(engines).toMatch(new RegExp(`^>=${major}\\.`));
    expect(BUNDLE_TARGET).toBe(`node${major}`);
    expect(LAMBDA_RUNTIME).toBe(Runtime.NODEJS_22_X);
    expect(LAMBDA_RUNTIME.name).toBe(`nodejs${major}.x`);
  });

  it('an older Node is told which one to install and how; the same major or newer is not', () => {
    expect(olderNodeWarning('v20.20.2', '22.23.3')).toBe(
      'This is Node 20.20.2; Trackpitch runs on Node 22.23.3 (the Lambda runtime, .nvmrc).\nInstall it without root (or `nvm install`):  source .ci/node.sh',
    );
    expect(olderNodeWarning('v22.1.0', '22.23.3')).toBeUndefined();
    expect(olderNodeWarning('v24.0.0', '22.23.3')).toBeUndefined();
  });
});

describe('.ci/node.sh: the Node CI runs on', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A `node` that only answers its version (node.sh asks `node -p 'process.versions.node'`). */
  function fakeNode(dir: string, version: string) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'node'), `#!/bin/sh\necho ${version}\n`);
    chmodSync(path.join(dir, 'node'), 0o755);
  }

  /** Sources node.sh with `machineNode` first on PATH and .nvmrc's Node already in the cache (no download). */
  function nodeAfterSourcing(machineNode: string) {
    const root = mkdtempSync(path.join(tmpdir(), 'node-sh-'));
    dirs.push(root);
    fakeNode(path.join(root, 'machine'), machineNode);
    const cachedBin = path.join(root, 'cache', 'trackpitch', `node-${requiredNodeVersion()}`, 'node_modules', `node-linux-${process.arch}`, 'bin');
    fakeNode(cachedBin, requiredNodeVersion());
    const found = execFileSync('bash', ['-c', 'source .ci/node.sh >/dev/null && command -v node'], {
      env: { PATH: `${path.join(root, 'machine')}:/usr/bin:/bin`, XDG_CACHE_HOME: path.join(root, 'cache'), HOME: root },
      encoding: 'utf8',
    }).trim();
    return { found, cached: path.join(cachedBin, 'node'), machine: path.join(root, 'machine', 'node') };
  }

  it("puts .nvmrc's Node first when the machine's is older, and leaves a new enough one alone", () => {
    const older = nodeAfterSourcing('20.20.2');
    expect(older.found).toBe(older.cached);
    const current = nodeAfterSourcing('22.1.0');
    expect(current.found).toBe(current.machine);
  });

  it('.ci/run sources it before npm ci, so the install and every test run on it', () => {
    const run = readFileSync('.ci/run', 'utf8');
    const sourced = run.indexOf('source .ci/node.sh');
    expect(sourced).toBeGreaterThan(-1);
    expect(sourced).toBeLessThan(run.indexOf('npm ci'));
  });
});
