/**
 * One contract for both Mailers, so the local mailbox a newcomer watches behaves as Gmail does for the
 * sender: GmailMailer over a fake Gmail client, LocalMailer over an in-memory outbox. A send returns the
 * provider's id and delivers the MIME buildMime makes; each failure kind surfaces as a MailerError of that
 * kind with nothing delivered (Gmail: the fake's errors, shaped as Google's; local: `fail.test` addresses).
 */
import { describe, expect, it } from 'vitest';
import { GmailMailer, type GmailSendClient } from '../../lambdas/adapters/gmail/gmailMailer';
import { LocalMailer } from '../../lambdas/adapters/local-mailbox/localMailer';
import { buildMime } from '../../lambdas/adapters/mime/mimeMessage';
import { MailerError, type MailerFailure } from '../../lambdas/core/errors';
import type { Mailer, OutgoingEmail } from '../../lambdas/ports';
import { fakeTokenRefresh, gaxiosHttpError, gmailErrorBody, TOKEN_URL } from '../fakes/googleErrors';
import { memoryOutbox, sampleEmail } from '../fakes/outbox';
import { parseMime, type MimePart } from '../support/mime';

const credentials = { refreshToken: '1//refresh', mailboxEmail: 'nova@gmail.com' };
const now = new Date('2025-03-09T10:30:00.000Z');
const FAILURES: MailerFailure[] = ['rate_limited', 'transient', 'daily_limit', 'auth', 'rejected'];

interface Harness {
  mailer: Mailer;
  /** The raw messages the provider accepted (Gmail) or the outbox holds (local), oldest first. */
  delivered(): Promise<Buffer[]>;
  /** An email this mailer will fail with `kind`. */
  failing(kind: MailerFailure): OutgoingEmail;
}

/** Google's answer for each kind, as gaxios throws it. */
function googleError(kind: MailerFailure): Error {
  switch (kind) {
    case 'rate_limited':
      return gaxiosHttpError(429, gmailErrorBody(429, 'rateLimitExceeded', 'User-rate limit exceeded.'));
    case 'transient':
      return gaxiosHttpError(503, gmailErrorBody(503, 'backendError', 'Backend Error'));
    case 'daily_limit':
      return gaxiosHttpError(429, gmailErrorBody(429, 'rateLimitExceeded', 'Daily user sending limit exceeded.'));
    case 'auth':
      return gaxiosHttpError(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }, TOKEN_URL);
    case 'rejected':
      return gaxiosHttpError(400, gmailErrorBody(400, 'invalidArgument', 'Invalid To header'));
  }
}

function gmailHarness(): Harness {
  const accepted: Buffer[] = [];
  /** The recipient address whose send fails, and how. */
  const failures = new Map<string, MailerFailure>();
  let sequence = 0;
  const client: GmailSendClient = {
    users: {
      messages: {
        send: ({ requestBody }) => {
          const raw = Buffer.from(requestBody.raw, 'base64url');
          const to = parseMime(raw).header('To') ?? '';
          const failure = [...failures].find(([address]) => to.includes(address));
          if (failure) return Promise.reject(googleError(failure[1]));
          accepted.push(raw);
          const id = `gmail-${++sequence}`;
          // As Gmail answers: the thread asked for, else a new thread whose id is the message's.
          return Promise.resolve({ data: { id, threadId: requestBody.threadId ?? id } });
        },
      },
    },
  };
  return {
    mailer: new GmailMailer({ clientId: 'id', clientSecret: () => Promise.resolve('secret') }, (auth) => {
      fakeTokenRefresh(auth);
      return client;
    }),
    delivered: () => Promise.resolve(accepted),
    failing: (kind) => {
      const address = `${kind.replace('_', '-')}@label.example`;
      failures.set(address, kind);
      return sampleEmail({ to: { name: null, email: address } });
    },
  };
}

const localAddress: Record<MailerFailure, string> = {
  rate_limited: 'rate-limited@fail.test',
  transient: 'unavailable@fail.test',
  daily_limit: 'daily-limit@fail.test',
  auth: 'invalid-grant@fail.test',
  rejected: 'rejected@fail.test',
};

function localHarness(): Harness {
  const outbox = memoryOutbox();
  return {
    mailer: new LocalMailer(outbox, { now: () => now }),
    delivered: () => Promise.resolve([...outbox.messages.values()].map(({ message }) => Buffer.from(message.raw, 'utf8'))),
    failing: (kind) => sampleEmail({ to: { name: 'Test', email: localAddress[kind] } }),
  };
}

/** What a receiving system reads, without what differs between two builds (Date, the random boundary). */
function comparable(message: MimePart) {
  return {
    headers: message.headers.filter(([name]) => name !== 'Date' && name !== 'Content-Type'),
    contentType: message.header('Content-Type')?.split(';')[0],
    parts: message.parts.map((part) => ({ headers: part.headers, text: part.text })),
  };
}

describe.each([
  ['GmailMailer (fake Gmail client)', gmailHarness],
  ['LocalMailer (in-memory outbox)', localHarness],
])('%s', (_, makeHarness) => {
  it('returns the provider’s message id and delivers exactly the MIME buildMime makes', async () => {
    const harness = makeHarness();
    const email = sampleEmail();
    const { providerMessageId } = await harness.mailer.send(email, credentials);
    expect(providerMessageId).toEqual(expect.any(String));
    expect(providerMessageId).not.toBe('');
    const delivered = await harness.delivered();
    expect(delivered).toHaveLength(1);
    const expected = await buildMime(email, { date: now });
    expect(comparable(parseMime(delivered[0]!))).toEqual(comparable(parseMime(expected.raw)));
  });

  it('files a first email in a thread of its own and a reply (its thread, "Re:", In-Reply-To) in that thread', async () => {
    const harness = makeHarness();
    const firstEmail = sampleEmail({ subject: 'New track: Night Drive' });
    const first = await harness.mailer.send(firstEmail, credentials);
    expect(first.threadId).toEqual(expect.any(String));
    const reply = sampleEmail({
      subject: 'Re: New track: Night Drive',
      messageId: '<01KAKZ3R00000000000000000A.3.bbbbbbbb@trackpitch.example>',
      replyTo: { threadId: first.threadId, inReplyTo: firstEmail.messageId },
    });
    const second = await harness.mailer.send(reply, credentials);
    expect(second.providerMessageId).not.toBe(first.providerMessageId);
    expect(second.threadId).toBe(first.threadId);
    const [, delivered] = (await harness.delivered()).map((raw) => parseMime(raw));
    expect(delivered!.header('In-Reply-To')).toBe(firstEmail.messageId);
    expect(delivered!.header('References')).toBe(firstEmail.messageId);
    // A later first email starts a thread of its own.
    const third = await harness.mailer.send(sampleEmail({ messageId: '<other@trackpitch.example>' }), credentials);
    expect(third.threadId).not.toBe(first.threadId);
  });

  it('gives each send its own id', async () => {
    const harness = makeHarness();
    const first = await harness.mailer.send(sampleEmail(), credentials);
    const second = await harness.mailer.send(sampleEmail({ messageId: '<other@trackpitch.example>' }), credentials);
    expect(first.providerMessageId).not.toBe(second.providerMessageId);
    expect(await harness.delivered()).toHaveLength(2);
  });

  it.each(FAILURES)('a %s failure is a MailerError of that kind, and nothing is delivered', async (kind) => {
    const harness = makeHarness();
    const error = await harness.mailer.send(harness.failing(kind), credentials).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailerError);
    expect((error as MailerError).kind).toBe(kind);
    expect(await harness.delivered()).toHaveLength(0);
  });

  it('an email that cannot be addressed is rejected before anything is delivered', async () => {
    const harness = makeHarness();
    const error = await harness.mailer
      .send(sampleEmail({ to: { name: null, email: 'a@b.example, c@d.example' } }), credentials)
      .catch((caught: unknown) => caught);
    expect((error as MailerError).kind).toBe('rejected');
    expect(await harness.delivered()).toHaveLength(0);
  });
});

describe('the local mailbox’s outbox entry', () => {
  it('files the message for the email’s user with what the Outbox page shows', async () => {
    const outbox = memoryOutbox();
    const mailer = new LocalMailer(outbox, { now: () => now });
    const email = sampleEmail({ subject: 'Line\r\nbreak', meta: { userId: 'user-7', campaignId: '01KAKZ3R00000000000000000B', position: 0 } });
    const { providerMessageId } = await mailer.send(email, credentials);
    expect(await outbox.list('user-1')).toEqual([]);
    const stored = await outbox.get('user-7', providerMessageId);
    expect(stored).toMatchObject({
      id: providerMessageId,
      sent_at: now.toISOString(),
      from: 'Nova Sørensen <nova@gmail.com>',
      to: 'Calla Morrow <calla@zinc-orchard.example>',
      subject: 'Line break',
      campaign_id: '01KAKZ3R00000000000000000B',
      html: email.html,
      text: email.text,
    });
    const parsed = parseMime(stored!.raw);
    expect(stored!.headers).toEqual(parsed.headers);
    expect(new Date(parsed.header('Date')!).toISOString()).toBe(now.toISOString());
    expect(stored!.headers).toContainEqual(['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click']);
  });

  it('a recipient without a name is listed by address; other fail.test names are rejected', async () => {
    const outbox = memoryOutbox();
    const mailer = new LocalMailer(outbox, { now: () => now });
    const { providerMessageId } = await mailer.send(sampleEmail({ to: { name: null, email: 'demo@label.example' } }), credentials);
    expect((await outbox.get('user-1', providerMessageId))?.to).toBe('demo@label.example');
    await expect(mailer.send(sampleEmail({ to: { name: null, email: 'Nobody@FAIL.test' } }), credentials)).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('a reply joins only a thread of this mailbox with the same subject, as Gmail requires; else it starts its own', async () => {
    const outbox = memoryOutbox();
    const mailer = new LocalMailer(outbox, { now: () => now });
    const first = await mailer.send(sampleEmail({ subject: 'Night Drive' }), credentials);
    const replyTo = { threadId: first.threadId, inReplyTo: sampleEmail().messageId };
    const joined = await mailer.send(sampleEmail({ subject: 'RE: night drive', replyTo }), credentials);
    expect(joined.threadId).toBe(first.threadId);
    expect((await outbox.get('user-1', joined.providerMessageId))?.thread_id).toBe(first.threadId);

    const otherSubject = await mailer.send(sampleEmail({ subject: 'Re: Something else', replyTo }), credentials);
    expect(otherSubject.threadId).toBe(otherSubject.providerMessageId);
    const otherUser = await mailer.send(
      sampleEmail({ subject: 'Re: Night Drive', replyTo, meta: { userId: 'user-2', campaignId: '01KAKZ3R00000000000000000A', position: 3 } }),
      credentials,
    );
    expect(otherUser.threadId).toBe(otherUser.providerMessageId);
    const unknownThread = await mailer.send(sampleEmail({ subject: 'Re: Night Drive', replyTo: { ...replyTo, threadId: 'not-a-thread' } }), credentials);
    expect(unknownThread.threadId).toBe(unknownThread.providerMessageId);
    expect((await outbox.list('user-1')).map((message) => message.thread_id)).toEqual([
      unknownThread.providerMessageId,
      otherSubject.providerMessageId,
      first.threadId,
      first.threadId,
    ]);
  });

  it('timeout@fail.test answers nothing: a plain error (unknown outcome), nothing filed', async () => {
    const outbox = memoryOutbox();
    const mailer = new LocalMailer(outbox, { now: () => now });
    const error = await mailer.send(sampleEmail({ to: { name: null, email: 'timeout@fail.test' } }), credentials).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(MailerError);
    expect(outbox.messages.size).toBe(0);
  });
});
