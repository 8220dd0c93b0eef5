/**
 * The mailbox connection end to end over real HTTP (DESIGN §5, spec §8 Mailbox connection): the local
 * server (JWT authorizer → lambdas/http/mailbox.ts → DynamoDB Local) and the local mailbox's consent page
 * (lib/local/mailboxConsent.ts). Connect → consent → callback → the profile shows the mailbox; every
 * `gmail_error` code; the state is single use, bound to its user and to the browser that started it;
 * disconnect; the refresh token is stored sealed and never appears in a response.
 */
import { createServer, type Server } from 'node:http';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalMailboxAuth, LOCAL_REFRESH_TOKEN_PREFIX } from '../../lambdas/adapters/local-mailbox/localMailboxAuth';
import { DynamoMailboxStore } from '../../lambdas/adapters/dynamodb/mailboxStore';
import { DynamoOAuthStateStore } from '../../lambdas/adapters/dynamodb/oauthStateStore';
import { DynamoProfileStore } from '../../lambdas/adapters/dynamodb/profileStore';
import { localKeys } from '../../lambdas/adapters/local-secrets/localKeys';
import { signOAuthState } from '../../lambdas/core/oauthState';
import { CONSENT_COOKIE, makeHandler } from '../../lambdas/http/mailbox';
import type { MailboxAuthProvider, SecretBox } from '../../lambdas/ports';
import { handleMailboxConsent, MAILBOX_CONSENT_PATH } from '../../lib/local/mailboxConsent';
import { importHandler, type LambdaHandler, type LocalServer } from '../../lib/local/server';
import type { Profile } from '../../schema/api/profile';
import { mailboxMessages, type MailboxErrorCode } from '../../schema/api/sending';
import { NOT_CONFIGURED } from '../../schema/api/serverMessages';
import { mailboxDeps } from '../../lambdas/composition/mailbox';
import { key } from '../../schema/table';
import { call, callAt, createUser, dynamodb, stack, startServer, startServerServing, type TestUser, stackConfig } from './helpers';
import { anyString } from '../support/matchers';

const keys = localKeys(undefined);
/** Every response body the browser got from the API: none may carry the refresh token. */
const responseTexts: string[] = [];
/** The test's clock offset: moves time past the state's ten minutes. */
let clockOffsetMs = 0;
/** Fault switch: sealing fails (the save_failed path). */
let sealFails = false;
const revoked: string[] = [];

let api: LocalServer;
let consentServer: Server;
let consentUrl: string;

beforeAll(async () => {
  const db = dynamodb().doc;
  const tableName = stack().tableName;
  consentServer = createServer((req, res) => {
    void handleMailboxConsent(req, res, { appOrigins: [api.url] });
  });
  await new Promise<void>((resolve) => consentServer.listen(0, '127.0.0.1', resolve));
  const address = consentServer.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  consentUrl = `http://127.0.0.1:${address.port}${MAILBOX_CONSENT_PATH}`;

  const local = new LocalMailboxAuth({ consentUrl });
  const mailboxAuth: MailboxAuthProvider = {
    authorizationUrl: (input) => local.authorizationUrl(input),
    exchangeCode: (input) => local.exchangeCode(input),
    revoke: (token) => {
      revoked.push(token);
      return Promise.resolve();
    },
  };
  const secrets: SecretBox = {
    seal: async (plaintext, context) => {
      if (sealFails) throw new Error('KMS is unavailable');
      return keys.secretBox.seal(plaintext, context);
    },
    open: (sealed, context) => keys.secretBox.open(sealed, context),
  };
  let mailbox: LambdaHandler | undefined;
  // The public callback's throttle (5/s, burst 10) is not what this file tests, and it calls the callback
  // dozens of times in a row: the server's clock moves a second per reading, so its bucket is never empty.
  let seconds = 0;
  api = await startServer({
    now: () => Date.now() + ++seconds * 1000,
    loadHandler: async (group) => {
      if (group !== 'mailbox') return importHandler(group, stackConfig());
      mailbox ??= makeHandler({
        profiles: new DynamoProfileStore(db, tableName),
        mailboxes: new DynamoMailboxStore(db, tableName),
        oauthStates: new DynamoOAuthStateStore(db, tableName),
        oauthStateKey: keys.oauthStateKey,
        mailboxAuth,
        secrets,
        clock: { now: () => new Date(Date.now() + clockOffsetMs) },
        sending: { appUrl: api.url },
      }) as LambdaHandler;
      return mailbox;
    },
  });
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when beforeAll failed before setting it
  await api?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when beforeAll failed before setting it
  await new Promise((resolve) => consentServer?.close(resolve));
});

/** A request to the test's server, recorded; `redirect: manual` so every hop is seen. */
async function request(url: string, init: RequestInit & { token?: string; cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.cookie) headers.set('cookie', init.cookie);
  const response = await fetch(url.startsWith('http') ? url : `${api.url}${url}`, { ...init, headers, redirect: 'manual' });
  const text = await response.text();
  responseTexts.push(text, JSON.stringify([...response.headers]));
  return { status: response.status, headers: response.headers, text };
}

interface Started {
  authUrl: string;
  state: string;
  redirectUri: string;
  /** `name=value` of the consent cookie, as the browser would send it back. */
  cookie: string;
  setCookie: string;
}

async function startConnect(user: TestUser): Promise<Started> {
  const response = await request('/api/mailbox/connect', { method: 'POST', token: user.idToken });
  expect(response.status, response.text).toBe(200);
  const { authUrl } = JSON.parse(response.text) as { authUrl: string };
  const setCookie = response.headers.getSetCookie().find((c) => c.startsWith(`${CONSENT_COOKIE}=`))!;
  expect(setCookie).toBeDefined();
  const url = new URL(authUrl);
  return { authUrl, state: url.searchParams.get('state')!, redirectUri: url.searchParams.get('redirect_uri')!, cookie: setCookie.split(';')[0]!, setCookie };
}

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&');

/** The person on the consent page: opens it, then Allow (as `email`, Workspace or not) or Deny. Returns the callback URL. */
async function consent(started: Started, choice: { decision: 'allow' | 'deny'; email?: string; workspace?: boolean }): Promise<string> {
  const page = await request(started.authUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(page.text).toContain('Connect a test mailbox');
  const form = new URLSearchParams({ state: hidden(page.text, 'state')!, redirect_uri: hidden(page.text, 'redirect_uri')!, decision: choice.decision });
  form.set('email', choice.email ?? 'artist@local.test');
  if (choice.workspace) form.set('workspace', 'true');
  const posted = await request(started.authUrl.split('?')[0]!, {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(posted.status, posted.text).toBe(302);
  const location = posted.headers.get('location')!;
  expect(location.startsWith(`${api.url}/api/mailbox/callback?`)).toBe(true);
  return location;
}

/** The browser arriving at the callback (with the cookie unless told otherwise): where it is sent next. */
async function callback(url: string, cookie: string | undefined) {
  const response = await request(url, cookie ? { cookie } : {});
  expect(response.status, response.text).toBe(302);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(`${api.url}/dashboard/settings`);
  // Every outcome clears the consent cookie.
  expect(response.headers.getSetCookie().some((c) => c.startsWith(`${CONSENT_COOKIE}=;`) && /Max-Age=0/.test(c))).toBe(true);
  return Object.fromEntries(location.searchParams);
}

const errorOf = (code: MailboxErrorCode) => ({ gmail_error: code });

async function profileOf(user: TestUser): Promise<Profile> {
  const response = await call('/api/profile', { token: user.idToken });
  expect(response.status).toBe(200);
  responseTexts.push(response.text);
  return response.json as unknown as Profile;
}

async function storedMailbox(user: TestUser) {
  const { Item } = await dynamodb().doc.send(
    new GetCommand({ TableName: stack().tableName, Key: { PK: key.user(user.sub), SK: key.mailbox() }, ConsistentRead: true }),
  );
  return Item as (Record<string, unknown> & { sealedRefreshToken: string }) | undefined;
}

/** A state re-signed with changed claims (possible only with the key: what a forger cannot do). */
async function resigned(state: string, change: (claims: { u: string; n: string; e: number }) => { u: string; n: string; e: number }) {
  const claims = change(JSON.parse(Buffer.from(state.split('.')[0]!, 'base64url').toString()) as { u: string; n: string; e: number });
  return signOAuthState({ userId: claims.u, nonce: claims.n, expiresAt: claims.e }, await keys.oauthStateKey.key());
}

const withState = (callbackUrl: string, state: string) => {
  const url = new URL(callbackUrl);
  url.searchParams.set('state', state);
  return url.toString();
};

describe('mailbox connection round trip (local consent page)', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  it('connect → consent page → callback: the profile shows the Workspace mailbox with a 2000 daily limit', async () => {
    const started = await startConnect(user);
    expect(started.authUrl.startsWith(consentUrl)).toBe(true);
    expect(started.redirectUri).toBe(`${api.url}/api/mailbox/callback`);
    const attributes = started.setCookie.split(';').map((part) => part.trim());
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/api/mailbox/callback', 'Max-Age=600']));
    expect(attributes).not.toContain('Secure'); // http://127.0.0.1: a Secure cookie would never come back

    const back = await callback(await consent(started, { decision: 'allow', email: 'Nova@Nova-Records.test', workspace: true }), started.cookie);
    expect(back).toEqual({ gmail_connected: 'true' });
    expect(await profileOf(user)).toMatchObject({
      gmail_connected: true,
      gmail_email: 'nova@nova-records.test',
      gmail_account_type: 'workspace',
      gmail_daily_limit: 2000,
    });
  });

  it('stores the refresh token sealed, bound to the user, and never sends it in any response', async () => {
    const item = await storedMailbox(user);
    expect(item).toMatchObject({ email: 'nova@nova-records.test', accountType: 'workspace', dailyLimit: 2000, connectedAt: anyString() });
    const sealed = item!.sealedRefreshToken;
    expect(sealed).not.toContain(LOCAL_REFRESH_TOKEN_PREFIX);
    const token = await keys.secretBox.open(sealed, { userId: user.sub });
    expect(token.startsWith(LOCAL_REFRESH_TOKEN_PREFIX)).toBe(true);
    await expect(keys.secretBox.open(sealed, { userId: 'someone-else' })).rejects.toThrow();
    await profileOf(user);
    for (const text of responseTexts) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(sealed);
      expect(text).not.toContain(LOCAL_REFRESH_TOKEN_PREFIX);
    }
  });

  it('reconnecting with a personal account replaces the mailbox: 500 a day', async () => {
    const before = (await storedMailbox(user))!.sealedRefreshToken;
    const started = await startConnect(user);
    expect(await callback(await consent(started, { decision: 'allow', email: 'me@gmail.test' }), started.cookie)).toEqual({ gmail_connected: 'true' });
    expect(await profileOf(user)).toMatchObject({ gmail_connected: true, gmail_email: 'me@gmail.test', gmail_account_type: 'free', gmail_daily_limit: 500 });
    expect((await storedMailbox(user))!.sealedRefreshToken).not.toBe(before);
  });

  it('a used state is refused the second time (single use), even with its cookie and a fresh code', async () => {
    const started = await startConnect(user);
    const callbackUrl = await consent(started, { decision: 'allow', email: 'first@gmail.test' });
    expect(await callback(callbackUrl, started.cookie)).toEqual({ gmail_connected: 'true' });
    expect(await callback(callbackUrl, started.cookie)).toEqual(errorOf('invalid_callback'));
    const again = await consent(started, { decision: 'allow', email: 'replayed@gmail.test' });
    expect(await callback(again, started.cookie)).toEqual(errorOf('invalid_callback'));
    expect((await profileOf(user)).gmail_email).toBe('first@gmail.test');
  });

  it('disconnect: 204, the profile says disconnected, the mailbox is deleted and its token revoked; again: 204', async () => {
    const sealed = (await storedMailbox(user))!.sealedRefreshToken;
    const token = await keys.secretBox.open(sealed, { userId: user.sub });
    const response = await request('/api/mailbox', { method: 'DELETE', token: user.idToken });
    expect(response.status).toBe(204);
    expect(revoked).toContain(token);
    expect(await profileOf(user)).toMatchObject({ gmail_connected: false, gmail_email: null, gmail_account_type: 'free', gmail_daily_limit: 500 });
    expect(await storedMailbox(user)).toBeUndefined();
    expect((await request('/api/mailbox', { method: 'DELETE', token: user.idToken })).status).toBe(204);
  });

  it('connect and disconnect need a signed-in user', async () => {
    expect((await request('/api/mailbox/connect', { method: 'POST' })).status).toBe(401);
    expect((await request('/api/mailbox', { method: 'DELETE' })).status).toBe(401);
  });
});

describe('every gmail_error code', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  it('access_denied: Deny on the consent page; the state is used up', async () => {
    const started = await startConnect(user);
    expect(await callback(await consent(started, { decision: 'deny' }), started.cookie)).toEqual(errorOf('access_denied'));
    expect(await callback(await consent(started, { decision: 'allow' }), started.cookie)).toEqual(errorOf('invalid_callback'));
  });

  it('invalid_callback: no code, no state, or neither', async () => {
    const started = await startConnect(user);
    const callbackUrl = new URL(await consent(started, { decision: 'allow' }));
    for (const drop of [['code'], ['state'], ['code', 'state']]) {
      const url = new URL(callbackUrl);
      for (const name of drop) url.searchParams.delete(name);
      expect(await callback(url.toString(), started.cookie), drop.join('+')).toEqual(errorOf('invalid_callback'));
    }
    // None of those used the state up.
    expect(await callback(callbackUrl.toString(), started.cookie)).toEqual({ gmail_connected: 'true' });
  });

  it('invalid_callback: a tampered state (changed payload or signature, or garbage)', async () => {
    const started = await startConnect(user);
    const callbackUrl = await consent(started, { decision: 'allow' });
    const [payload, signature] = started.state.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { e: number };
    const later = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 86_400_000 })).toString('base64url');
    for (const tampered of [`${later}.${signature}`, `${payload}.${signature.slice(0, -2)}AA`, 'garbage', `${payload}.${signature}.x`]) {
      expect(await callback(withState(callbackUrl, tampered), started.cookie), tampered).toEqual(errorOf('invalid_callback'));
    }
  });

  it('invalid_callback: the cookie of the browser that started the consent is missing or another one', async () => {
    const started = await startConnect(user);
    const other = await startConnect(user);
    const callbackUrl = await consent(started, { decision: 'allow' });
    expect(await callback(callbackUrl, undefined)).toEqual(errorOf('invalid_callback'));
    expect(await callback(callbackUrl, other.cookie)).toEqual(errorOf('invalid_callback'));
    expect(await callback(callbackUrl, `${CONSENT_COOKIE}=`)).toEqual(errorOf('invalid_callback'));
  });

  it('invalid_callback: an expired state (after ten minutes)', async () => {
    const started = await startConnect(user);
    const callbackUrl = await consent(started, { decision: 'allow' });
    clockOffsetMs = 10 * 60_000 + 1000;
    try {
      expect(await callback(callbackUrl, started.cookie)).toEqual(errorOf('invalid_callback'));
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('token_exchange_failed: the provider refuses the code', async () => {
    const started = await startConnect(user);
    const url = new URL(await consent(started, { decision: 'allow' }));
    url.searchParams.set('code', 'not-a-code-the-mailbox-issued');
    expect(await callback(url.toString(), started.cookie)).toEqual(errorOf('token_exchange_failed'));
  });

  it('save_failed: sealing fails; nothing is stored and the grant is given back', async () => {
    const before = await profileOf(user);
    const started = await startConnect(user);
    const callbackUrl = await consent(started, { decision: 'allow', email: 'never-saved@gmail.test' });
    const revokedBefore = revoked.length;
    sealFails = true;
    try {
      expect(await callback(callbackUrl, started.cookie)).toEqual(errorOf('save_failed'));
    } finally {
      sealFails = false;
    }
    expect(revoked.length).toBe(revokedBefore + 1);
    const after = await profileOf(user);
    expect(after.gmail_email).toBe(before.gmail_email);
    expect(after.gmail_email).not.toBe('never-saved@gmail.test');
  });
});

describe('the state is bound to its user', () => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([createUser(), createUser()]);
  });

  it("a state of another user's consent, opened in this browser, is refused and connects nobody", async () => {
    const bobs = await startConnect(bob);
    const alices = await startConnect(alice);
    // Bob's consent link lands in Alice's browser (Alice's cookie): refused, and Bob's state is not used up.
    const bobsCallback = await consent(bobs, { decision: 'allow', email: 'alice-mailbox@gmail.test' });
    expect(await callback(bobsCallback, alices.cookie)).toEqual(errorOf('invalid_callback'));
    expect((await profileOf(bob)).gmail_connected).toBe(false);
    expect((await profileOf(alice)).gmail_connected).toBe(false);
  });

  it("a validly signed state that names Alice but carries Bob's nonce is refused (the nonce says whose consent it is)", async () => {
    const bobs = await startConnect(bob);
    const forged = await resigned(bobs.state, (claims) => ({ ...claims, u: alice.sub }));
    const callbackUrl = withState(await consent(bobs, { decision: 'allow', email: 'hijack@gmail.test' }), forged);
    expect(await callback(callbackUrl, bobs.cookie)).toEqual(errorOf('invalid_callback'));
    expect((await profileOf(alice)).gmail_connected).toBe(false);
    expect((await profileOf(bob)).gmail_connected).toBe(false);
    // The forged attempt used Bob's nonce up: his own state no longer works either.
    expect(await callback(withState(callbackUrl, bobs.state), bobs.cookie)).toEqual(errorOf('invalid_callback'));
  });
});

describe('the local consent page', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  it('refuses a redirect_uri that is not this app’s own callback, on GET and on POST', async () => {
    const started = await startConnect(user);
    for (const evil of ['https://evil.example/api/mailbox/callback', `${api.url}/somewhere-else`, `${api.url}/api/mailbox/callback/../x`, '']) {
      const url = new URL(started.authUrl);
      url.searchParams.set('redirect_uri', evil);
      const page = await request(url.toString());
      expect(page.status, evil).toBe(400);
      expect(page.text).not.toContain('<form');
      const form = new URLSearchParams({ state: started.state, redirect_uri: evil, decision: 'allow', email: 'a@b.test' });
      const posted = await request(consentUrl, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(posted.status, evil).toBe(400);
      expect(posted.headers.get('location')).toBeNull();
    }
  });

  it('refuses a form posted from another site, and asks again for an address that is not one', async () => {
    const started = await startConnect(user);
    const form = new URLSearchParams({ state: started.state, redirect_uri: started.redirectUri, decision: 'allow', email: 'artist@local.test' });
    const foreign = await request(consentUrl, {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    form.set('email', 'not an address');
    const invalid = await request(consentUrl, {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.url },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('aria-invalid="true"');
    expect(invalid.text).toContain('role="alert"');
    // The app's email rule: an address that looks right but holds an invisible character is named as such.
    form.set('email', 'artist\u200b@local.test');
    const invisible = await request(consentUrl, {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.url },
    });
    expect(invisible.status).toBe(400);
    expect(invisible.headers.get('location')).toBeNull();
    expect(invisible.text).toContain('Email contains an invisible or control character.');
  });

  it('escapes what it echoes and forbids scripts and framing', async () => {
    const started = await startConnect(user);
    const url = new URL(started.authUrl);
    url.searchParams.set('state', '"><script>alert(1)</script>');
    const page = await request(url.toString());
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.text).toMatch(/<label for="email">/);
    expect(page.text).toContain('Google Workspace account');
  });
});

describe('the local stack as `npm start` runs it (its own mailbox wiring, the consent page served by the app itself)', () => {
  it('connects a Workspace mailbox through /local/mailbox/consent on the app origin', async () => {
    const user = await createUser();
    const base = stack().appUrl;
    const started = await request(`${base}/api/mailbox/connect`, { method: 'POST', token: user.idToken });
    expect(started.status, started.text).toBe(200);
    const { authUrl } = JSON.parse(started.text) as { authUrl: string };
    expect(authUrl.startsWith(`${base}${MAILBOX_CONSENT_PATH}?`)).toBe(true);
    const cookie = started.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${CONSENT_COOKIE}=`))!
      .split(';')[0]!;

    const page = await request(authUrl);
    expect(page.status).toBe(200);
    const form = new URLSearchParams({
      state: hidden(page.text, 'state')!,
      redirect_uri: hidden(page.text, 'redirect_uri')!,
      decision: 'allow',
      email: 'dj@studio.test',
      workspace: 'true',
    });
    // The form as a browser posts it from the page: the app's own origin.
    const posted = await request(`${base}${MAILBOX_CONSENT_PATH}`, {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    });
    expect(posted.status, posted.text).toBe(302);
    const back = await request(posted.headers.get('location')!, { cookie });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(`${base}/dashboard/settings?gmail_connected=true`);
    expect(await profileOf(user)).toMatchObject({
      gmail_connected: true,
      gmail_email: 'dj@studio.test',
      gmail_account_type: 'workspace',
      gmail_daily_limit: 2000,
    });
    for (const text of responseTexts) expect(text).not.toContain(LOCAL_REFRESH_TOKEN_PREFIX);
  });
});

describe('a deployment without Google (the default in AWS: googleClientId unset)', () => {
  it("connect answers 503 not_configured with 'Gmail sending is not configured on this deployment', not a 500", async () => {
    // The Gmail composition as a Lambda builds it without GOOGLE_CLIENT_ID; only the OAuth state key is
    // the local one (the stack always sets OAUTH_STATE_SECRET_NAME; here it would mean Secrets Manager).
    const handler = makeHandler({ ...mailboxDeps({ ...stackConfig(), mailbox: 'gmail' }), oauthStateKey: keys.oauthStateKey }) as LambdaHandler;
    const server = await startServerServing('mailbox', handler);
    try {
      const user = await createUser();
      const response = await callAt(server.url)('/api/mailbox/connect', { method: 'POST', token: user.idToken });
      expect(response.status, response.text).toBe(503);
      expect(response.json).toEqual({ message: mailboxMessages.notConfigured, code: NOT_CONFIGURED });
      expect(mailboxMessages.notConfigured).toBe(
        'Gmail sending is not configured on this deployment: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET_NAME are not set (see docs/deploy.md: Gmail sending).',
      );
      expect(await profileOf(user)).toMatchObject({ gmail_connected: false });
    } finally {
      await server.close();
    }
  });
});
