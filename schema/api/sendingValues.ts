/**
 * Sending's values and texts (spec §4 send modes, §8 Sending / Campaigns / Mailbox connection /
 * Unsubscribe, §9 batches): free of zod, so a Lambda answers its reads, or builds an email, without
 * loading a schema. sending.ts re-exports them.
 */
import { notConfiguredMessage } from './serverMessages';

/** Spec §4 send modes; see lambdas/core/sendingWindow.ts for what each means. */
export const sendModes = ['immediate', 'partial', 'scheduled'] as const;
export type SendModeName = (typeof sendModes)[number];

/** Spec §9: the send flow queues recipients in batches of 100 (one request each: a real progress bar). */
export const SEND_BATCH_SIZE = 100;

/** Spec §8 Sending and §5 texts, word for word. */
export const sendingMessages = {
  previewFirst: 'Please generate an email preview first.',
  selectContacts: 'Please select at least one contact to send the email.',
  notAuthenticated: 'User not authenticated.',
  authRequiredTitle: 'Authentication Required',
  authRequired: 'Please log in to send campaigns',
  capacityCheckFailed: 'Failed to check sending capacity. Please try again.',
  cannotSendTitle: 'Cannot Send',
  insufficientCapacity: 'Cannot Send: Insufficient daily capacity. Please try again tomorrow.',
  sessionExpired: 'Authentication session expired. Please log in again.',
  allUnsubscribed: 'All selected contacts have unsubscribed',
  dailyLimitProvider: 'Daily Gmail sending limit reached',
  dailyLimitTitle: 'Daily mailbox limit reached',
  dailyLimit: "You've hit your daily sending limit. The counter will reset at midnight Pacific Time. You can resume sending tomorrow.",
  failedToSend: (message: string | undefined) => `Failed to send campaign: ${message || 'Unknown error'}`,
  completedWithErrors: 'Campaign completed with errors',
  started: 'Campaign Started!',
  scheduled: 'Campaign Scheduled!',
  /** Beyond the spec (DESIGN §4): sending needs a connected mailbox. */
  mailboxRequired: 'Connect your Gmail account in Settings before sending a campaign.',
  notADraft: 'This campaign has already been sent.',
} as const;

/** Spec §8 Campaigns texts. */
export const campaignMessages = {
  loadFailed: 'Failed to load campaigns.',
  detailFailed: 'Failed to load campaign details',
  resumeFailed: (message: string) => `Failed to resume: ${message}`,
  pauseFailed: (message: string) => `Failed to pause: ${message}`,
  paused: 'Campaign paused',
  resumed: 'Campaign resumed',
  retryFailed: 'Retry failed',
  retryQueued: 'Failed emails queued again',
  retryFailedError: (message: string) => `Failed to retry: ${message}`,
  notFound: 'Campaign not found',
  empty: 'No campaigns yet',
} as const;

/** Answers of the sending API beyond the spec's texts (lambdas/http/sending.ts). */
export const sendingApiMessages = {
  emailNotFound: 'Email not found',
  batchShape: `A batch is ${SEND_BATCH_SIZE} contacts of the selection (the last one the rest), starting at a multiple of ${SEND_BATCH_SIZE}.`,
  batchOutOfOrder: 'This batch does not follow the recipients already queued for this campaign. Please start the send again.',
  notSending: 'Only a campaign that is sending can be paused.',
  notPaused: 'Only a paused campaign can be resumed.',
  /** Retry failed (DESIGN §13): only emails that failed after their attempts go back; refusals stay. */
  notCompleted: "Only a finished campaign's failed emails can be retried.",
  nothingToRetry: 'No failed email can be retried: the mailbox refused them for good.',
  /** Marking "Replied" (issue 27): only an email that went out can have been answered. */
  repliedNotSent: 'Only a sent email can be marked as replied: this one has not been sent.',
  /**
   * A contact's sent emails of another user's (or no) contact: the contacts routes' words (contactMessages.notFound,
   * which lives beside zod; tests/integration/replied.test.ts keeps them equal), so the sending bundle loads no zod.
   */
  contactNotFound: 'Contact not found.',
} as const;

/** Spec §8 Mailbox connection texts; `gmail_error` codes the callback redirects with. */
export const mailboxErrorCodes = ['access_denied', 'invalid_callback', 'token_exchange_failed', 'save_failed'] as const;
export type MailboxErrorCode = (typeof mailboxErrorCodes)[number];
export const mailboxMessages = {
  errors: {
    access_denied: 'Gmail connection was cancelled or access was denied.',
    invalid_callback: 'Invalid callback from Google. Please try again.',
    token_exchange_failed: 'Failed to exchange authorization code. Please try again.',
    save_failed: 'Failed to save Gmail connection. Please try again.',
  } satisfies Record<MailboxErrorCode, string>,
  otherError: (value: string) => `Gmail connection failed: ${value}`,
  connectionFailed: 'Connection Failed',
  noAuthUrl: 'No authorization URL received from server',
  disconnectionFailed: 'Disconnection Failed',
  /** Connect on a deployment without the Google OAuth client (503 `not_configured`, issue 24). */
  notConfigured: notConfiguredMessage('Gmail sending', ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET_NAME'], 'Gmail sending'),
  connected: 'Gmail Connected!',
  disconnected: 'Gmail Disconnected',
} as const;

/** The message for a `gmail_error` value (spec §8): a known code's text, else 'Gmail connection failed: {value}'. */
export const mailboxErrorMessage = (value: string) =>
  (mailboxErrorCodes as readonly string[]).includes(value) ? mailboxMessages.errors[value as MailboxErrorCode] : mailboxMessages.otherError(value);

/** Spec §5 and §8 Unsubscribe texts (the five reasons: contacts.ts `unsubscribeReasons`). */
export const unsubscribeMessages = {
  invalidLink: 'Invalid unsubscribe link',
  invalidToken: 'Invalid or expired token',
  invalidOrExpiredLink: 'Invalid or expired link',
  failed: 'Failed to unsubscribe',
  success: 'You have been unsubscribed',
  title: (artist: string) => `Unsubscribe from ${artist}`,
  confirm: 'Confirm Unsubscribe',
  processing: 'Processing...',
  doneTitle: "You've been unsubscribed",
  doneLine: (artist: string) => `You won't receive any more emails from ${artist}.`,
  doneMistake: 'If this was a mistake, please contact the artist directly.',
} as const;
export const UNSUBSCRIBE_DETAILS_MAX = 500;

/** What became of one recipient of a campaign. */
export const recipientStatuses = ['pending', 'sending', 'sent', 'failed', 'skipped', 'unknown'] as const;
export type RecipientStatus = (typeof recipientStatuses)[number];

/** The outbox API's answers (lambdas/http/outbox.ts); the Outbox page shows messageNotFound. */
export const outboxMessages = {
  notLocal: 'The outbox exists only when Trackpitch runs locally.',
  messageNotFound: 'Message not found.',
} as const;

/** Provider attempts of one email before it fails for good (the sender's MAX_ATTEMPTS). */
export const SEND_ATTEMPTS = 5;

/**
 * A recipient put back to wait alone, in words (DESIGN §13): 'Retrying at 14:05 (attempt 2 of 5): Gmail
 * was unavailable'. `nextAttempt` is the attempt that comes at `time`.
 */
export const retryingText = (time: string, nextAttempt: number, reason: string) =>
  `Retrying at ${time} (attempt ${nextAttempt} of ${SEND_ATTEMPTS}): ${reason}`;

/** The detail of a recipient waiting for its working hours (issue 27 §2): its retry_at is the next possible time. */
export const OUTSIDE_WINDOW_DETAIL = 'Outside working hours';

/** A recipient waiting for its working hours, in words: 'Outside working hours: next possible time Mon, 09:00'. */
export const outsideWindowText = (time: string) => `${OUTSIDE_WINDOW_DETAIL}: next possible time ${time}`;
