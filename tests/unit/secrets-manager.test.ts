/**
 * Secrets Manager reads (SDK mocked): each secret is read once per container, a failed read is tried
 * again on the next use, and the OAuth state key is the secret string's bytes (at least 32 of them).
 */
import { GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { cachedSecretString, SecretsManagerOAuthStateKey } from '../../lambdas/adapters/secrets-manager/secretValue';

const smMock = mockClient(SecretsManagerClient);
const client = new SecretsManagerClient({ region: 'us-east-1' });
let run = 0;
/** The cache lives for the container (module): every test uses names of its own. */
const name = (base: string) => `${base}-${run}`;

beforeEach(() => {
  smMock.reset();
  run++;
});

describe('cachedSecretString', () => {
  it('reads a secret once, however often and however concurrently it is asked for', async () => {
    smMock.on(GetSecretValueCommand, { SecretId: name('google') }).resolves({ SecretString: 'client-secret' });
    const values = await Promise.all([cachedSecretString(client, name('google')), cachedSecretString(client, name('google'))]);
    expect(values).toEqual(['client-secret', 'client-secret']);
    expect(await cachedSecretString(client, name('google'))).toBe('client-secret');
    expect(smMock.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('keeps secrets apart by name', async () => {
    smMock.on(GetSecretValueCommand, { SecretId: name('a') }).resolves({ SecretString: 'A' });
    smMock.on(GetSecretValueCommand, { SecretId: name('b') }).resolves({ SecretString: 'B' });
    expect(await cachedSecretString(client, name('a'))).toBe('A');
    expect(await cachedSecretString(client, name('b'))).toBe('B');
  });

  it('does not cache a failure: the next use reads again', async () => {
    smMock
      .on(GetSecretValueCommand)
      .rejectsOnce(new ResourceNotFoundException({ message: 'not yet', $metadata: {} }))
      .resolves({ SecretString: 'later' });
    await expect(cachedSecretString(client, name('flaky'))).rejects.toThrow('not yet');
    expect(await cachedSecretString(client, name('flaky'))).toBe('later');
    expect(smMock.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('refuses a secret without a string value (a binary secret)', async () => {
    smMock.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1, 2, 3]) });
    await expect(cachedSecretString(client, name('binary'))).rejects.toThrow(/no string value/);
  });
});

describe('SecretsManagerOAuthStateKey', () => {
  it('is the bytes of the secret string', async () => {
    const secret = 'x7#Qm2!pLr9$Vz4&Kt8*Wn3^Hs6@Jd1%Yb5';
    smMock.on(GetSecretValueCommand, { SecretId: name('state') }).resolves({ SecretString: secret });
    const source = new SecretsManagerOAuthStateKey(client, name('state'));
    expect(await source.key()).toEqual(Buffer.from(secret, 'utf8'));
    expect(await source.key()).toEqual(Buffer.from(secret, 'utf8'));
    expect(smMock.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('refuses a key shorter than 32 bytes', async () => {
    smMock.on(GetSecretValueCommand).resolves({ SecretString: 'short' });
    await expect(new SecretsManagerOAuthStateKey(client, name('short')).key()).rejects.toThrow(/shorter than 32 bytes/);
  });
});
