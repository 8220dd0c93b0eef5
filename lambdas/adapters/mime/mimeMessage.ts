/**
 * The one MIME builder of both mailers (Gmail and the local mailbox), so what the outbox shows is what
 * Gmail would have transmitted: multipart/alternative (plain text, then HTML), UTF-8 encoded subject and
 * From display name (the artist's), Message-ID, Date, the RFC 8058 one-click unsubscribe headers, and for a
 * reply in a thread (a follow-up) In-Reply-To and References (RFC 5322 §3.6.4).
 * Only From and To address the message: never Cc or Bcc.
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import { MailerError } from '../../core/errors';
import type { OutgoingEmail } from '../../ports';

export interface BuiltMime {
  /** The RFC 5322 message with CRLF line ends, as the provider transmits it. */
  raw: Buffer;
  /** The message's top-level headers, in order, unfolded, values as transmitted (encoded words kept). */
  headers: [string, string][];
}

/**
 * Line breaks and other control characters in a header text (subject, display name) would let a value
 * start a header of its own (`\r\nBcc: …`): each run becomes one space.
 */
export function singleLine(value: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/** An address nodemailer can put in a header as is: one @, no spaces, brackets, quotes or separators. */
const ADDRESS = /^[^\s<>()[\]",;:\\@]+@[^\s<>()[\]",;:\\@]+\.[^\s<>()[\]",;:\\@]+$/;
/** `<left@right>` without spaces or brackets inside. */
const MESSAGE_ID = /^<[^\s<>@]+@[^\s<>@]+>$/;

/** Nothing was sent: an email that cannot be built fails for good (the sender records it failed). */
const unbuildable = (what: string) => new MailerError('rejected', `The email cannot be sent: ${what}.`);

/** The one-click URL as the header carries it: an absolute http(s) URL, serialized (no spaces, CR/LF or `>`). */
function unsubscribeUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw unbuildable('the unsubscribe link is not a URL');
  }
  // https in AWS; the local runtime serves http on 127.0.0.1.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw unbuildable('the unsubscribe link is not an http(s) URL');
  return url.href;
}

/** The header block of a built message, unfolded (a continuation line joins the header it continues). */
function topHeaders(raw: Buffer): [string, string][] {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const block = end === -1 ? text : text.slice(0, end);
  const headers: [string, string][] = [];
  for (const line of block.split('\r\n')) {
    const last = headers[headers.length - 1];
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      last[1] += line;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon > 0) headers.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  return headers;
}

/**
 * Builds the message. Throws MailerError('rejected') when the email cannot be addressed (a recipient or
 * sender address that is not one address, a malformed Message-ID, In-Reply-To or unsubscribe URL): nothing
 * was sent.
 */
export async function buildMime(email: OutgoingEmail, options: { date?: Date } = {}): Promise<BuiltMime> {
  const to = email.to.email.trim();
  const from = email.from.email.trim();
  if (!ADDRESS.test(to)) throw unbuildable("the recipient's address is not valid");
  if (!ADDRESS.test(from)) throw unbuildable("the mailbox's address is not valid");
  if (!MESSAGE_ID.test(email.messageId)) throw unbuildable('the Message-ID is not valid');
  const inReplyTo = email.replyTo?.inReplyTo;
  if (inReplyTo !== undefined && !MESSAGE_ID.test(inReplyTo)) throw unbuildable('the Message-ID it replies to is not valid');
  const listUnsubscribe = unsubscribeUrl(email.listUnsubscribeUrl);

  const toName = email.to.name === null ? '' : singleLine(email.to.name);
  const composer = new MailComposer({
    from: { name: singleLine(email.from.name), address: from },
    to: toName ? { name: toName, address: to } : to,
    subject: singleLine(email.subject),
    text: email.text,
    html: email.html,
    messageId: email.messageId,
    // The thread's first email is the one both name: our steps all answer the first email, so References holds it alone.
    ...(inReplyTo === undefined ? {} : { inReplyTo, references: inReplyTo }),
    date: options.date ?? new Date(),
    // The content is given as strings: never let a value be read as a file path or fetched from a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
    newline: 'win',
  });
  const root = composer.compile();
  // Prepared: a URL must stay one unbroken `<…>` (nodemailer would fold or encode it); it was serialized above.
  root.setHeader('List-Unsubscribe', { prepared: true, value: `<${listUnsubscribe}>` });
  root.setHeader('List-Unsubscribe-Post', 'List-Unsubscribe=One-Click');
  const raw = await root.build();
  return { raw, headers: topHeaders(raw) };
}
