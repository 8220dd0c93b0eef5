/** Failures the core reports; the HTTP layer maps each kind to a status. Messages are for people. */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'unauthorized' | 'too_many_requests';

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
