/**
 * A sent email's public token (DESIGN §5: ≥128-bit random): the key of `TOKEN#<token>` and the only
 * thing the open pixel, the click links, the unsubscribe page and the one-click POST carry. 32 random
 * bytes, base64url without padding: always 43 characters of [A-Za-z0-9_-]. The sender makes them
 * (newEmailToken); the public routes check the shape (isEmailToken) before any read, so a guessed or
 * mangled token costs no database request.
 */
import { randomBytes } from 'node:crypto';

export const EMAIL_TOKEN_BYTES = 32;

/** base64url of 32 bytes: 43 characters, the last one from a restricted set (its low 2 bits are padding). */
const EMAIL_TOKEN_PATTERN = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** A new token (256 bits from the system's CSPRNG). `random` is replaceable for seeded tests. */
export function newEmailToken(random: (size: number) => Uint8Array = randomBytes): string {
  return Buffer.from(random(EMAIL_TOKEN_BYTES)).toString('base64url');
}

/** Whether `value` has the shape every email token has: anything else cannot exist, so it is a 404 with no read. */
export function isEmailToken(value: unknown): value is string {
  return typeof value === 'string' && EMAIL_TOKEN_PATTERN.test(value);
}
