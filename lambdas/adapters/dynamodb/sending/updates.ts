/**
 * The item updates several of the sender's transactions share: the cursor's new due time and its move
 * past a position, a campaign's outcome counters and completion, a usage counter's change.
 */
import { indexes } from '../../../../schema/table';
import { campaignKey, dueAttributes, senderKey, type Item, type ItemKey } from './items';
import { update, type TransactItem } from './transaction';

/** The cursor's SET of a new due time (with the DUE index keys). */
export function dueSet(userId: string, dueAt: Date) {
  const due = dueAttributes(userId, dueAt.toISOString());
  return {
    set: ['due_at = :due', '#duePk = :duePk', '#dueSk = :dueSk'],
    names: { '#duePk': indexes.due.partitionKey, '#dueSk': indexes.due.sortKey },
    values: { ':due': dueAt.toISOString(), ':duePk': due[indexes.due.partitionKey], ':dueSk': due[indexes.due.sortKey] },
  };
}

/** The cursor's move past `position` (or off the campaign when it completes), on the tick's condition when given. */
export function cursorAdvance(tableName: string, userId: string, campaignId: string, position: number, completes: boolean, tickDueAt?: string): TransactItem {
  const tick = tickDueAt !== undefined;
  return update(tableName, senderKey(userId), {
    ...(completes ? { remove: ['queue.#c'] } : { set: ['queue.#c.#position = :next'] }),
    condition: `queue.#c.#position = :position${tick ? ' AND due_at = :tick' : ''}`,
    names: { '#c': campaignId, '#position': 'position' },
    values: { ':position': position, ...(completes ? {} : { ':next': position + 1 }), ...(tick ? { ':tick': tickDueAt } : {}) },
  });
}

/** The campaign's completion: all batches in, every position processed. */
const completionSet = ['#status = :completed', 'sending_status = :null', 'completed_sending_at = :now', 'next_send_at = :null', 'updated_at = :now'];
const completionValues = (now: Date) => ({ ':completed': 'completed', ':null': null, ':now': now.toISOString() });

/** The campaign's counter for a final recipient status, and its completion. */
export function campaignOutcome(
  tableName: string,
  userId: string,
  campaignId: string,
  counter: string | undefined,
  completes: boolean,
  now: Date,
  extraSet: string[] = [],
  extraValues: Item = {},
): TransactItem {
  return update(tableName, campaignKey(userId, campaignId), {
    set: [...(completes ? completionSet : []), ...extraSet],
    add: counter ? [`${counter} :one`] : [],
    condition: 'attribute_exists(PK)',
    names: completes ? { '#status': 'status' } : {},
    values: { ...(counter ? { ':one': 1 } : {}), ...(completes ? completionValues(now) : {}), ...extraValues },
  });
}

/** A counter's ADD (a claim reserves +1, a send that did not happen releases −1). */
export const counterAdd = (tableName: string, itemKey: ItemKey, delta: number): TransactItem =>
  update(tableName, itemKey, { set: ['entity = if_not_exists(entity, :counter)'], add: ['sent :delta'], values: { ':delta': delta, ':counter': 'counter' } });
