/**
 * The MIME both mailers send (lambdas/adapters/mime): parsed back to check what a receiving mail system
 * reads — the encoded subject and From name, both alternatives, Message-ID and Date, the RFC 8058
 * one-click headers — and that a subject or name cannot add a header of its own.
 */
import { describe, expect, it } from 'vitest';
import { buildMime } from '../../lambdas/adapters/mime/mimeMessage';
import { MailerError } from '../../lambdas/core/errors';
import { sampleEmail } from '../fakes/outbox';
import { decodeWords, parseMime } from '../support/mime';

const date = new Date('2025-03-09T10:30:00.000Z');

async function built(overrides: Parameters<typeof sampleEmail>[0] = {}) {
  const { raw, headers } = await buildMime(sampleEmail(overrides), { date });
  return { raw, headers, message: parseMime(raw) };
}

describe('buildMime', () => {
  it('encodes a non-ASCII subject and the artist’s name as UTF-8 encoded words, ASCII on the wire', async () => {
    const { raw, message } = await built();
    expect([...raw].every((byte) => byte < 128)).toBe(true);
    expect(message.header('Subject')).toMatch(/^=\?UTF-8\?[QB]\?/i);
    expect(decodeWords(message.header('Subject')!)).toBe('New track: “Ünder the Bridge” (Extended Mix)');
    const from = message.header('From')!;
    expect(from).toMatch(/<nova@gmail\.com>$/);
    expect(decodeWords(from)).toBe('Nova Sørensen <nova@gmail.com>');
    expect(decodeWords(message.header('To')!)).toBe('Calla Morrow <calla@zinc-orchard.example>');
  });

  it('addresses the recipient alone when the contact has no name, and never with Cc or Bcc', async () => {
    const { message } = await built({ to: { name: null, email: 'demo@label.example' } });
    expect(message.header('To')).toBe('demo@label.example');
    expect(message.all('Cc')).toEqual([]);
    expect(message.all('Bcc')).toEqual([]);
  });

  it('is multipart/alternative: the plain text first, then the HTML, both UTF-8', async () => {
    const { message } = await built({ text: 'Grüße — plain', html: '<p>Grüße — <b>html</b></p>' });
    expect(message.header('MIME-Version')).toBe('1.0');
    expect(message.header('Content-Type')).toMatch(/^multipart\/alternative;\s*boundary=/);
    expect(message.parts).toHaveLength(2);
    const [plain, html] = message.parts;
    expect(plain!.header('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(plain!.text).toBe('Grüße — plain');
    expect(html!.header('Content-Type')).toBe('text/html; charset=utf-8');
    expect(html!.text).toBe('<p>Grüße — <b>html</b></p>');
  });

  it('keeps long HTML lines intact through quoted-printable (links and the pixel survive)', async () => {
    const email = sampleEmail();
    const { message } = await built();
    expect(message.parts[1]!.text).toBe(email.html);
    // Line ends travel as CRLF, as MIME requires of text parts.
    expect(message.parts[0]!.text).toBe(email.text.replace(/\n/g, '\r\n'));
  });

  it('a reply names the first email in In-Reply-To and References; a first email has neither', async () => {
    const first = await built();
    expect(first.message.all('In-Reply-To')).toEqual([]);
    expect(first.message.all('References')).toEqual([]);
    const { message } = await built({
      subject: 'Re: New track',
      messageId: '<01KAKZ3R00000000000000000A.3.bbbbbbbb@trackpitch>',
      replyTo: { threadId: '18c2f0a9d1e2b3c4', inReplyTo: '<01KAKZ3R00000000000000000A.3.aaaaaaaa@trackpitch>' },
    });
    expect(message.header('In-Reply-To')).toBe('<01KAKZ3R00000000000000000A.3.aaaaaaaa@trackpitch>');
    expect(message.header('References')).toBe('<01KAKZ3R00000000000000000A.3.aaaaaaaa@trackpitch>');
    expect(message.header('Message-ID')).toBe('<01KAKZ3R00000000000000000A.3.bbbbbbbb@trackpitch>');
    expect(message.header('Subject')).toBe('Re: New track');
    // The provider's thread id is for the send request, never a header.
    expect(message.headers.map(([, value]) => value).join('\n')).not.toContain('18c2f0a9d1e2b3c4');
  });

  it('refuses a reply whose In-Reply-To is not one Message-ID (nothing is sent)', async () => {
    const error = await built({ replyTo: { threadId: 't', inReplyTo: '<a@b>\r\nBcc: x@y.example' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailerError);
    expect((error as MailerError).kind).toBe('rejected');
  });

  it('carries the Message-ID and Date it was given', async () => {
    const { message } = await built();
    expect(message.header('Message-ID')).toBe('<01KAKZ3R00000000000000000A.3@trackpitch.example>');
    expect(new Date(message.header('Date')!).toISOString()).toBe(date.toISOString());
  });

  it('offers the RFC 8058 one-click unsubscribe: List-Unsubscribe <https URL> and List-Unsubscribe-Post', async () => {
    const url = `https://app.example.com/api/unsubscribe/one-click?token=${'a'.repeat(90)}`;
    const { message, headers } = await built({ listUnsubscribeUrl: url });
    // One unbroken <URL>, however long.
    expect(message.all('List-Unsubscribe')).toEqual([`<${url}>`]);
    expect(message.all('List-Unsubscribe-Post')).toEqual(['List-Unsubscribe=One-Click']);
    expect(headers).toContainEqual(['List-Unsubscribe', `<${url}>`]);
  });

  it('returns the top-level headers as transmitted, in order', async () => {
    const { headers, message } = await built();
    expect(headers).toEqual(message.headers);
    expect(headers.map(([name]) => name)).toEqual(expect.arrayContaining(['From', 'To', 'Subject', 'Message-ID', 'Date', 'MIME-Version', 'Content-Type']));
  });

  it('refuses header injection: CR/LF in the subject or a name add no header and no recipient', async () => {
    const { raw, message } = await built({
      subject: 'Hello\r\nBcc: victim@example.com\r\n\r\nspoofed body',
      from: { name: 'Nova\nBcc: victim2@example.com', email: 'nova@gmail.com' },
      to: { name: 'Calla\r\nCc: victim3@example.com', email: 'calla@zinc-orchard.example' },
    });
    expect(message.all('Bcc')).toEqual([]);
    expect(message.all('Cc')).toEqual([]);
    expect(decodeWords(message.header('Subject')!)).toBe('Hello Bcc: victim@example.com spoofed body');
    expect(decodeWords(message.header('From')!)).not.toMatch(/[\r\n]/);
    // Nothing but the real header names starts a line of the header block.
    const block = raw.toString('latin1').split('\r\n\r\n')[0]!;
    expect(block).not.toMatch(/^(Bcc|Cc):/im);
    expect(message.parts).toHaveLength(2);
  });

  it.each([
    ['a recipient address with a line break', { to: { name: null, email: 'a@b.example\r\nBcc: c@d.example' } }],
    ['two recipient addresses', { to: { name: null, email: 'a@b.example, c@d.example' } }],
    ['a sender address that is not one', { from: { name: 'Nova', email: 'nova' } }],
    ['a Message-ID without brackets', { messageId: 'abc@trackpitch.example' }],
    ['an unsubscribe link that is not http(s)', { listUnsubscribeUrl: 'javascript:alert(1)' }],
    ['an unsubscribe link that is no URL', { listUnsubscribeUrl: 'not a url' }],
  ])('fails for good (rejected, nothing sent) with %s', async (_, overrides) => {
    const error = await buildMime(sampleEmail(overrides)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailerError);
    expect((error as MailerError).kind).toBe('rejected');
  });

  it('serializes an unsubscribe URL so the header cannot be broken by it', async () => {
    const { message } = await built({ listUnsubscribeUrl: 'https://app.example.com/api/unsubscribe/one-click?token=a b>c' });
    expect(message.header('List-Unsubscribe')).toBe('<https://app.example.com/api/unsubscribe/one-click?token=a%20b%3Ec>');
  });
});
