/**
 * `cdk synth` works offline (README, docs/deploy.md). The functions with `nodeModules` run `npm ci`
 * while bundling; offline, npm retries the registry for minutes per function before it falls back on
 * its cache (2.5 min each, measured), so the install must prefer the cache. (The web app needs no
 * build beforehand: tests/infra/web-build.test.ts and config.test.ts.)
 */
import { expect, it } from 'vitest';
import { synth } from './synth';

it('every function that npm-installs node_modules while bundling takes them from npm’s cache first', () => {
  const { stack } = synth();
  const functions = [...Object.values(stack.api.functions), stack.sending.dispatcher, stack.sending.sender, stack.auth.customMessage!];
  const installing = functions.filter((fn) => fn.bundling.nodeModules?.length);
  expect(installing.map((fn) => fn.node.path)).toContain('Trackpitch-dev/Sending/Sender');
  for (const fn of installing) expect(fn.bundling.environment, fn.node.path).toMatchObject({ npm_config_prefer_offline: 'true' });
});
