/**
 * The mailbox connection (spec §2 Settings → Mailbox Integration, §4, §8; DESIGN §5): connect sends the
 * browser to the provider's consent screen with a signed, single-use state bound to the user and to this
 * browser (an HttpOnly cookie holding the state's nonce); the public callback checks all of it, trades
 * the code for a refresh token, seals it (SecretBox, bound to the user id) and stores the mailbox, then
 * redirects to Settings with `gmail_connected=true` or `gmail_error=<code>`. The refresh token never
 * appears in a response or a log. Disconnect is idempotent (204 whether or not a mailbox was connected).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { MailboxErrorCode } from '../../schema/api/sending';
import { MailboxAuthError } from '../core/errors';
import { OAUTH_STATE_TTL_MS, readOAuthState, signOAuthState, verifyOAuthState } from '../core/oauthState';
import { mailboxAccount } from '../core/plans';
import type { Clock, MailboxAuthProvider, MailboxStore, OAuthStateKeySource, OAuthStateStore, ProfileStore, SecretBox } from '../ports';
import { readServerConfig, type SendingConfig, type ServerConfig } from '../composition/config';
import { mailboxDeps } from '../composition/mailbox';
import { httpApi, json, lazyHandler, logger, noContent, type ApiEvent, type ApiResult } from './api';
import { ensureProfile } from './ensureProfile';

export interface MailboxDeps {
  profiles: ProfileStore;
  mailboxes: MailboxStore;
  oauthStates: OAuthStateStore;
  oauthStateKey: OAuthStateKeySource;
  mailboxAuth: MailboxAuthProvider;
  secrets: SecretBox;
  clock: Clock;
  sending: Pick<SendingConfig, 'appUrl'>;
}

export const CALLBACK_PATH = '/api/mailbox/callback';
export const SETTINGS_PATH = '/dashboard/settings';
/** Binds a consent to the browser that started it: a state link opened in another browser is refused. */
export const CONSENT_COOKIE = 'tp_mailbox_consent';

/** The refresh token's SecretBox context: a sealed token copied under another user cannot be opened. */
export const refreshTokenContext = (userId: string) => ({ userId });

const secureCookie = (appUrl: string) => appUrl.startsWith('https://');

function consentCookie(appUrl: string, nonce: string, maxAgeSeconds: number): string {
  return [
    `${CONSENT_COOKIE}=${nonce}`,
    `Path=${CALLBACK_PATH}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    // Lax: sent on the top-level navigation back from the consent screen, never on cross-site requests.
    'SameSite=Lax',
    ...(secureCookie(appUrl) ? ['Secure'] : []),
  ].join('; ');
}

/** The nonce cookie of the request (API Gateway hands cookies over as `event.cookies`). */
function cookieNonce(event: ApiEvent): string | undefined {
  for (const cookie of event.cookies ?? []) {
    const at = cookie.indexOf('=');
    if (at > 0 && cookie.slice(0, at).trim() === CONSENT_COOKIE) return cookie.slice(at + 1).trim();
  }
  return undefined;
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** The redirect back to Settings; every outcome clears the consent cookie (it was for this one consent). */
function backToSettings(appUrl: string, outcome: { connected: true } | { error: MailboxErrorCode }): ApiResult {
  const flag = 'connected' in outcome ? 'gmail_connected=true' : `gmail_error=${outcome.error}`;
  return {
    statusCode: 302,
    headers: {
      location: `${appUrl}${SETTINGS_PATH}?${flag}`,
      'cache-control': 'no-store',
      // The callback URL carries the authorization code: never pass it on as a Referer.
      'referrer-policy': 'no-referrer',
    },
    cookies: [consentCookie(appUrl, '', 0)],
  };
}

/** Consumes the state's nonce and returns the user it was made for, or the reason it is refused. */
async function checkedUser(deps: MailboxDeps, event: ApiEvent, state: string, now: Date): Promise<string | undefined> {
  const key = await deps.oauthStateKey.key();
  const read = readOAuthState(state, key, now);
  if (read.outcome !== 'valid') return undefined;
  // Checked before consuming: a state opened in another browser does not use up the real one.
  const nonce = cookieNonce(event);
  if (!nonce || !sameText(nonce, read.claims.nonce)) return undefined;
  const userId = await deps.oauthStates.consume(read.claims.nonce, now);
  if (!userId) return undefined;
  return verifyOAuthState(state, key, { userId, now }).outcome === 'valid' ? userId : undefined;
}

export const makeHandler = (deps: MailboxDeps) => {
  const { appUrl } = deps.sending;
  const redirectUri = `${appUrl}${CALLBACK_PATH}`;

  return httpApi('mailbox', {
    'POST /api/mailbox/connect': async ({ identity }) => {
      const now = deps.clock.now();
      // The callback updates the profile; make sure there is one (first request of a new account).
      await ensureProfile(deps.profiles, identity, now);
      const nonce = randomBytes(32).toString('base64url');
      const expiresAt = now.getTime() + OAUTH_STATE_TTL_MS;
      await deps.oauthStates.create(nonce, identity.userId, new Date(expiresAt));
      const state = signOAuthState({ userId: identity.userId, nonce, expiresAt }, await deps.oauthStateKey.key());
      const authUrl = await deps.mailboxAuth.authorizationUrl({ state, redirectUri });
      return { ...json(200, { authUrl }), cookies: [consentCookie(appUrl, nonce, OAUTH_STATE_TTL_MS / 1000)] };
    },

    'GET /api/mailbox/callback': async ({ event, query }) => {
      const now = deps.clock.now();
      const { code, state, error } = query;
      if (error !== undefined) {
        // Denied (or any other refusal): use the state up so it cannot be replayed, then say so.
        if (state) await checkedUser(deps, event, state, now).catch(() => undefined);
        logger.info('Mailbox consent refused', { providerError: error.slice(0, 100) });
        return backToSettings(appUrl, { error: 'access_denied' });
      }
      if (!code || !state) return backToSettings(appUrl, { error: 'invalid_callback' });
      const userId = await checkedUser(deps, event, state, now);
      if (!userId) {
        logger.warn('Mailbox callback refused: invalid, expired, used or foreign state');
        return backToSettings(appUrl, { error: 'invalid_callback' });
      }

      let authorized;
      try {
        authorized = await deps.mailboxAuth.exchangeCode({ code, redirectUri });
      } catch (failure) {
        const reason = failure instanceof MailboxAuthError ? failure.message : 'the provider call failed';
        const cause = failure instanceof Error && failure.cause instanceof Error ? failure.cause.name : undefined;
        logger.warn('Mailbox code exchange failed', { userId, reason, cause });
        return backToSettings(appUrl, { error: 'token_exchange_failed' });
      }

      try {
        const sealedRefreshToken = await deps.secrets.seal(authorized.refreshToken, refreshTokenContext(userId));
        const { accountType, dailyLimit } = mailboxAccount(authorized.hostedDomain);
        await deps.mailboxes.connect(userId, { email: authorized.email, accountType, dailyLimit, sealedRefreshToken, connectedAt: now.toISOString() });
      } catch (failure) {
        logger.error('Saving the mailbox failed', { userId, error: (failure as Error | undefined)?.name });
        // Not stored, so never used: give the grant back.
        await deps.mailboxAuth.revoke(authorized.refreshToken);
        return backToSettings(appUrl, { error: 'save_failed' });
      }
      logger.info('Mailbox connected', { userId });
      return backToSettings(appUrl, { connected: true });
    },

    'DELETE /api/mailbox': async ({ identity }) => {
      const userId = identity.userId;
      await ensureProfile(deps.profiles, identity, deps.clock.now());
      const removed = await deps.mailboxes.disconnect(userId);
      if (removed) {
        try {
          await deps.mailboxAuth.revoke(await deps.secrets.open(removed.sealedRefreshToken, refreshTokenContext(userId)));
        } catch {
          // Best effort: the mailbox is disconnected here either way; a token we cannot open cannot be revoked.
          logger.warn('Could not revoke the disconnected mailbox token', { userId });
        }
      }
      return noContent();
    },
  });
};

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(mailboxDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
