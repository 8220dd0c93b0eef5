/**
 * A problem a person can fix (Java missing, a port taken, ...). `npm start` prints its message as
 * one line, without a stack trace; every other error is a bug and keeps its stack.
 */
export class LocalStackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalStackError';
  }
}

/** True when an AWS SDK error (or any error) has one of these names, e.g. 'ResourceNotFoundException'. */
export const isNamed = (error: unknown, ...names: string[]): boolean => names.includes((error as { name?: unknown } | undefined)?.name as string);
