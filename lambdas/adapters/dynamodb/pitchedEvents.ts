/**
 * The PITCHED item of (track, address) is the pipeline's item (issue 28 §1, DESIGN §16): the events of
 * an email move it in the event's own transaction, never in a second write, so the board is never
 * behind the counters. Each change only sets the facts it owns (never the artist's mark, which a derived
 * stage does not overwrite). The item must exist: one that is gone (a failed send gave the hold back) or
 * was never written (a token from before track keys) is left alone, and the event counts as before.
 */
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ListenAnswer } from '../../../schema/api/listenValues';
import { key } from '../../../schema/table';
import { addressId } from '../../core/addressId';
import type { EmailToken } from '../../ports';
import { conditionFailed, reasonCodes, retryingRaces } from './races';
import { update, type TransactItem } from './sending/transaction';

export interface PitchedChange {
  set?: string[];
  remove?: string[];
  values?: Record<string, unknown>;
}

/** The key of the PITCHED item an email's events move: the address as sent (the claim's key), the campaign's track. */
export const pitchedItemKey = (userId: string, trackKey: string, email: string) => ({
  PK: key.user(userId),
  SK: key.pitched(trackKey, addressId(userId, email)),
});

/** The change as a transaction's update of the email's PITCHED item; none for a token without a track key. */
export function pitchedUpdate(
  tableName: string,
  token: Pick<EmailToken, 'user_id' | 'contact_email' | 'track_key'>,
  change: PitchedChange,
): TransactItem | undefined {
  if (!token.track_key) return undefined;
  return update(tableName, pitchedItemKey(token.user_id, token.track_key, token.contact_email), { ...change, condition: 'attribute_exists(PK)' });
}

/** The first human open or the first listen (≥ 25 %) of any email of the track to the address: a later one keeps it. */
export const firstOnPitched = (attribute: 'opened_at' | 'listened_at', at: string): PitchedChange => ({
  set: [`${attribute} = if_not_exists(${attribute}, :at)`],
  values: { ':at': at },
});

/**
 * An answer on the listen page: the latest replaces the one before. 'Not for us' passes (`passed_at`,
 * which stops the track's follow-ups and refuses a later pitch) and is kept apart (`not_for_us_at`), so
 * the artist taking a Passed mark back leaves it passed; another answer takes the pass back unless the
 * artist marked Passed (`mark_passed_at`). A pass taken back is stored NULL: every reader reads NULL as none.
 */
export function answerOnPitched(answer: ListenAnswer, note: string | null, at: string): PitchedChange {
  const notForUs = answer === 'not_for_us';
  return {
    set: [
      'answer = :answer',
      'answer_note = :note',
      'answered_at = :at',
      'passed_at = if_not_exists(mark_passed_at, :passed)',
      ...(notForUs ? ['not_for_us_at = :at'] : []),
    ],
    remove: notForUs ? [] : ['not_for_us_at'],
    values: { ':answer': answer, ':note': note, ':at': at, ':passed': notForUs ? at : null },
  };
}

/** The artist's Replied mark on an email of the track (null: taken back). */
export const repliedOnPitched = (at: string | null): PitchedChange =>
  at ? { set: ['replied_at = if_not_exists(replied_at, :at)'], values: { ':at': at } } : { remove: ['replied_at'] };

/**
 * Sends `items` as one transaction with the PITCHED update last. When only the PITCHED item's condition
 * failed (the item is gone), the items go again alone; when one of `items` failed, its cancellation is
 * thrown as it came (its reasons in `items`' order, the PITCHED one after them).
 */
export async function transactWithPitched(db: DynamoDBDocumentClient, items: TransactItem[], pitched: TransactItem | undefined): Promise<void> {
  if (pitched) {
    try {
      await retryingRaces(() => db.send(new TransactWriteCommand({ TransactItems: [...items, pitched] })));
      return;
    } catch (error) {
      if (!conditionFailed(error) || reasonCodes(error).slice(0, items.length).includes('ConditionalCheckFailed')) throw error;
    }
  }
  await retryingRaces(() => db.send(new TransactWriteCommand({ TransactItems: items })));
}
