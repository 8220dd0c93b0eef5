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
import { TODO_ANSWERS } from '../../core/pipeline';
import type { EmailToken } from '../../ports';
import { conditionFailed, reasonCodes, retryingRaces } from './races';
import { update, type TransactItem } from './sending/transaction';

export interface PitchedChange {
  set?: string[];
  remove?: string[];
  values?: Record<string, unknown>;
}

/** Which PITCHED item: the user, the track and the address. */
export interface PitchedPlace {
  userId: string;
  trackKey: string;
  addressId: string;
}

/**
 * The change as a transaction's update of the email's PITCHED item (a change that depends on which item
 * it is: a function of its place); none for a token without a track key.
 */
export function pitchedUpdate(
  tableName: string,
  token: Pick<EmailToken, 'user_id' | 'contact_email' | 'track_key'>,
  change: PitchedChange | ((place: PitchedPlace) => PitchedChange),
): TransactItem | undefined {
  if (!token.track_key) return undefined;
  // The item an email's events move: the address as sent (the claim's key), the campaign's track.
  const place = { userId: token.user_id, trackKey: token.track_key, addressId: addressId(token.user_id, token.contact_email) };
  const changed = typeof change === 'function' ? change(place) : change;
  return update(tableName, { PK: key.user(place.userId), SK: key.pitched(place.trackKey, place.addressId) }, { ...changed, condition: 'attribute_exists(PK)' });
}

/**
 * The item's place in the user's to-dos (GSI1 `USER#<sub>#TODOS`, sparse): only while its answer is a
 * to-do answer (core TODO_ANSWERS), sorted by when it was answered. Whether it is done stays
 * `todo_done_at` (the to-dos' read filters on it), so marking one done is one write.
 */
export function todoIndexKeys(place: PitchedPlace, answer: ListenAnswer, answeredAt: string): { GSI1PK: string; GSI1SK: string } | undefined {
  if (!TODO_ANSWERS.includes(answer)) return undefined;
  return { GSI1PK: key.todoAnswers(place.userId), GSI1SK: key.todoAnswerSort(answeredAt, place.trackKey, place.addressId) };
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
 * A to-do answer puts the item in the user's to-dos (todoIndexKeys); any other answer takes it out.
 */
export function answerOnPitched(answer: ListenAnswer, note: string | null, at: string, place: PitchedPlace): PitchedChange {
  const notForUs = answer === 'not_for_us';
  const todo = todoIndexKeys(place, answer, at);
  return {
    set: [
      'answer = :answer',
      'answer_note = :note',
      'answered_at = :at',
      'passed_at = if_not_exists(mark_passed_at, :passed)',
      ...(notForUs ? ['not_for_us_at = :at'] : []),
      ...(todo ? ['GSI1PK = :todoPk', 'GSI1SK = :todoSk'] : []),
    ],
    remove: [...(notForUs ? [] : ['not_for_us_at']), ...(todo ? [] : ['GSI1PK', 'GSI1SK'])],
    values: {
      ':answer': answer,
      ':note': note,
      ':at': at,
      ':passed': notForUs ? at : null,
      ...(todo ? { ':todoPk': todo.GSI1PK, ':todoSk': todo.GSI1SK } : {}),
    },
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
