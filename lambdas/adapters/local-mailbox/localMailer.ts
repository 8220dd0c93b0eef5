/**
 * The Mailer of the local runtime: builds the very MIME Gmail would get (buildMime) and files it in the
 * user's local outbox, where the Outbox page shows it as a mail client would (its pixel and links go
 * through the real tracking routes).
 *
 * Threads as Gmail keeps them: a message starts a thread whose id is its own, and a send that names a
 * thread (`replyTo`) joins it when the thread is this mailbox's and the subjects match ("Re:" aside), as
 * Gmail requires; otherwise it starts a thread of its own.
 *
 * So a newcomer can watch the failure handling too, recipients at the reserved domain `fail.test`
 * (RFC 2606: it can never be a real mailbox) are answered as Gmail would fail, and nothing is stored:
 *   rate-limited@fail.test  → rate_limited (retried with back-off)
 *   unavailable@fail.test   → transient    (retried with back-off; the others go on meanwhile)
 *   daily-limit@fail.test   → daily_limit  (the mailbox is tried again in an hour, then backs off)
 *   invalid-grant@fail.test → auth         (the campaign pauses, the mailbox is disconnected)
 *   timeout@fail.test       → no answer    (a plain error: the outcome is unknown, never retried)
 *   anything-else@fail.test → rejected     (this email fails for good)
 */
import { MailerError, type MailerFailure } from '../../core/errors';
import { isUlid } from '../../core/ids';
import { sameConversation } from '../../core/thread';
import type { Clock, Mailer, NewOutboxMessage, OutboxStore, OutgoingEmail } from '../../ports';
import { buildMime, singleLine } from '../mime/mimeMessage';

export const SIMULATED_FAILURE_DOMAIN = 'fail.test';

const simulatedFailures: Record<string, MailerFailure> = {
  'rate-limited': 'rate_limited',
  unavailable: 'transient',
  'daily-limit': 'daily_limit',
  'invalid-grant': 'auth',
};

const simulatedText: Record<MailerFailure, string> = {
  rate_limited: 'The local mailbox is rate limiting this mailbox (simulated)',
  transient: 'The local mailbox is unavailable right now (simulated)',
  daily_limit: 'Daily Gmail sending limit reached (simulated)',
  auth: 'The local mailbox connection is no longer authorized (simulated invalid_grant)',
  rejected: 'The local mailbox refused this email: no such recipient (simulated)',
};

/** The failure a `fail.test` recipient stands for: a MailerError kind, 'unknown' (no answer), or none. */
export function simulatedFailureFor(address: string): MailerFailure | 'unknown' | undefined {
  const [local, domain] = address.trim().toLowerCase().split('@');
  if (domain !== SIMULATED_FAILURE_DOMAIN || local === undefined) return undefined;
  if (local === 'timeout') return 'unknown';
  return simulatedFailures[local] ?? 'rejected';
}

/** `Name <address>` as a mail client lists it (just the address without a name). */
const mailbox = (name: string | null, address: string) => {
  const display = name === null ? '' : singleLine(name);
  return display ? `${display} <${address.trim()}>` : address.trim();
};

export class LocalMailer implements Mailer {
  constructor(
    readonly outbox: OutboxStore,
    readonly clock: Clock,
  ) {}

  send: Mailer['send'] = async (email: OutgoingEmail) => {
    const now = this.clock.now();
    const { raw, headers } = await buildMime(email, { date: now });
    const failure = simulatedFailureFor(email.to.email);
    if (failure === 'unknown') throw new Error('The local mailbox did not answer (simulated timeout): the outcome is unknown');
    if (failure !== undefined) throw new MailerError(failure, simulatedText[failure]);
    const thread = await this.threadJoined(email);
    const message: NewOutboxMessage = {
      sent_at: now.toISOString(),
      from: mailbox(email.from.name, email.from.email),
      to: mailbox(email.to.name, email.to.email),
      subject: singleLine(email.subject),
      campaign_id: email.meta.campaignId,
      html: email.html,
      text: email.text,
      headers,
      // Headers are 7-bit (encoded words) and the parts quoted-printable: the bytes are ASCII.
      raw: raw.toString('utf8'),
      ...(thread === undefined ? {} : { thread_id: thread }),
    };
    const filed = await this.outbox.add(email.meta.userId, message, now);
    return { providerMessageId: filed.id, threadId: filed.threadId };
  };

  /** The thread `replyTo` names, when it is this user's and its first message's subject matches; else none. */
  private async threadJoined(email: OutgoingEmail): Promise<string | undefined> {
    if (!email.replyTo) return undefined;
    const { threadId } = email.replyTo;
    // A thread's id is its first message's (ids are ULIDs: anything else names no message here).
    const first = isUlid(threadId) ? await this.outbox.get(email.meta.userId, threadId) : undefined;
    return first && first.thread_id === threadId && sameConversation(first.subject, email.subject) ? threadId : undefined;
  }
}
