import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
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
