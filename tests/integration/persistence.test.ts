/**
 * `npm start` keeps its data: a stack started on a data folder finds its accounts, app client,
 * profiles and table again after a restart, and seeding a second time changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../lib/local/stack';
import { freePort, stack as sharedStack, TEST_PASSWORD, uniqueEmail } from './helpers';

const clientFor = (s: LocalStack) =>
  new CognitoIdentityProviderClient({ region: s.region, endpoint: s.cognitoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

async function idToken(s: LocalStack, email: string, password: string) {
  const { AuthenticationResult } = await clientFor(s).send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: s.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  return AuthenticationResult!.IdToken!;
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
      await clientFor(first).send(
        new SignUpCommand({
          ClientId: first.userPoolClientId,
          Username: email,
          Password: TEST_PASSWORD,
          UserAttributes: [{ Name: 'name', Value: 'Kept Artist' }],
        }),
      );
      const confirmed = await fetch(`${first.appUrl}/local/confirm-signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      expect(confirmed.status).toBe(204);
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
