/**
 * The Gmail mailer (lambdas/adapters/gmail): what it hands users.messages.send (userId 'me', the MIME as
 * base64url, no retries of a POST that may have been delivered), the OAuth client it authorizes with,
 * and how each Google failure becomes the MailerError kind the sender acts on. The errors are built the
 * way gaxios builds them (GaxiosError + its AIP-193 extraction), and a second suite runs the real
 * googleapis client against a local HTTP server standing in for Google, so the shapes are the libraries'.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gmail as realGmailApi } from 'googleapis/build/src/apis/gmail/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  classifyGmailError,
  GmailMailer,
  type GmailClientFactory,
  type GmailOAuthClient,
  type GmailSendClient,
} from '../../lambdas/adapters/gmail/gmailMailer';
import { MailerError, type MailerFailure } from '../../lambdas/core/errors';
import { fakeTokenRefresh, gaxiosHttpError, gaxiosNetworkError, gaxiosTimeout, gmailErrorBody, TOKEN_URL } from '../fakes/googleErrors';
import { sampleEmail } from '../fakes/outbox';
import { parseMime } from '../support/mime';

const credentials = { refreshToken: '1//refresh-token-of-nova', mailboxEmail: 'nova@gmail.com' };
const googleClient = { clientId: 'client-id.apps.googleusercontent.com', clientSecret: vi.fn(() => Promise.resolve('client-secret')) };

/**
 * A fake Gmail client whose send answers with `answer`, the OAuth clients it was built with, and their
 * token refreshes (answered by `token` instead of Google's token endpoint).
 */
function fakeGmail(
  answer: () => Promise<{ data: { id?: string | null } }>,
  options: { token?: () => Promise<{ token: string }>; client?: typeof googleClient } = {},
) {
  const send = vi.fn<GmailSendClient['users']['messages']['send']>(answer);
  const auths: GmailOAuthClient[] = [];
  const refreshes: ReturnType<typeof fakeTokenRefresh>[] = [];
  const factory: GmailClientFactory = (auth) => {
    auths.push(auth);
    refreshes.push(fakeTokenRefresh(auth, options.token));
    return { users: { messages: { send } } };
  };
  return { send, auths, refreshes, mailer: new GmailMailer(options.client ?? googleClient, factory) };
}

describe('sending through users.messages.send', () => {
  it("sends the MIME as unpadded base64url for userId 'me', once, without library retries, and returns Gmail's id and thread", async () => {
    const { send, mailer } = fakeGmail(() => Promise.resolve({ data: { id: '18c2f0a9d1e2b3c4', threadId: '18c2f0a9d1e2b3c4' } }));
    const email = sampleEmail();
    await expect(mailer.send(email, credentials)).resolves.toEqual({ providerMessageId: '18c2f0a9d1e2b3c4', threadId: '18c2f0a9d1e2b3c4' });
    expect(send).toHaveBeenCalledTimes(1);
    const [params, options] = send.mock.calls[0]!;
    expect(params.userId).toBe('me');
    // A first email names no thread: Gmail starts one.
    expect(params.requestBody).not.toHaveProperty('threadId');
    expect(params.requestBody.raw).toMatch(/^[A-Za-z0-9_-]+$/);
    const message = parseMime(Buffer.from(params.requestBody.raw, 'base64url'));
    expect(message.header('Message-ID')).toBe(email.messageId);
    expect(message.header('List-Unsubscribe')).toBe(`<${email.listUnsubscribeUrl}>`);
    expect(message.parts.map((part) => part.header('Content-Type'))).toEqual(['text/plain; charset=utf-8', 'text/html; charset=utf-8']);
    expect(options?.retry).toBe(false);
  });

  it("a reply names the first email's thread in the request body and the first Message-ID in its headers", async () => {
    const { send, mailer } = fakeGmail(() => Promise.resolve({ data: { id: '18c2f0a9d1e2ffff', threadId: '18c2f0a9d1e2b3c4' } }));
    const email = sampleEmail({
      subject: 'Re: New track',
      messageId: '<01KAKZ3R00000000000000000A.3.bbbbbbbb@trackpitch>',
      replyTo: { threadId: '18c2f0a9d1e2b3c4', inReplyTo: '<01KAKZ3R00000000000000000A.3.aaaaaaaa@trackpitch>' },
    });
    await expect(mailer.send(email, credentials)).resolves.toEqual({ providerMessageId: '18c2f0a9d1e2ffff', threadId: '18c2f0a9d1e2b3c4' });
    const [params] = send.mock.calls[0]!;
    expect(params.requestBody.threadId).toBe('18c2f0a9d1e2b3c4');
    const message = parseMime(Buffer.from(params.requestBody.raw, 'base64url'));
    expect(message.header('Subject')).toBe('Re: New track');
    expect(message.header('In-Reply-To')).toBe('<01KAKZ3R00000000000000000A.3.aaaaaaaa@trackpitch>');
    expect(message.header('References')).toBe('<01KAKZ3R00000000000000000A.3.aaaaaaaa@trackpitch>');
  });

  it('an answer without a threadId is a thread of its own (a new thread’s id is its first message’s)', async () => {
    const { mailer } = fakeGmail(() => Promise.resolve({ data: { id: 'm9', threadId: null } }));
    await expect(mailer.send(sampleEmail(), credentials)).resolves.toEqual({ providerMessageId: 'm9', threadId: 'm9' });
  });

  it('authorizes with the app’s client id and secret and the mailbox’s refresh token, reusing the client for that token', async () => {
    const { auths, mailer } = fakeGmail(() => Promise.resolve({ data: { id: 'm1' } }));
    await mailer.send(sampleEmail(), credentials);
    await mailer.send(sampleEmail(), credentials);
    expect(auths).toHaveLength(1);
    expect(auths[0]!.credentials).toEqual({ refresh_token: credentials.refreshToken });
    expect(auths[0]!._clientId).toBe(googleClient.clientId);
    expect(auths[0]!._clientSecret).toBe('client-secret');
    await mailer.send(sampleEmail(), { ...credentials, refreshToken: 'another-token' });
    expect(auths).toHaveLength(2);
    expect(auths[1]!.credentials.refresh_token).toBe('another-token');
  });

  it('an answer without a message id is an unknown outcome (not a MailerError): Gmail may have sent it', async () => {
    const { mailer } = fakeGmail(() => Promise.resolve({ data: {} }));
    const error = await mailer.send(sampleEmail(), credentials).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(MailerError);
  });

  it('refuses an email it cannot build before calling Gmail', async () => {
    const { send, mailer } = fakeGmail(() => Promise.resolve({ data: { id: 'm1' } }));
    const error = await mailer.send(sampleEmail({ to: { name: null, email: 'not-an-address' } }), credentials).catch((caught: unknown) => caught);
    expect((error as MailerError).kind).toBe('rejected');
    expect(send).not.toHaveBeenCalled();
  });
});

describe('Google failures as MailerError kinds', () => {
  const cases: [string, MailerFailure, () => Error][] = [
    [
      'invalid_grant from the token endpoint',
      'auth',
      () => gaxiosHttpError(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }, TOKEN_URL),
    ],
    ['401 Unauthorized', 'auth', () => gaxiosHttpError(401, gmailErrorBody(401, 'authError', 'Invalid Credentials'))],
    [
      '403 insufficientPermissions (no gmail.send scope)',
      'auth',
      () => gaxiosHttpError(403, gmailErrorBody(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.')),
    ],
    [
      '429 Too Many Requests',
      'rate_limited',
      () => gaxiosHttpError(429, gmailErrorBody(429, 'rateLimitExceeded', 'User-rate limit exceeded.  Retry after 2025-03-09T10:31:00.000Z')),
    ],
    ['403 rateLimitExceeded', 'rate_limited', () => gaxiosHttpError(403, gmailErrorBody(403, 'rateLimitExceeded', 'Rate Limit Exceeded'))],
    ['403 userRateLimitExceeded', 'rate_limited', () => gaxiosHttpError(403, gmailErrorBody(403, 'userRateLimitExceeded', 'User Rate Limit Exceeded'))],
    ['403 dailyLimitExceeded', 'daily_limit', () => gaxiosHttpError(403, gmailErrorBody(403, 'dailyLimitExceeded', 'Daily Limit Exceeded'))],
    [
      "429 'Daily user sending limit exceeded'",
      'daily_limit',
      () => gaxiosHttpError(429, gmailErrorBody(429, 'rateLimitExceeded', 'Daily user sending limit exceeded.')),
    ],
    [
      "400 'Daily Gmail sending limit reached'",
      'daily_limit',
      () => gaxiosHttpError(400, gmailErrorBody(400, 'failedPrecondition', 'Daily Gmail sending limit reached')),
    ],
    ['500 Internal Server Error', 'transient', () => gaxiosHttpError(500, gmailErrorBody(500, 'backendError', 'Backend Error'))],
    ['503 Service Unavailable', 'transient', () => gaxiosHttpError(503, 'Service Unavailable')],
    ['ECONNREFUSED before any response', 'transient', () => gaxiosNetworkError('ECONNREFUSED')],
    ['400 Invalid To header', 'rejected', () => gaxiosHttpError(400, gmailErrorBody(400, 'invalidArgument', 'Invalid To header'))],
    [
      'invalid_client of our own OAuth client (nothing sent, not the artist’s fault)',
      'transient',
      () => gaxiosHttpError(401, { error: 'invalid_client', error_description: 'Unauthorized' }, TOKEN_URL),
    ],
  ];

  it.each(cases)('%s → %s', async (_, kind, makeError) => {
    const cause = makeError();
    const { mailer } = fakeGmail(() => Promise.reject(cause));
    const error = await mailer.send(sampleEmail(), credentials).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailerError);
    expect(error).toMatchObject({ kind, cause });
  });

  it.each([
    ['a timeout after the request left (TimeoutError)', gaxiosTimeout],
    ['a connection reset (Gmail may have taken the message)', () => gaxiosNetworkError('ECONNRESET')],
    ['a socket timeout (Gmail may have taken the message)', () => gaxiosNetworkError('ETIMEDOUT')],
    ['a plain programming error', () => new TypeError('boom')],
  ])('rethrows %s untouched: the outcome is unknown', async (_, makeError) => {
    const cause = makeError();
    const { mailer } = fakeGmail(async () => Promise.reject(cause));
    await expect(mailer.send(sampleEmail(), credentials)).rejects.toBe(cause);
    expect(classifyGmailError(cause)).toBeUndefined();
  });

  it('after an auth failure, the next send authorizes afresh', async () => {
    let fail = true;
    const { auths, mailer } = fakeGmail(() => {
      if (fail) return Promise.reject(gaxiosHttpError(400, { error: 'invalid_grant' }, TOKEN_URL));
      return Promise.resolve({ data: { id: 'm2' } });
    });
    await expect(mailer.send(sampleEmail(), credentials)).rejects.toMatchObject({ kind: 'auth' });
    fail = false;
    await expect(mailer.send(sampleEmail(), credentials)).resolves.toEqual({ providerMessageId: 'm2', threadId: 'm2' });
    expect(auths).toHaveLength(2);
  });
});

describe('failures before the send request leaves: a retry, never an unknown outcome (DESIGN §13)', () => {
  it.each<[string, () => Error]>([
    ['a connection reset', () => gaxiosNetworkError('ECONNRESET', TOKEN_URL)],
    ['a timeout', () => gaxiosTimeout(TOKEN_URL)],
    ['a socket timeout', () => gaxiosNetworkError('ETIMEDOUT', TOKEN_URL)],
    ['a 503', () => gaxiosHttpError(503, 'Service Unavailable', TOKEN_URL)],
  ])('%s of the token refresh is transient, and Gmail is not called', async (_, makeError) => {
    const cause = makeError();
    const { send, mailer } = fakeGmail(() => Promise.resolve({ data: { id: 'never' } }), { token: () => Promise.reject(cause) });
    const error = await mailer.send(sampleEmail(), credentials).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailerError);
    expect(error).toMatchObject({ kind: 'transient', cause });
    expect(send).not.toHaveBeenCalled();
  });

  it('the same reset of the send request itself stays an unknown outcome', async () => {
    const cause = gaxiosNetworkError('ECONNRESET');
    const { mailer } = fakeGmail(() => Promise.reject(cause));
    await expect(mailer.send(sampleEmail(), credentials)).rejects.toBe(cause);
  });

  it('a failed read of the client secret (Secrets Manager) is transient, and the next send reads it again', async () => {
    const cause = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } });
    const clientSecret = vi.fn<() => Promise<string>>().mockRejectedValueOnce(cause).mockResolvedValue('client-secret');
    const { send, auths, mailer } = fakeGmail(() => Promise.resolve({ data: { id: 'm1' } }), { client: { clientId: googleClient.clientId, clientSecret } });
    const error = await mailer.send(sampleEmail(), credentials).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailerError);
    expect(error).toMatchObject({ kind: 'transient', cause });
    expect(send).not.toHaveBeenCalled();
    await expect(mailer.send(sampleEmail(), credentials)).resolves.toEqual({ providerMessageId: 'm1', threadId: 'm1' });
    expect(clientSecret).toHaveBeenCalledTimes(2);
    expect(auths).toHaveLength(1);
  });

  it('invalid_grant from the token refresh is auth, Gmail is not called, and the next send authorizes afresh', async () => {
    let refused = true;
    const { send, auths, mailer } = fakeGmail(() => Promise.resolve({ data: { id: 'm2' } }), {
      token: () => (refused ? Promise.reject(gaxiosHttpError(400, { error: 'invalid_grant' }, TOKEN_URL)) : Promise.resolve({ token: 'ya29.new' })),
    });
    await expect(mailer.send(sampleEmail(), credentials)).rejects.toMatchObject({ kind: 'auth' });
    expect(send).not.toHaveBeenCalled();
    refused = false;
    await expect(mailer.send(sampleEmail(), credentials)).resolves.toEqual({ providerMessageId: 'm2', threadId: 'm2' });
    expect(auths).toHaveLength(2);
  });

  it('asks the OAuth client for its access token before each send request', async () => {
    const { send, refreshes, mailer } = fakeGmail(() => Promise.resolve({ data: { id: 'm3' } }));
    await mailer.send(sampleEmail(), credentials);
    await mailer.send(sampleEmail(), credentials);
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toHaveBeenCalledTimes(2);
    expect(refreshes[0]!.mock.invocationCallOrder[1]).toBeLessThan(send.mock.invocationCallOrder[1]!);
  });
});

describe('the real googleapis client against a local stand-in for Google', () => {
  /** What the stand-in answers: by the request's path ('reset': the connection is dropped without an answer). */
  let answer: (request: IncomingMessage, body: string) => { status: number; json: unknown } | 'reset';
  const requests: { path: string; body: string; authorization: string | undefined }[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        requests.push({ path: request.url ?? '', body, authorization: request.headers.authorization });
        const answered = answer(request, body);
        if (answered === 'reset') {
          request.socket.destroy();
          return;
        }
        response.writeHead(answered.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answered.json));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The production factory's client, pointed at the stand-in (token endpoint and Gmail). */
  const localGoogle: GmailClientFactory = (auth) => {
    Object.assign(auth, { endpoints: { ...auth.endpoints, oauth2TokenUrl: `${base}/token` } });
    return realGmailApi({ version: 'v1', auth, rootUrl: `${base}/` });
  };

  const tokenOk = {
    status: 200,
    json: { access_token: 'ya29.local', expires_in: 3599, token_type: 'Bearer', scope: 'https://www.googleapis.com/auth/gmail.send' },
  };

  async function sendWith(gmailAnswer: { status: number; json: unknown }, token: { status: number; json: unknown } | 'reset' = tokenOk) {
    requests.length = 0;
    answer = (request) => (request.url?.startsWith('/token') ? token : gmailAnswer);
    const mailer = new GmailMailer(googleClient, localGoogle);
    return mailer.send(sampleEmail(), credentials).catch((caught: unknown) => caught);
  }

  it('refreshes the access token, then POSTs the raw message to users/me/messages/send', async () => {
    const result = await sendWith({ status: 200, json: { id: '18c2f0a9d1e2b3c4', threadId: '18c2', labelIds: ['SENT'] } });
    expect(result).toEqual({ providerMessageId: '18c2f0a9d1e2b3c4', threadId: '18c2' });
    expect(requests.map((r) => r.path)).toEqual(['/token', '/gmail/v1/users/me/messages/send']);
    expect(new URLSearchParams(requests[0]!.body).get('refresh_token')).toBe(credentials.refreshToken);
    expect(new URLSearchParams(requests[0]!.body).get('grant_type')).toBe('refresh_token');
    expect(requests[1]!.authorization).toBe('Bearer ya29.local');
    const raw = (JSON.parse(requests[1]!.body) as { raw: string }).raw;
    expect(parseMime(Buffer.from(raw, 'base64url')).header('Message-ID')).toBe(sampleEmail().messageId);
  });

  it.each<[string, { status: number; json: unknown }, MailerFailure]>([
    ['429', { status: 429, json: gmailErrorBody(429, 'rateLimitExceeded', 'User-rate limit exceeded.') }, 'rate_limited'],
    ['403 dailyLimitExceeded', { status: 403, json: gmailErrorBody(403, 'dailyLimitExceeded', 'Daily Limit Exceeded') }, 'daily_limit'],
    ['400 Invalid To header', { status: 400, json: gmailErrorBody(400, 'invalidArgument', 'Invalid To header') }, 'rejected'],
    ['500', { status: 500, json: gmailErrorBody(500, 'backendError', 'Backend Error') }, 'transient'],
  ])('maps a real %s from Gmail, sent once (no retry of the POST)', async (_, gmailAnswer, kind) => {
    const error = await sendWith(gmailAnswer);
    expect(error).toBeInstanceOf(MailerError);
    expect((error as MailerError).kind).toBe(kind);
    expect(requests.filter((r) => r.path.includes('/messages/send'))).toHaveLength(1);
  });

  it('maps a real invalid_grant from the token endpoint to auth, and nothing reaches Gmail', async () => {
    const error = await sendWith(
      { status: 200, json: { id: 'never' } },
      { status: 400, json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } },
    );
    expect(error).toBeInstanceOf(MailerError);
    expect((error as MailerError).kind).toBe('auth');
    expect(requests.some((r) => r.path.includes('/messages/send'))).toBe(false);
  });

  it('maps a connection reset at the token endpoint to transient (retried), and nothing reaches Gmail', async () => {
    const error = await sendWith({ status: 200, json: { id: 'never' } }, 'reset');
    expect(error).toBeInstanceOf(MailerError);
    expect((error as MailerError).kind).toBe('transient');
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.path.startsWith('/token'))).toBe(true);
  });
});
