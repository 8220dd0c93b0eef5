/**
 * The OAuth `state` of the mailbox connection (DESIGN §5: signed, single-use, bound to the user). The
 * state names the user, a random nonce and an expiry, and carries an HMAC-SHA256 over them; the
 * callback verifies the signature, the user and the time here, and the caller makes it single-use by
 * deleting the nonce's stored item in a conditional write. Pure apart from the standard library's HMAC.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a consent screen may stay open before its state is refused. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

export interface OAuthStateClaims {
  userId: string;
  /** ≥128-bit random, base64url: the key of the single-use item. */
  nonce: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

const encode = (value: string) => Buffer.from(value, 'utf8').toString('base64url');
const decode = (value: string) => Buffer.from(value, 'base64url').toString('utf8');
const signatureOf = (payload: string, key: Buffer) => createHmac('sha256', key).update(payload).digest('base64url');

/** `<base64url(JSON claims)>.<base64url(HMAC)>`: opaque to the browser, checkable only with the key. */
export function signOAuthState(claims: OAuthStateClaims, key: Buffer): string {
  const payload = encode(JSON.stringify({ u: claims.userId, n: claims.nonce, e: claims.expiresAt }));
  return `${payload}.${signatureOf(payload, key)}`;
}

export type OAuthStateCheck =
  | { outcome: 'valid'; claims: OAuthStateClaims }
  /** Not made with this key, malformed, or changed on the way. */
  | { outcome: 'invalid' }
  | { outcome: 'expired' }
  /** Signed for another user: a state link taken from someone else's browser. */
  | { outcome: 'other_user' };

/** The claims of a state signed with `key`, whoever it names; undefined when not made with this key or malformed. */
function signedClaims(state: string, key: Buffer): OAuthStateClaims | undefined {
  const [payload, signature, extra] = state.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const wanted = Buffer.from(signatureOf(payload, key));
  const given = Buffer.from(signature);
  if (wanted.length !== given.length || !timingSafeEqual(wanted, given)) return undefined;
  try {
    const parsed = JSON.parse(decode(payload)) as { u?: unknown; n?: unknown; e?: unknown };
    if (typeof parsed.u !== 'string' || typeof parsed.n !== 'string' || typeof parsed.e !== 'number') return undefined;
    return { userId: parsed.u, nonce: parsed.n, expiresAt: parsed.e };
  } catch {
    return undefined;
  }
}

export function verifyOAuthState(state: string, key: Buffer, expected: { userId: string; now: Date }): OAuthStateCheck {
  const claims = signedClaims(state, key);
  if (!claims) return { outcome: 'invalid' };
  if (claims.userId !== expected.userId) return { outcome: 'other_user' };
  if (expected.now.getTime() >= claims.expiresAt) return { outcome: 'expired' };
  return { outcome: 'valid', claims };
}

/**
 * A state's claims before the user is known: the callback has no signed-in user, so it reads the nonce
 * here, learns the user from the nonce's single-use item, then checks the state names that same user
 * with verifyOAuthState.
 */
export function readOAuthState(state: string, key: Buffer, now: Date): Exclude<OAuthStateCheck, { outcome: 'other_user' }> {
  const claims = signedClaims(state, key);
  if (!claims) return { outcome: 'invalid' };
  if (now.getTime() >= claims.expiresAt) return { outcome: 'expired' };
  return { outcome: 'valid', claims };
}
