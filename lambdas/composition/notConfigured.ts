/**
 * What a feature whose deploy settings are missing answers (billing, track uploads, the mailbox
 * connection): the Lambda starts, and each call is a 503 with code `not_configured` and a message
 * naming what to set (schema/api/serverMessages.ts), never a 500 that would feed the 5xx alarm.
 */
import { NOT_CONFIGURED } from '../../schema/api/serverMessages';
import { DomainError } from '../core/errors';

export const notConfiguredError = (message: string) => new DomainError('unavailable', message, NOT_CONFIGURED);

/** A stand-in for an adapter's method: fails when called, not when the Lambda starts. */
export const notConfigured = (message: string) => (): Promise<never> => Promise.reject(notConfiguredError(message));
