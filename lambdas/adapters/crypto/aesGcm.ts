/**
 * AES-256-GCM with the secret's context as associated data: what both SecretBox adapters (KMS envelope
 * in AWS, the local key file locally) do with their 32-byte key. Changing the ciphertext, the tag or the
 * context makes opening fail.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The context in a stable form (sorted names), so `{a, b}` and `{b, a}` bind the same. */
export const contextBytes = (context: Record<string, string>) =>
  Buffer.from(JSON.stringify(Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), 'utf8');

/** A fresh random IV every time: the same plaintext never seals the same twice. */
export function aesGcmSeal(key: Buffer, plaintext: string, context: Record<string, string>): { iv: Buffer; sealed: Buffer } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(contextBytes(context));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { iv, sealed };
}

/** Throws when the key, IV, ciphertext, tag or context is not the one sealed with. */
export function aesGcmOpen(key: Buffer, iv: Buffer, sealed: Buffer, context: Record<string, string>): string {
  if (iv.length !== IV_BYTES || sealed.length < TAG_BYTES) throw new Error('The sealed secret is malformed.');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(contextBytes(context));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}

const b64 = (buffer: Uint8Array) => Buffer.from(buffer).toString('base64url');
const unb64 = (text: string) => Buffer.from(text, 'base64url');

/** `<prefix>.<part>.<part>…` in base64url; `parseParts` checks the prefix and the count. */
export const joinParts = (prefix: string, parts: Uint8Array[]) => [prefix, ...parts.map(b64)].join('.');

export function parseParts(sealed: string, prefix: string, count: number): Buffer[] {
  const [head, ...parts] = sealed.split('.');
  if (head !== prefix || parts.length !== count || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) {
    throw new Error('The sealed secret is malformed.');
  }
  return parts.map(unb64);
}
