/**
 * Transactions that lost a race: DynamoDB cancels a TransactWriteItems when another transaction holds
 * one of its items (TransactionConflict), and the SDK does not retry those. Writes that share a busy
 * item (a campaign, the user's `STATS`) run through `retryingRaces`; a failed condition is an answer,
 * never retried.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** How many times a write is tried before its conflict is thrown. */
const CONFLICT_ATTEMPTS = 6;

/** The cancellation reasons of a transaction, one per item in the order sent ('None' for an item that was fine). */
export const reasonCodes = (error: TransactionCanceledException): string[] => (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');

/** A condition that did not hold in a cancelled transaction: a decided answer, not a race. */
export const conditionFailed = (error: unknown): error is TransactionCanceledException =>
  error instanceof TransactionCanceledException && reasonCodes(error).includes('ConditionalCheckFailed');

/** The write lost a race with a transaction on one of its items: worth trying again. */
const lostRace = (error: unknown) =>
  (error instanceof TransactionCanceledException && !conditionFailed(error) && reasonCodes(error).includes('TransactionConflict')) ||
  (error instanceof Error && error.name === 'TransactionConflictException');

/** Runs a write, again after a short random pause when it lost a race. Build the command inside `write`. */
export async function retryingRaces<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!lostRace(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt));
    }
  }
}
