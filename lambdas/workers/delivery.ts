/**
 * A claimed email from its writing to its outcome, for a first email and a follow-up step alike: write
 * it, hand it to the mailbox, and tell the caller which outcome to record. A failure before the request
 * leaves is a retry; a MailerError is acted on by its kind; any other failure of the send may have come
 * after the request left, so its outcome is unknown and it is never sent again (DESIGN §13).
 */
import type { RenderedEmail } from '../../schema/api/campaigns';
import { MetricNames, type MetricName } from '../../schema/metrics';
import { MailerError, WriterError } from '../core/errors';
import { dailyLimitRetryAt } from '../core/sender';
import type { OutgoingEmail, SentMessage } from '../ports';
import type { SenderDeps, TickOutcome } from './sender';

/** What the caller records for each outcome (the first email's record, or the step's). */
export interface DeliveryOutcomes {
  /** Worth trying again (the writer failed, the provider throttled): back-off, or failed after the attempts. */
  retryLater(message: string): Promise<TickOutcome>;
  /** The mailbox's daily limit: nothing sent, tried again at `until`. */
  dailyLimit(until: Date): Promise<void>;
  /** The mailbox's authorization is gone. */
  auth(): Promise<void>;
  /** Refused for good by the provider. */
  rejected(message: string): Promise<void>;
  sent(outgoing: { email: OutgoingEmail; links: string[] }, sent: SentMessage): Promise<void>;
}

export interface Delivery {
  deps: Pick<SenderDeps, 'mailer' | 'logger'>;
  count: (name: MetricName) => void;
  now: Date;
  /** The mailbox's daily-limit refusals in a row so far (the retry backs off with them). */
  dailyLimitRefusals: number;
  credentials: { refreshToken: string; mailboxEmail: string };
  write: () => Promise<RenderedEmail>;
  /** What a writer failure that is not a WriterError says ('The email could not be written.'). */
  writeFailure: string;
  outgoing: (rendered: RenderedEmail) => { email: OutgoingEmail; links: string[] };
  /** Who and what the logs are about. */
  log: Record<string, unknown>;
  outcomes: DeliveryOutcomes;
}

export async function deliver({
  deps,
  count,
  now,
  dailyLimitRefusals,
  credentials,
  write,
  writeFailure,
  outgoing,
  log,
  outcomes,
}: Delivery): Promise<TickOutcome> {
  let rendered: RenderedEmail;
  try {
    rendered = await write();
  } catch (error) {
    // Nothing left for the mailbox: the claim is given back as a retry, never left to turn unknown.
    deps.logger?.warn('writer failed; the email waits', { ...log, error: String(error) });
    return outcomes.retryLater(error instanceof WriterError ? error.message : writeFailure);
  }
  const email = outgoing(rendered);
  let sent: SentMessage;
  try {
    sent = await deps.mailer.send(email.email, credentials);
  } catch (error) {
    if (!(error instanceof MailerError)) {
      // The request may have left: the outcome is unknown and the email is never sent again.
      deps.logger?.error('mailer outcome unknown', { ...log, error: String(error) });
      count(MetricNames.EmailsUnknownOutcome);
      return 'unknown';
    }
    deps.logger?.warn('mailer refused', { ...log, kind: error.kind, message: error.message });
    switch (error.kind) {
      case 'rate_limited':
      case 'transient':
        count(MetricNames.ProviderThrottled);
        return outcomes.retryLater(error.message);
      case 'daily_limit':
        count(MetricNames.ProviderThrottled);
        await outcomes.dailyLimit(dailyLimitRetryAt(now, dailyLimitRefusals));
        return 'daily_limit';
      case 'auth':
        await outcomes.auth();
        return 'disconnected';
      case 'rejected':
        await outcomes.rejected(error.message);
        count(MetricNames.EmailsFailed);
        return 'failed';
    }
  }
  await outcomes.sent(email, sent);
  count(MetricNames.EmailsSent);
  return 'sent';
}
