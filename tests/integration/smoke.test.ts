/**
 * `npm run smoke -- <site>` (issue 24 §5) against a local stack started as `npm start` starts it
 * (lib/local/stack.ts, in memory on random ports, the fixture web build): every check passes, one line
 * each, exit 0, and the disposable user is gone afterwards. A site with one thing broken fails that
 * check alone; a site that answers 200 to everything fails them all and exits 1; bad arguments exit 2.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { promisify } from 'node:util';
import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCognitoClient } from '../../lib/local/cognito';
import { startLocalStack, type LocalStack } from '../../lib/local/stack';
import { configCheck, siteChecks, userChecks } from '../../scripts/smoke/checks';
import { resultLine, runSmoke, USER_CREATED, USER_DELETED } from '../../scripts/smoke/runner';
import { stack as sharedStack } from './helpers';

/** Every line a full run prints, in order. */
const CHECK_NAMES = [configCheck.name, ...siteChecks.map((check) => check.name), USER_CREATED, ...userChecks.map((check) => check.name), USER_DELETED];
const API_CHECK = 'every signed-in /api route answers 401 without a token';
const HEADERS_CHECK = 'the app is served with its security headers';

/** The documented command; resolves with its exit code and output. */
async function smokeCommand(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', 'smoke', '--', ...args], { cwd: process.cwd() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** A server on a random loopback port; resolves with its origin. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
};

let local: LocalStack | undefined;
const servers: Server[] = [];

beforeAll(async () => {
  local = await startLocalStack({ webDist: sharedStack().webDist });
}, 120_000);

afterAll(async () => {
  for (const server of servers) server.close();
  await local?.stop();
});

describe('npm run smoke against the local stack', () => {
  it('passes every check, one line each, exits 0, and deletes its disposable user', { timeout: 90_000 }, async () => {
    const run = await smokeCommand([local!.appUrl]);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe(`Smoke test of ${local!.appUrl}`);
    expect(lines.slice(1, -1).map((line) => line.replace(/:.*$/, ''))).toEqual(CHECK_NAMES.map((name) => `PASS  ${name}`));
    expect(lines.at(-1)).toBe(`${CHECK_NAMES.length} passed, 0 failed`);
    expect(run).toMatchObject({ code: 0, stderr: '' });

    const email = /PASS {2}a disposable user is created and signs in: (\S+)/.exec(run.stdout)?.[1];
    expect(email).toMatch(/^smoke-test-[0-9a-f]+@example\.com$/);
    const cognito = makeCognitoClient(local!.cognitoEndpoint);
    try {
      await expect(cognito.send(new AdminGetUserCommand({ UserPoolId: local!.userPoolId, Username: email }))).rejects.toMatchObject({
        name: 'UserNotFoundException',
      });
    } finally {
      cognito.destroy();
    }
  });

  it('a site that drops one security header fails that check alone', { timeout: 60_000 }, async () => {
    // A proxy in front of the stack that forwards everything but X-Frame-Options.
    const proxy = createServer((req, res) => {
      void (async () => {
        const upstream = await fetch(`${local!.appUrl}${req.url ?? '/'}`, {
          method: req.method,
          headers: Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'connection')) as Record<string, string>,
          body: await bodyOf(req),
          redirect: 'manual',
        });
        const headers = Object.fromEntries([...upstream.headers].filter(([name]) => !['x-frame-options', 'content-encoding', 'content-length'].includes(name)));
        res.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
      })();
    });
    servers.push(proxy);
    const report = await runSmoke(await listen(proxy));
    expect(report.results.filter((result) => !result.ok).map(resultLine)).toEqual([`FAIL  ${HEADERS_CHECK}: GET /: no x-frame-options`]);
    expect(report).toMatchObject({ passed: CHECK_NAMES.length - 1, failed: 1 });
  });
});

describe('npm run smoke against a broken target', () => {
  it('a server that answers 200 to everything: every check fails (401 included), exit 1', { timeout: 60_000 }, async () => {
    const yes = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    servers.push(yes);
    const site = await listen(yes);
    const run = await smokeCommand([site]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines.slice(1, -1).every((line) => line.startsWith('FAIL  '))).toBe(true);
    expect(lines.find((line) => line.startsWith(`FAIL  ${API_CHECK}: `))).toMatch(/: GET \/api\/profile answered 200; /);
    expect(lines.at(-1)).toBe(`0 passed, ${CHECK_NAMES.length - 1} failed`);
  });

  it('nothing listening: every check fails, saying there was no answer', async () => {
    const closed = createServer();
    const site = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const report = await runSmoke(site);
    expect(report).toMatchObject({ passed: 0, failed: CHECK_NAMES.length - 1 });
    expect(resultLine(report.results[0]!)).toBe(`FAIL  ${configCheck.name}: GET /config.json got no answer: fetch failed`);
  });

  it('without a site URL, or with one that is not http(s): the usage, exit 2', { timeout: 60_000 }, async () => {
    const argumentLists = [[], ['localhost:3000'], ['http://a.test', 'http://b.test']];
    const runs = await Promise.all(argumentLists.map(smokeCommand));
    for (const [index, run] of runs.entries()) {
      expect(run.code, argumentLists[index]!.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^Usage: npm run smoke -- <site URL>/);
      expect(run.stdout).toBe('');
    }
  });
});
