/**
 * Forged and altered JWTs for the authorizer tests. Tokens are re-signed with cognito-local's own
 * signing key (the one its JWKS publishes), so a token made here is refused only for the one
 * property a test changes: expiry, issue time, not-before, issuer, audience, or the signature itself.
 */
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

type Claims = Record<string, unknown>;

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** cognito-local's private signing key (kid "CognitoLocal"). */
export function cognitoLocalSigningKey(): KeyObject {
  const require = createRequire(import.meta.url);
  const file = require.resolve('cognito-local/lib/keys/cognitoLocal.private.json');
  const { pem } = JSON.parse(readFileSync(file, 'utf8')) as { pem: string };
  return createPrivateKey(pem);
}

/** Another RSA key nobody publishes. */
export function strangerKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

export function decodeJwt(token: string): { header: Claims; payload: Claims; signature: string } {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || signature === undefined) throw new Error('not a JWT');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Claims,
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims,
    signature,
  };
}

/** Signs header and payload with RS256. */
export function signJwt(header: Claims, payload: Claims, key: KeyObject = cognitoLocalSigningKey()): string {
  const input = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', ...header }))}.${base64url(JSON.stringify(payload))}`;
  return `${input}.${base64url(sign('RSA-SHA256', Buffer.from(input), key))}`;
}

/** The same token with some claims changed (undefined removes one), properly re-signed. */
export function resign(token: string, changes: Claims, key?: KeyObject): string {
  const { header, payload } = decodeJwt(token);
  const next: Claims = { ...payload };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) Reflect.deleteProperty(next, name);
    else next[name] = value;
  }
  return signJwt(header, next, key);
}

const now = () => Math.floor(Date.now() / 1000);

/** Expired ten minutes ago, otherwise identical (and validly signed). */
export const expiredCopy = (token: string) => resign(token, { iat: now() - 7200, auth_time: now() - 7200, exp: now() - 600 });

/** Valid for another hour: the control for expiredCopy (re-signing alone must not break a token). */
export const freshCopy = (token: string) => resign(token, { iat: now(), exp: now() + 3600 });

/** Issued `seconds` from now (and valid for an hour after that), otherwise identical and validly signed. */
export const issuedInFutureCopy = (token: string, seconds = 600) =>
  resign(token, { iat: now() + seconds, auth_time: now() + seconds, exp: now() + seconds + 3600 });

/** Not valid before `seconds` from now (`nbf`), otherwise identical and validly signed. */
export const notYetValidCopy = (token: string, seconds = 600) => resign(token, { iat: now(), nbf: now() + seconds, exp: now() + 3600 });

/** The payload changed (another `sub`) but the original signature kept. */
export function tampered(token: string, changes: Claims = { sub: '00000000-0000-4000-8000-000000000000' }): string {
  const { header, payload, signature } = decodeJwt(token);
  return `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify({ ...payload, ...changes }))}.${signature}`;
}
