/**
 * `npm start` keeps its data: a stack started on a data folder finds its accounts, app client,
 * profiles and table again after a restart, and seeding a second time changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../lib/local/stack';
import { accounts } from '../support/accounts';
import { freePort, stack as sharedStack, TEST_PASSWORD, uniqueEmail } from './helpers';

/** Accounts on a stack of this test; a new account is confirmed by its local server, as the web app does. */
const accountsOf = (s: LocalStack) =>
  accounts({ cognitoEndpoint: s.cognitoEndpoint, userPoolClientId: s.userPoolClientId, confirm: { via: 'local-server', appUrl: s.appUrl } });

async function idToken(s: LocalStack, email: string, password: string) {
  const users = accountsOf(s);
  try {
    return (await users.signIn(email, password)).idToken;
  } finally {
    users.close();
  }
}

describe('a stack on a data folder', () => {
  it('keeps accounts, the app client and profiles across a restart', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trackpitch-persist-'));
    // Fixed ports for both runs, as npm start has (the handlers keep their endpoint for the process).
    const ports = { app: await freePort(), dynamodb: await freePort(), cognito: await freePort() };
    const email = uniqueEmail('kept');
    let first: LocalStack | undefined;
    let second: LocalStack | undefined;
    try {
      first = await startLocalStack({ dataDir, ports, webDist: sharedStack().webDist });
      const firstAccounts = accountsOf(first);
      await firstAccounts.signUp({ email, name: 'Kept Artist', password: TEST_PASSWORD });
      await firstAccounts.confirm(email); // throws unless the local server answers 204
      firstAccounts.close();
      const token = await idToken(first, email, TEST_PASSWORD);
      expect((await fetch(`${first.appUrl}/api/profile`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const patched = await fetch(`${first.appUrl}/api/profile`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ artist_name: 'Still Here' }),
      });
      expect(patched.status).toBe(200);
      const firstClientId = first.userPoolClientId;
      await first.stop();
      first = undefined;

      second = await startLocalStack({ dataDir, ports, webDist: sharedStack().webDist });
      expect(second.userPoolClientId).toBe(firstClientId);
      expect(second.userPoolId).toMatch(/^us-east-1_/);
      const again = await idToken(second, email, TEST_PASSWORD);
      const profile = await fetch(`${second.appUrl}/api/profile`, { headers: { authorization: `Bearer ${again}` } });
      expect(profile.status).toBe(200);
      expect(await profile.json()).toMatchObject({ email, full_name: 'Kept Artist', artist_name: 'Still Here' });
      await expect(idToken(second, second.admin.email, second.admin.password)).resolves.toBeTruthy();
    } finally {
      await first?.stop();
      await second?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
