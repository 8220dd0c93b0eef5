/**
 * The SecretBox contract (DESIGN §5: the refresh token is stored encrypted, bound to its user), run
 * against the KMS envelope adapter (KMS mocked: a fake that really encrypts data keys under its own
 * master key and enforces the encryption context, as KMS does) and its local twin (AES-256-GCM with
 * the local key file).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, GenerateDataKeyCommand, InvalidCiphertextException, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { KmsSecretBox } from '../../lambdas/adapters/kms/kmsSecretBox';
import { LOCAL_KEYS_FILE, LocalSecretBox, localKeys } from '../../lambdas/adapters/local-secrets/localKeys';
import type { SecretBox } from '../../lambdas/ports';

const KEY_ID = 'arn:aws:kms:us-east-1:111122223333:key/token-key';
const kmsMock = mockClient(KMSClient);

/** A stand-in for KMS: data keys wrapped with AES-GCM under a master key, the context as associated data. */
function fakeKms() {
  kmsMock.reset();
  const master = randomBytes(32);
  const aad = (context: Record<string, string> | undefined) => Buffer.from(JSON.stringify(Object.entries(context ?? {}).sort()));
  const calls = { generate: 0, decrypt: 0 };
  kmsMock.on(GenerateDataKeyCommand).callsFake((input: GenerateDataKeyCommand['input']) => {
    calls.generate++;
    expect(input.KeyId).toBe(KEY_ID);
    expect(input.KeySpec).toBe('AES_256');
    const dataKey = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', master, iv).setAAD(aad(input.EncryptionContext));
    const blob = Buffer.concat([iv, cipher.update(dataKey), cipher.final(), cipher.getAuthTag()]);
    return { KeyId: KEY_ID, Plaintext: new Uint8Array(dataKey), CiphertextBlob: new Uint8Array(blob) };
  });
  kmsMock.on(DecryptCommand).callsFake((input: DecryptCommand['input']) => {
    calls.decrypt++;
    const blob = Buffer.from(input.CiphertextBlob!);
    try {
      const decipher = createDecipheriv('aes-256-gcm', master, blob.subarray(0, 12)).setAAD(aad(input.EncryptionContext));
      decipher.setAuthTag(blob.subarray(blob.length - 16));
      const plaintext = Buffer.concat([decipher.update(blob.subarray(12, blob.length - 16)), decipher.final()]);
      return { KeyId: KEY_ID, Plaintext: new Uint8Array(plaintext) };
    } catch {
      throw new InvalidCiphertextException({ message: 'InvalidCiphertextException', $metadata: {} });
    }
  });
  return calls;
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['KMS envelope (KMS mocked)', () => (fakeKms(), new KmsSecretBox(new KMSClient({ region: 'us-east-1' }), KEY_ID)) as SecretBox],
  ['local key (AES-256-GCM, local twin)', () => new LocalSecretBox(randomBytes(32)) as SecretBox],
])('SecretBox contract: %s', (_name, makeBox) => {
  let box: SecretBox;
  beforeEach(() => {
    box = makeBox();
  });
  const token = '1//0gLocalRefreshToken-with-üñíçødé';
  const alice = { userId: 'user-alice' };

  it('opens what it sealed, with the same context, and the sealed text does not contain the secret', async () => {
    const sealed = await box.seal(token, alice);
    expect(sealed).not.toContain(token);
    expect(sealed).not.toContain(Buffer.from(token).toString('base64url'));
    expect(await box.open(sealed, { userId: 'user-alice' })).toBe(token);
  });

  it('refuses to open with another context (a token copied under another user)', async () => {
    const sealed = await box.seal(token, alice);
    await expect(box.open(sealed, { userId: 'user-bob' })).rejects.toThrow();
    await expect(box.open(sealed, {})).rejects.toThrow();
    await expect(box.open(sealed, { userId: 'user-alice', extra: 'x' })).rejects.toThrow();
  });

  it('refuses a tampered sealed text: any changed part, a truncated one, or garbage', async () => {
    const sealed = await box.seal(token, alice);
    const parts = sealed.split('.');
    for (let i = 1; i < parts.length; i++) {
      const bytes = Buffer.from(parts[i]!, 'base64url');
      bytes[bytes.length - 1]! ^= 0x01;
      const tampered = [...parts.slice(0, i), bytes.toString('base64url'), ...parts.slice(i + 1)].join('.');
      await expect(box.open(tampered, alice), `part ${i}`).rejects.toThrow();
    }
    await expect(box.open(parts.slice(0, -1).join('.'), alice)).rejects.toThrow();
    await expect(box.open('not-sealed', alice)).rejects.toThrow();
    await expect(box.open(`x${sealed}`, alice)).rejects.toThrow();
  });

  it('seals the same plaintext differently every time (fresh IV, and with KMS a fresh data key)', async () => {
    const sealed = await Promise.all(Array.from({ length: 5 }, () => box.seal(token, alice)));
    expect(new Set(sealed).size).toBe(5);
    for (const one of sealed) expect(await box.open(one, alice)).toBe(token);
  });

  it('binds the context regardless of the order of its names', async () => {
    const sealed = await box.seal(token, { userId: 'u', purpose: 'gmail' });
    expect(await box.open(sealed, { purpose: 'gmail', userId: 'u' })).toBe(token);
  });
});

describe('KMS envelope specifics', () => {
  it('asks KMS for one data key per seal with the context as encryption context, and stores v1.<key>.<iv>.<ciphertext>', async () => {
    const calls = fakeKms();
    const box = new KmsSecretBox(new KMSClient({ region: 'us-east-1' }), KEY_ID);
    const sealed = await box.seal('secret', { userId: 'u1' });
    expect(sealed.split('.')).toHaveLength(4);
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(kmsMock.commandCalls(GenerateDataKeyCommand)[0]!.args[0].input.EncryptionContext).toEqual({ userId: 'u1' });
    await box.open(sealed, { userId: 'u1' });
    expect(kmsMock.commandCalls(DecryptCommand)[0]!.args[0].input).toMatchObject({ EncryptionContext: { userId: 'u1' }, KeyId: KEY_ID });
    expect(calls).toEqual({ generate: 1, decrypt: 1 });
  });
});

describe('local keys (localKeys)', () => {
  // The file is written with mode 0600.
  it('keeps one set of keys per data folder in local-keys.json, the same for every caller and after a reload', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trackpitch-keys-'));
    tempDirs.push(dir);
    const keys = localKeys(dir);
    expect(localKeys(dir)).toBe(keys);
    const sealed = await keys.secretBox.seal('token', { userId: 'u' });
    const file = join(dir, LOCAL_KEYS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect(Buffer.from(stored.secretBoxKey!, 'base64')).toHaveLength(32);
    expect(Buffer.from(stored.oauthStateKey!, 'base64')).toHaveLength(32);
    // A new process reads the same file: what was sealed before a restart still opens.
    expect(await new LocalSecretBox(Buffer.from(stored.secretBoxKey!, 'base64')).open(sealed, { userId: 'u' })).toBe('token');
    expect(await keys.oauthStateKey.key()).toEqual(Buffer.from(stored.oauthStateKey!, 'base64'));
  });

  it('without a data folder: one in-memory set per process, different from a folder set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trackpitch-keys-'));
    tempDirs.push(dir);
    expect(localKeys(undefined)).toBe(localKeys(undefined));
    const memoryKey = await localKeys(undefined).oauthStateKey.key();
    expect(memoryKey).toHaveLength(32);
    expect(await localKeys(dir).oauthStateKey.key()).not.toEqual(memoryKey);
    const sealed = await localKeys(undefined).secretBox.seal('t', { userId: 'u' });
    await expect(localKeys(dir).secretBox.open(sealed, { userId: 'u' })).rejects.toThrow();
  });
});
