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

/** Why the AI writer gave no email; the handler maps each to a clear message and saves nothing. */
export type WriterFailure = 'busy' | 'timeout' | 'invalid_reply' | 'failed';

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
