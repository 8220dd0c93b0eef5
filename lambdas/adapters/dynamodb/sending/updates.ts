/**
 * The item updates several of the sender's transactions share: the cursor's new due time and its move
 * past a position, a campaign's outcome counters and completion, a usage counter's change.
 */
import { indexes } from '../../../../schema/table';
import { campaignKey, dueAttributes, senderKey, type Item, type ItemKey } from './items';
import type { SenderHead, SenderQueueEntry } from '../../../ports';
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

/**
 * The cursor's condition that `head` is still where the sender found it: the campaign's next position,
 * or a waiting recipient still waiting.
 */
export function headStill(head: SenderHead): { condition: string; names: Record<string, string>; values: Item } {
  return head.waited
    ? { condition: 'attribute_exists(queue.#c.waiting.#p)', names: { '#c': head.campaignId, '#p': String(head.position) }, values: {} }
    : { condition: 'queue.#c.#position = :position', names: { '#c': head.campaignId, '#position': 'position' }, values: { ':position': head.position } };
}

/**
 * The cursor's move past the head (or off the campaign when it completes), on the tick's condition when
 * given: the campaign's next position moves on, or the waiting recipient stops waiting.
 */
export function cursorAdvance(
  tableName: string,
  userId: string,
  head: SenderHead,
  completes: boolean,
  options: { tickDueAt?: string; sent?: boolean } = {},
): TransactItem {
  const { tickDueAt } = options;
  const still = headStill(head);
  const tick = tickDueAt !== undefined;
  const move: { set: string[]; remove: string[]; values: Item } = completes
    ? { set: [], remove: ['queue.#c'], values: {} }
    : head.waited
      ? { set: [], remove: ['queue.#c.waiting.#p'], values: {} }
      : { set: ['queue.#c.#position = :next'], remove: [], values: { ':next': head.position + 1 } };
  return update(tableName, senderKey(userId), {
    set: move.set,
    // An email the mailbox accepted ends a run of daily-limit refusals (their back-off starts again from an hour).
    remove: [...move.remove, ...(options.sent ? ['daily_limit_refusals'] : [])],
    condition: `${still.condition}${tick ? ' AND due_at = :tick' : ''}`,
    names: still.names,
    values: { ...still.values, ...move.values, ...(tick ? { ':tick': tickDueAt } : {}) },
  });
}

/**
 * The head put aside to wait alone until `retryAt` (DESIGN §13): the campaign's next position moves on
 * and the recipient joins its waiting map (created when the entry has none), or a waiting one gets its
 * new time. The user's next slot goes to the next ready recipient.
 */
export function cursorWait(tableName: string, userId: string, head: SenderHead, retryAt: Date, hasWaiting: boolean, tickDueAt?: string): TransactItem {
  const still = headStill(head);
  const at = retryAt.toISOString();
  const tick = tickDueAt !== undefined;
  const join: { set: string[]; names: Record<string, string>; values: Item } = hasWaiting
    ? { set: ['queue.#c.waiting.#p = :at'], names: { '#p': String(head.position) }, values: { ':at': at } }
    : { set: ['queue.#c.waiting = :waiting'], names: {}, values: { ':waiting': { [String(head.position)]: at } } };
  const nextPosition: { set: string[]; values: Item } = head.waited
    ? { set: [], values: {} }
    : { set: ['queue.#c.#position = :next'], values: { ':next': head.position + 1 } };
  return update(tableName, senderKey(userId), {
    set: [...nextPosition.set, ...join.set],
    condition: [
      still.condition,
      hasWaiting ? 'attribute_exists(queue.#c.waiting)' : 'attribute_not_exists(queue.#c.waiting)',
      ...(tick ? ['due_at = :tick'] : []),
    ].join(' AND '),
    names: { ...still.names, ...join.names },
    values: { ...still.values, ...nextPosition.values, ...join.values, ...(tick ? { ':tick': tickDueAt } : {}) },
  });
}

/**
 * A campaign paused for `reason` keeping its place: the position it continues from and the recipients
 * waiting alone then (resume puts both back on the cursor). `conditionValues`: the values its condition needs.
 */
export function pausedAt(
  reason: string,
  entry: Pick<SenderQueueEntry, 'position' | 'waiting'>,
  now: Date,
  conditionValues: Item = {},
): { set: string[]; values: Item } {
  return {
    set: [
      'sending_status = :paused',
      'pause_reason = :reason',
      'resume_position = :position',
      'resume_waiting = :waiting',
      'next_send_at = :null',
      'updated_at = :now',
    ],
    values: {
      ':paused': 'paused',
      ':reason': reason,
      ':position': entry.position,
      ':waiting': entry.waiting ?? {},
      ':null': null,
      ':now': now.toISOString(),
      ...conditionValues,
    },
  };
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
