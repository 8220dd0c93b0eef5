/**
 * Transactions that lost a race: DynamoDB cancels a TransactWriteItems when another transaction holds
 * one of its items (TransactionConflict), and the SDK does not retry those. Writes that share a busy
 * item (a campaign, the user's `STATS`, a recipient) run through `retryingRaces`, the sending pipeline's
 * transactions included; a failed condition is an answer, never retried.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** How many times a write is tried before its conflict is thrown. */
export const CONFLICT_ATTEMPTS = 8;

/** The longest pause before the first retry; each later one may be twice as long. */
const FIRST_PAUSE_MS = 4;

/** The cancellation reasons of a transaction, one per item in the order sent ('None' for an item that was fine). */
export const reasonCodes = (error: TransactionCanceledException): string[] => (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');

/** A condition that did not hold in a cancelled transaction: a decided answer, not a race. */
export const conditionFailed = (error: unknown): error is TransactionCanceledException =>
  error instanceof TransactionCanceledException && reasonCodes(error).includes('ConditionalCheckFailed');

/** The write lost a race with a transaction on one of its items: worth trying again. */
export const lostRace = (error: unknown): boolean =>
  (error instanceof TransactionCanceledException && !conditionFailed(error) && reasonCodes(error).includes('TransactionConflict')) ||
  (error instanceof Error && error.name === 'TransactionConflictException');

/**
 * Runs a write, again after a short random pause when it lost a race (full jitter, doubling: two
 * writers that met once rarely meet again); past CONFLICT_ATTEMPTS the conflict is thrown. Build the
 * command inside `write`.
 */
export async function retryingRaces<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!lostRace(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * FIRST_PAUSE_MS * 2 ** (attempt - 1)));
    }
  }
}
