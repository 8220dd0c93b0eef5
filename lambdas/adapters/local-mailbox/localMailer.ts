/**
 * The Mailer of the local runtime: builds the very MIME Gmail would get (buildMime) and files it in the
 * user's local outbox, where the Outbox page shows it as a mail client would (its pixel and links go
 * through the real tracking routes).
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
import type { OutboxMessage } from '../../../schema/api/sending';
import { MailerError, type MailerFailure } from '../../core/errors';
import type { Clock, Mailer, OutboxStore, OutgoingEmail } from '../../ports';
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
    const message: Omit<OutboxMessage, 'id'> = {
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
    };
    const id = await this.outbox.add(email.meta.userId, message, now);
    return { providerMessageId: id };
  };
}
