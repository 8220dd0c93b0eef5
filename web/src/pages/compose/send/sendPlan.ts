import { SEND_BATCH_SIZE, sendingMessages, type SendBatchResult, type SendCheck, type SendModeName } from '../../../../../schema/api/sending';
import { isCannotSend } from '../../../../../schema/sendingLimits';
import { ApiError, errorMessage } from '../../../api/client';

/**
 * The send flow's rules as the Compose dialogs read them (spec §4 capacity scenario and send modes, §8
 * Sending texts, §9 batch size and queue ETA). Pure.
 */

/** Spec §4: exhausted when nothing is left today; partial when less is left than asked for; sufficient otherwise. */
export type CapacityScenario = 'exhausted' | 'partial' | 'sufficient';

/**
 * The emails a send would queue: the selection less the unsubscribed (never queued), the contacts
 * deleted since they were selected, and those who already received this track unless the artist sends
 * again anyway (DESIGN §6).
 */
export function requestedCount(check: Pick<SendCheck, 'selected' | 'unsubscribed' | 'unknown' | 'already_sent'>, sendAgain: boolean): number {
  return Math.max(0, check.selected - check.unsubscribed - check.unknown - (sendAgain ? 0 : check.already_sent));
}

/** The same rule as lambdas/core/sendingWindow.ts sendingCapacity, on the status the server computed. */
export function capacityScenario(availableNow: number, requested: number): CapacityScenario {
  if (availableNow <= 0) return 'exhausted';
  return availableNow < requested ? 'partial' : 'sufficient';
}

/** Spec §4: immediate only when sufficient; partial only when partial; scheduled always. */
export function modeAllowed(mode: SendModeName, scenario: CapacityScenario): boolean {
  if (mode === 'immediate') return scenario === 'sufficient';
  if (mode === 'partial') return scenario === 'partial';
  return true;
}

/** The mode the dialog starts on: the fastest one the scenario allows. */
export const defaultMode = (scenario: CapacityScenario): SendModeName =>
  scenario === 'sufficient' ? 'immediate' : scenario === 'partial' ? 'partial' : 'scheduled';

/** Spec §9: the selection in batches of 100, each with the index of its first contact. */
export function batchesOf<T>(items: readonly T[], size = SEND_BATCH_SIZE): { start: number; items: readonly T[] }[] {
  const batches: { start: number; items: readonly T[] }[] = [];
  for (let start = 0; start < items.length; start += size) batches.push({ start, items: items.slice(start, start + size) });
  return batches;
}

export interface QueueTotals {
  queued: number;
  skippedUnsubscribed: number;
  skippedAlreadySent: number;
  skippedUnknown: number;
}

export const noTotals: QueueTotals = { queued: 0, skippedUnsubscribed: 0, skippedAlreadySent: 0, skippedUnknown: 0 };

export function addBatch(totals: QueueTotals, batch: SendBatchResult): QueueTotals {
  return {
    queued: totals.queued + batch.queued,
    skippedUnsubscribed: totals.skippedUnsubscribed + batch.skipped_unsubscribed,
    skippedAlreadySent: totals.skippedAlreadySent + batch.skipped_already_sent,
    skippedUnknown: totals.skippedUnknown + batch.skipped_unknown,
  };
}

/** How a failed request is told to the artist. */
export type SendFailure =
  /** Spec §8: a 429 or 'Daily Gmail sending limit reached' → the daily-limit toast. */
  | { kind: 'dailyLimit'; message: string }
  /** Sending needs a connected mailbox: the message links to Settings. */
  | { kind: 'mailbox'; message: string }
  | { kind: 'other'; message: string };

/**
 * Texts the server answers that are shown word for word (they already say what failed): a 'Cannot Send: …'
 * refusal, which names the limit that binds (the spec's daily text, or the plan's month and its reset).
 */
const shownAsIs: ReadonlySet<string> = new Set([sendingMessages.allUnsubscribed, sendingMessages.notADraft]);

export function sendFailure(error: unknown): SendFailure {
  const message = errorMessage(error, '');
  if ((error instanceof ApiError && error.status === 429) || message.includes(sendingMessages.dailyLimitProvider)) {
    return { kind: 'dailyLimit', message: sendingMessages.dailyLimit };
  }
  if (message === sendingMessages.mailboxRequired) return { kind: 'mailbox', message };
  if (error instanceof ApiError && error.status === 401) return { kind: 'other', message: sendingMessages.sessionExpired };
  if (shownAsIs.has(message) || isCannotSend(message)) return { kind: 'other', message };
  return { kind: 'other', message: sendingMessages.failedToSend(message) };
}

/** An instant in the user's own time zone, e.g. 'Mar 2, 2025, 12:00 AM'. */
export const localTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
