/** Failures the core reports; the HTTP layer maps each kind to a status. Messages are for people. */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'unauthorized' | 'too_many_requests' | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Optional machine-readable reason, returned as the error body's `code`. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/**
 * Why the AI writer gave no email; the handler maps each to a clear message and saves nothing.
 * no_listen_link: given the listen-link stand-in, its email does not carry it (issue 16).
 */
export type WriterFailure = 'busy' | 'timeout' | 'invalid_reply' | 'no_listen_link' | 'failed';

export class WriterError extends Error {
  constructor(
    readonly reason: WriterFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WriterError';
  }
}

/**
 * Why a mailbox did not take an email (DESIGN §4 failures): rate_limited and transient are retried with
 * back-off; daily_limit ('Daily Gmail sending limit reached') moves the user's queue to after the next
 * reset; auth (invalid_grant, a revoked token) pauses the campaign and marks the mailbox disconnected;
 * rejected (a permanent refusal, e.g. an invalid recipient) fails this email only.
 */
export type MailerFailure = 'rate_limited' | 'transient' | 'daily_limit' | 'auth' | 'rejected';

export class MailerError extends Error {
  constructor(
    readonly kind: MailerFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MailerError';
  }
}

/** Why a mailbox connection failed: the spec §8 `gmail_error` codes. */
export class MailboxAuthError extends Error {
  constructor(
    readonly code: 'access_denied' | 'invalid_callback' | 'token_exchange_failed' | 'save_failed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MailboxAuthError';
  }
}
