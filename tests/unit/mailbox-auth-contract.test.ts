/**
 * The MailboxAuthProvider contract, run against Google (googleapis' OAuth2 client with its network
 * calls mocked: token endpoint, ID token verification, userinfo, revoke; the consent URL is built by
 * the real library) and the local mailbox (lib/local's consent page issues its codes). Both ask for
 * offline access and exactly gmail.send + userinfo.email, carry the state and the redirect, and trade
 * a code for the mailbox's address, Workspace domain and a refresh token, or fail with
 * token_exchange_failed.
 */
import { auth as googleAuth, oauth2 } from 'googleapis/build/src/apis/oauth2/index.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GoogleMailboxAuth } from '../../lambdas/adapters/google/googleMailboxAuth';
import { issueLocalMailboxCode, LocalMailboxAuth, LOCAL_REFRESH_TOKEN_PREFIX } from '../../lambdas/adapters/local-mailbox/localMailboxAuth';
import { MailboxAuthError } from '../../lambdas/core/errors';
import type { MailboxAuthProvider } from '../../lambdas/ports';
import { anyString } from '../support/matchers';

const SCOPES = ['https://www.googleapis.com/auth/gmail.send', 'https://www.googleapis.com/auth/userinfo.email'];
const CLIENT_ID = '1234-abc.apps.googleusercontent.com';
const REDIRECT = 'https://app.trackpitch.example/api/mailbox/callback';
const OAuth2 = googleAuth.OAuth2;

// The userinfo API the adapter falls back to, replaceable per test (the rest of the module is real).
vi.mock('googleapis/build/src/apis/oauth2/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('googleapis/build/src/apis/oauth2/index.js')>();
  return { ...actual, oauth2: vi.fn(actual.oauth2) };
});

interface Consent {
  email: string;
  workspace: boolean;
}

interface Harness {
  auth: MailboxAuthProvider;
  /** The person consents as this mailbox: the code the provider hands the callback. */
  consent(consent: Consent): string;
  /** A code the provider never issued. */
  unknownCode: string;
}

/** Google's token endpoint and ID token verification, as far as the adapter sees them. */
function googleHarness(): Harness & { tokensFor: Map<string, Record<string, unknown>>; idTokens: Map<string, Record<string, unknown>> } {
  const tokensFor = new Map<string, Record<string, unknown>>();
  const idTokens = new Map<string, Record<string, unknown>>();
  vi.spyOn(OAuth2.prototype, 'getToken').mockImplementation(((options: { code: string; redirect_uri?: string }) => {
    const tokens = tokensFor.get(options.code);
    if (!tokens || options.redirect_uri !== REDIRECT) return Promise.reject(Object.assign(new Error('invalid_grant'), { response: { status: 400 } }));
    return Promise.resolve({ tokens, res: null });
  }) as never);
  vi.spyOn(OAuth2.prototype, 'verifyIdToken').mockImplementation((({ idToken, audience }: { idToken: string; audience: string }) => {
    const payload = idTokens.get(idToken);
    if (!payload || audience !== CLIENT_ID) return Promise.reject(new Error('Wrong recipient, payload audience != requiredAudience'));
    return Promise.resolve({ getPayload: () => payload });
  }) as never);
  vi.spyOn(OAuth2.prototype, 'revokeToken').mockRejectedValue(new Error('network down'));
  let n = 0;
  return {
    auth: new GoogleMailboxAuth({ clientId: CLIENT_ID, clientSecret: () => Promise.resolve('client-secret') }),
    consent: ({ email, workspace }) => {
      n++;
      const code = `4/0code-${n}`;
      tokensFor.set(code, {
        access_token: `ya29.${n}`,
        refresh_token: `1//refresh-${n}`,
        id_token: `idtoken-${n}`,
        scope: SCOPES.join(' '),
        token_type: 'Bearer',
      });
      idTokens.set(`idtoken-${n}`, { email, email_verified: true, aud: CLIENT_ID, ...(workspace ? { hd: email.split('@')[1] } : {}) });
      return code;
    },
    unknownCode: '4/0never-issued',
    tokensFor,
    idTokens,
  };
}

function localHarness(): Harness {
  return {
    auth: new LocalMailboxAuth({ consentUrl: 'http://127.0.0.1:3000/local/mailbox/consent' }),
    consent: (consent) => issueLocalMailboxCode(consent),
    unknownCode: 'eyJlIjoiYUBiLmMiLCJ3Ijp0cnVlfQ.forged',
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([
  ['Google (googleapis OAuth2, network mocked)', googleHarness as () => Harness],
  ['local mailbox (local twin)', localHarness],
])('MailboxAuthProvider contract: %s', (_name, makeHarness) => {
  let harness: Harness;
  beforeEach(() => {
    harness = makeHarness();
  });

  it('builds a consent URL with offline access, exactly the two scopes, the state and the redirect', async () => {
    const state = 'eyJ1IjoidXNlciJ9.c2lnbmF0dXJl';
    const url = new URL(await harness.auth.authorizationUrl({ state, redirectUri: REDIRECT }));
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')!.split(' ').sort()).toEqual([...SCOPES].sort());
    expect(url.searchParams.get('state')).toBe(state);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
  });

  it('trades a code for the mailbox address, the Workspace domain and a refresh token', async () => {
    const workspace = await harness.auth.exchangeCode({
      code: harness.consent({ email: 'nova@nova-records.example', workspace: true }),
      redirectUri: REDIRECT,
    });
    expect(workspace).toEqual({ email: 'nova@nova-records.example', hostedDomain: 'nova-records.example', refreshToken: anyString() });
    expect(workspace.refreshToken.length).toBeGreaterThan(8);
    const personal = await harness.auth.exchangeCode({ code: harness.consent({ email: 'nova@gmail.example', workspace: false }), redirectUri: REDIRECT });
    expect(personal).toEqual({ email: 'nova@gmail.example', hostedDomain: null, refreshToken: anyString() });
    expect(personal.refreshToken).not.toBe(workspace.refreshToken);
  });

  it('refuses a code it never issued with token_exchange_failed', async () => {
    const failure = await harness.auth.exchangeCode({ code: harness.unknownCode, redirectUri: REDIRECT }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailboxAuthError);
    expect((failure as MailboxAuthError).code).toBe('token_exchange_failed');
  });

  it('revokes without ever throwing', async () => {
    await expect(harness.auth.revoke('1//some-refresh-token')).resolves.toBeUndefined();
  });
});

describe('Google specifics', () => {
  let harness: ReturnType<typeof googleHarness>;
  beforeEach(() => {
    harness = googleHarness();
  });
  const exchange = (code: string) => harness.auth.exchangeCode({ code, redirectUri: REDIRECT });
  const failureCode = (promise: Promise<unknown>) =>
    promise.then(
      () => 'resolved',
      (error: unknown) => (error instanceof MailboxAuthError ? error.code : String(error)),
    );

  it('asks for consent every time and never folds in scopes granted earlier', async () => {
    const url = new URL(await harness.auth.authorizationUrl({ state: 's', redirectUri: REDIRECT }));
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('include_granted_scopes')).toBe('false');
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
  });

  it('fails with token_exchange_failed when Google returns no refresh token', async () => {
    const code = harness.consent({ email: 'a@gmail.example', workspace: false });
    delete harness.tokensFor.get(code)!.refresh_token;
    expect(await failureCode(exchange(code))).toBe('token_exchange_failed');
  });

  it('fails with token_exchange_failed when the person unticked gmail.send on the consent screen', async () => {
    const code = harness.consent({ email: 'a@gmail.example', workspace: false });
    harness.tokensFor.get(code)!.scope = SCOPES[1];
    expect(await failureCode(exchange(code))).toBe('token_exchange_failed');
  });

  it('does not trust an ID token that fails verification (another audience, forged)', async () => {
    const code = harness.consent({ email: 'a@gmail.example', workspace: false });
    harness.idTokens.clear();
    expect(await failureCode(exchange(code))).toBe('token_exchange_failed');
  });

  it('reads the address and hd from userinfo when no ID token comes back', async () => {
    const code = harness.consent({ email: 'ignored@gmail.example', workspace: false });
    delete harness.tokensFor.get(code)!.id_token;
    const get = vi.fn(() => Promise.resolve({ data: { email: 'label@studio.example', hd: 'studio.example', verified_email: true } }));
    vi.mocked(oauth2).mockReturnValueOnce({ userinfo: { get } } as never);
    expect(await exchange(code)).toEqual({ email: 'label@studio.example', hostedDomain: 'studio.example', refreshToken: anyString() });
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('revokes the refresh token with Google', async () => {
    const revoke = vi.spyOn(OAuth2.prototype, 'revokeToken').mockResolvedValue({} as never);
    await harness.auth.revoke('1//refresh');
    expect(revoke).toHaveBeenCalledWith('1//refresh');
  });
});

describe('local mailbox specifics', () => {
  const auth = new LocalMailboxAuth({ consentUrl: 'http://127.0.0.1:3000/local/mailbox/consent' });

  it('sends the browser to the local consent page', async () => {
    const url = new URL(await auth.authorizationUrl({ state: 's', redirectUri: 'http://127.0.0.1:3000/api/mailbox/callback' }));
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:3000/local/mailbox/consent');
  });

  it('accepts a code once, refuses a tampered one, and hands out local refresh tokens', async () => {
    const code = issueLocalMailboxCode({ email: 'artist@local.test', workspace: false });
    const first = await auth.exchangeCode({ code, redirectUri: REDIRECT });
    expect(first.refreshToken.startsWith(LOCAL_REFRESH_TOKEN_PREFIX)).toBe(true);
    await expect(auth.exchangeCode({ code, redirectUri: REDIRECT })).rejects.toMatchObject({ code: 'token_exchange_failed' });
    const [payload, signature] = issueLocalMailboxCode({ email: 'artist@local.test', workspace: false }).split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), w: true })).toString('base64url');
    await expect(auth.exchangeCode({ code: `${forged}.${signature}`, redirectUri: REDIRECT })).rejects.toMatchObject({ code: 'token_exchange_failed' });
  });

  it('refuses an expired code', async () => {
    const code = issueLocalMailboxCode({ email: 'artist@local.test', workspace: true }, new Date(Date.now() - 11 * 60_000));
    await expect(auth.exchangeCode({ code, redirectUri: REDIRECT })).rejects.toMatchObject({ code: 'token_exchange_failed' });
  });
});
