/**
 * The item updates several of the sender's transactions share: the cursor's new due time and its move
 * past a position, a campaign's outcome counters and completion, a usage counter's change.
 */
import { indexes } from '../../../../schema/table';
import { campaignKey, dayKey, dueAttributes, mailboxKey, monthKey, profileKey, senderKey, type Item, type ItemKey } from './items';
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
      `${PAUSE_HOLD} = :paused`,
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

/**
 * A copy of a pause, set with every pause and removed with every resume or release: a completion cannot
 * read the campaign, so it keeps a pause that landed while the last email was in flight from this copy
 * (the campaign completes, stays paused, and its follow-up steps wait for Resume).
 */
export const PAUSE_HOLD = 'pause_hold';

/** The campaign's completion: all batches in, every position processed; a pause holds on. */
const completionSet = [
  '#status = :completed',
  `sending_status = if_not_exists(${PAUSE_HOLD}, :null)`,
  'completed_sending_at = :now',
  'next_send_at = :null',
  'updated_at = :now',
];
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

/**
 * A claim's move of the cursor to the next slot: still the tick's (and the head where it was read, when
 * `still` says so), the last claim's slot at least one interval before this one, which becomes the last.
 */
export function claimedSlot(input: {
  tableName: string;
  userId: string;
  tickDueAt: string;
  slot: Date;
  nextDueAt: Date;
  intervalMs: number;
  still?: { condition: string; names: Record<string, string>; values: Item };
}): TransactItem {
  const { tableName, userId, tickDueAt, slot, nextDueAt, intervalMs, still } = input;
  const due = dueSet(userId, nextDueAt);
  return update(tableName, senderKey(userId), {
    set: [...due.set, 'last_slot = :slot'],
    condition: ['due_at = :tick', ...(still ? [still.condition] : []), '(attribute_not_exists(last_slot) OR last_slot <= :paceFloor)'].join(' AND '),
    names: { ...due.names, ...still?.names },
    values: {
      ...due.values,
      ...still?.values,
      ':slot': slot.toISOString(),
      ':tick': tickDueAt,
      ':paceFloor': new Date(slot.getTime() - intervalMs).toISOString(),
    },
  });
}

/**
 * A claim's reservation of today's and this month's capacity, within the limits read, and the check that
 * the plan is still the one they were read from (every profile is stored with its tier: a missing profile
 * fails this too).
 */
export function reservedCapacity(input: { tableName: string; userId: string; now: Date; dailyLimit: number; monthlyLimit: number | null; tier: string }): {
  day: TransactItem;
  month: TransactItem;
  profile: TransactItem;
} {
  const { tableName, userId, now, dailyLimit, monthlyLimit, tier } = input;
  return {
    day: update(tableName, dayKey(userId, now), {
      set: ['entity = if_not_exists(entity, :counter)'],
      add: ['sent :one'],
      condition: 'attribute_not_exists(sent) OR sent < :limit',
      values: { ':one': 1, ':limit': dailyLimit, ':counter': 'counter' },
    }),
    month: update(tableName, monthKey(userId, now), {
      set: ['entity = if_not_exists(entity, :counter)'],
      add: ['sent :one'],
      ...(monthlyLimit === null ? {} : { condition: 'attribute_not_exists(sent) OR sent < :limit' }),
      values: { ':one': 1, ':counter': 'counter', ...(monthlyLimit === null ? {} : { ':limit': monthlyLimit }) },
    }),
    profile: {
      ConditionCheck: {
        TableName: tableName,
        Key: profileKey(userId),
        ConditionExpression: 'tier = :tier',
        ExpressionAttributeValues: { ':tier': tier },
      },
    },
  };
}

/**
 * The mailbox refused for its daily limit (Gmail's is a rolling 24 hours): the whole cursor waits until
 * `until` (an hour, backing off), and the refusal is counted.
 */
export function cursorAtDailyLimit(tableName: string, userId: string, until: Date): TransactItem {
  const due = dueSet(userId, until);
  return update(tableName, senderKey(userId), {
    set: due.set,
    add: ['daily_limit_refusals :one'],
    condition: 'attribute_exists(PK)',
    names: due.names,
    values: { ...due.values, ':one': 1 },
  });
}

/**
 * The mailbox's authorization is gone: the profile says disconnected, the stored mailbox is deleted
 * (connect again in Settings), and the cursor is due at `now`, so the next step reads it again, finds no
 * mailbox and pauses every campaign on it.
 */
export function mailboxDisconnected(tableName: string, userId: string, now: Date): { cursor: TransactItem; profile: TransactItem; mailbox: TransactItem } {
  return {
    cursor: update(tableName, senderKey(userId), { ...dueSet(userId, now), condition: 'attribute_exists(PK)' }),
    profile: update(tableName, profileKey(userId), { set: ['gmail_connected = :false'], condition: 'attribute_exists(PK)', values: { ':false': false } }),
    mailbox: { Delete: { TableName: tableName, Key: mailboxKey(userId) } },
  };
}

/** A counter's ADD (a claim reserves +1, a send that did not happen releases −1). */
export const counterAdd = (tableName: string, itemKey: ItemKey, delta: number): TransactItem =>
  update(tableName, itemKey, { set: ['entity = if_not_exists(entity, :counter)'], add: ['sent :delta'], values: { ':delta': delta, ':counter': 'counter' } });
