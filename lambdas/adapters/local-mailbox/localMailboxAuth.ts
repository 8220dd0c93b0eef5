/**
 * The local twin of Google's consent screen and token endpoint (DESIGN §1 local decisions): the consent
 * page (lib/local/mailboxConsent.ts) lets the person type any address and say whether it is a Workspace
 * account, then sends the browser to the callback with a code this module issued. The code is signed
 * with a key of this process, expires like Google's and works once, so the callback's checks run as
 * they do against Google. No network, no real mailbox: the local mailer writes to the outbox.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { MailboxAuthError } from '../../core/errors';
import type { AuthorizedMailbox, MailboxAuthProvider } from '../../ports';
import { MAILBOX_SCOPES } from '../google/scopes';

/** Google's authorization codes live about ten minutes; so do these. */
export const LOCAL_CODE_TTL_MS = 10 * 60_000;
export const LOCAL_REFRESH_TOKEN_PREFIX = 'local-refresh-';

/** Signs the codes; codes only travel between the consent page and the callback of this one process. */
const codeKey = randomBytes(32);
/** Codes already exchanged (by their nonce): a code works once, as Google's do. */
const usedCodes = new Map<string, number>();

const sign = (payload: string) => createHmac('sha256', codeKey).update(payload).digest('base64url');

export interface LocalConsent {
  email: string;
  workspace: boolean;
}

/** The code the consent page puts in the callback URL: `<base64url claims>.<HMAC>`. */
export function issueLocalMailboxCode(consent: LocalConsent, now = new Date()): string {
  const payload = Buffer.from(
    JSON.stringify({ e: consent.email, w: consent.workspace, n: randomBytes(16).toString('base64url'), x: now.getTime() + LOCAL_CODE_TTL_MS }),
  ).toString('base64url');
  return `${payload}.${sign(payload)}`;
}

function readCode(code: string, now: Date): (LocalConsent & { nonce: string; expiresAt: number }) | undefined {
  const [payload, signature, extra] = code.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const wanted = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (wanted.length !== given.length || !timingSafeEqual(wanted, given)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { e?: unknown; w?: unknown; n?: unknown; x?: unknown };
    if (typeof claims.e !== 'string' || typeof claims.w !== 'boolean' || typeof claims.n !== 'string' || typeof claims.x !== 'number') return undefined;
    if (now.getTime() >= claims.x) return undefined;
    return { email: claims.e, workspace: claims.w, nonce: claims.n, expiresAt: claims.x };
  } catch {
    return undefined;
  }
}

export class LocalMailboxAuth implements MailboxAuthProvider {
  constructor(readonly options: { consentUrl: string }) {}

  authorizationUrl({ state, redirectUri }: { state: string; redirectUri: string }): Promise<string> {
    const query = new URLSearchParams({
      response_type: 'code',
      access_type: 'offline',
      scope: MAILBOX_SCOPES.join(' '),
      state,
      redirect_uri: redirectUri,
    });
    return Promise.resolve(`${this.options.consentUrl}?${query.toString()}`);
  }

  exchangeCode({ code }: { code: string; redirectUri: string }): Promise<AuthorizedMailbox> {
    const now = new Date();
    const consent = readCode(code, now);
    if (!consent || usedCodes.has(consent.nonce)) {
      return Promise.reject(new MailboxAuthError('token_exchange_failed', 'The local mailbox refused the authorization code.'));
    }
    for (const [nonce, expiresAt] of usedCodes) if (expiresAt <= now.getTime()) usedCodes.delete(nonce);
    usedCodes.set(consent.nonce, consent.expiresAt);
    return Promise.resolve({
      refreshToken: `${LOCAL_REFRESH_TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`,
      email: consent.email,
      hostedDomain: consent.workspace ? (consent.email.split('@')[1] ?? null) : null,
    });
  }

  revoke(): Promise<void> {
    // Nothing to revoke: the local mailbox keeps no grants.
    return Promise.resolve();
  }
}
