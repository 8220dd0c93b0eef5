/**
 * One in-memory stack (DynamoDB Local, cognito-local, the local server) on random ports for the
 * whole integration run; tests read its endpoints with `inject('localStack')`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalStack, type LocalStack } from '../../lib/local/stack';

/** What the integration tests may read of the stack (its `stop` stays with the global setup). */
export type IntegrationStack = Pick<
  LocalStack,
  'appUrl' | 'dynamoEndpoint' | 'cognitoEndpoint' | 'userPoolId' | 'userPoolClientId' | 'tableName' | 'region' | 'admin' | 'seeded' | 'pids'
> & {
  /** The fixture web build the server serves (see FIXTURE_FILES). */
  webDist: string;
  startupMs: number;
};

declare module 'vitest' {
  export interface ProvidedContext {
    localStack: IntegrationStack;
  }
}

/** A stand-in for web/dist, so the static-server tests do not depend on a web build. */
export const FIXTURE_FILES: Record<string, string> = {
  'index.html':
    '<!doctype html><html><head><title>Trackpitch fixture</title></head><body><div id="root"></div><script type="module" src="/assets/index-Ab12Cd34.js"></script></body></html>',
  'assets/index-Ab12Cd34.js': `// fixture bundle\n${'console.log("trackpitch");\n'.repeat(200)}`,
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8"/></svg>',
};

export default async function setup(project: TestProject) {
  const webDist = mkdtempSync(join(tmpdir(), 'trackpitch-web-fixture-'));
  for (const [path, content] of Object.entries(FIXTURE_FILES)) {
    mkdirSync(join(webDist, path, '..'), { recursive: true });
    writeFileSync(join(webDist, path), content);
  }
  const started = Date.now();
  const stack = await startLocalStack({ webDist, clientLimits: false });
  console.log(`[integration] local stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${stack.appUrl}`);
  project.provide('localStack', {
    appUrl: stack.appUrl,
    dynamoEndpoint: stack.dynamoEndpoint,
    cognitoEndpoint: stack.cognitoEndpoint,
    userPoolId: stack.userPoolId,
    userPoolClientId: stack.userPoolClientId,
    tableName: stack.tableName,
    region: stack.region,
    admin: stack.admin,
    seeded: stack.seeded,
    pids: stack.pids,
    webDist,
    startupMs: Date.now() - started,
  });
  return async () => {
    await stack.stop();
    rmSync(webDist, { recursive: true, force: true });
  };
}
