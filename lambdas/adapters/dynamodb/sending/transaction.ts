/**
 * The sending pipeline's transactions. Each is one TransactWriteItems built from named items and
 * tagged with its step; a cancellation comes back as the names of the items whose condition failed,
 * so a caller reads `failed.has('unsubscribed')` and never counts positions. A transaction that lost a
 * race (TransactionConflict) is tried again (DESIGN §13): a conflict is never read as a failed condition.
 */
import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { RecordInput } from '../../../ports';
import { conditionFailed, reasonCodes, retryingRaces } from '../races';
import type { Item } from './items';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Where the pipeline's transactions go (the sender's store passes itself). */
export interface SendingTable {
  readonly db: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly options: { intervalMs: number };
}

// ---- step tags ---------------------------------------------------------------------------------------

/**
 * The pipeline's transactions by name (the store methods that send them). Each one carries its tag:
 * instrumentation reads it with `sendingStepOf(command)` (the fault-injection suite crashes "after the
 * claim" by it), never the expression text, which a correct refactor may rename.
 */
export const SENDING_STEPS = [
  'queueBatch',
  'pause',
  'resume',
  'retryFailed',
  'reschedule',
  'goIdle',
  'advance',
  'complete',
  'defer',
  'postpone',
  'forget',
  'pauseAll',
  'holdAtMonthlyLimit',
  'releaseFromMonthlyLimit',
  'claim',
  'record',
  'claimFollowUp',
  'recordFollowUp',
  'settleFollowUp',
  'delayFollowUp',
] as const;
export type SendingStep = (typeof SENDING_STEPS)[number];

export interface SendingStepTag {
  step: SendingStep;
  userId: string;
  /** The recipient it is about (advance, claim, record), or the campaign. */
  campaignId?: string;
  position?: number;
  /** A record's outcome (a follow-up step's record has the same kinds as a first email's). */
  record?: RecordInput['kind'];
  /** The follow-up step (1, 2) a step's transaction is about. */
  followUpStep?: number;
}

const stepTags = new WeakMap<object, SendingStepTag>();

/** What a command these stores sent is in the pipeline (undefined for any other command). */
export const sendingStepOf = (command: object): SendingStepTag | undefined => stepTags.get(command);

// ---- transactions ------------------------------------------------------------------------------------

/** A transaction's items by name; an undefined one is left out (an item the step needs only sometimes). */
export type NamedItems<N extends string> = Readonly<Record<N, TransactItem | undefined>>;

export type TransactionResult<N extends string> =
  | { ok: true }
  | {
      ok: false;
      /** The items whose condition failed (at least one): a conflict with another transaction is never one. */
      failed: ReadonlySet<N>;
      /** A failed item as it was, when the item asked for it (ReturnValuesOnConditionCheckFailure ALL_OLD). */
      oldItems: Partial<Record<N, Item>>;
    };

/**
 * Sends the named items as one TransactWriteItems tagged `tag` (each try a command of its own, with the
 * same tag). A conflict with another transaction (an open, a click, a play on the same STATS, day,
 * campaign or recipient item) is tried again, bounded (races.ts), then thrown: the tick is retried,
 * nothing is read as refused. Anything else but a failed condition is thrown too.
 */
export async function transaction<N extends string>(db: DynamoDBDocumentClient, tag: SendingStepTag, items: NamedItems<N>): Promise<TransactionResult<N>> {
  const named = (Object.entries(items) as [N, TransactItem | undefined][]).filter((entry): entry is [N, TransactItem] => entry[1] !== undefined);
  try {
    await retryingRaces(() => {
      const command = new TransactWriteCommand({ TransactItems: named.map(([, item]) => item) });
      stepTags.set(command, tag);
      return db.send(command);
    });
    return { ok: true };
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    // One reason per item, in the order the items were sent: the only place that reads positions.
    const codes = reasonCodes(error);
    if (!codes.every((code) => code === 'None' || code === 'ConditionalCheckFailed' || code === 'TransactionConflict')) throw error;
    const reasons = error.CancellationReasons ?? [];
    const names = named.map(([name]) => name);
    const oldItems: Partial<Record<N, Item>> = {};
    names.forEach((name, i) => {
      const old = reasons[i]?.Item as Item | undefined;
      if (old) oldItems[name] = old;
    });
    return { ok: false, failed: new Set(names.filter((_, i) => codes[i] === 'ConditionalCheckFailed')), oldItems };
  }
}

/** Whether some item failed and every one that failed is among `names`. */
export const failedOnly = <N extends string>(failed: ReadonlySet<N>, names: readonly N[]): boolean =>
  failed.size > 0 && [...failed].every((name) => names.includes(name));

/** A string attribute of an item from a cancellation reason (the document client leaves those marshalled). */
export const stringAttribute = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof (value as { S?: unknown } | undefined)?.S === 'string' ? (value as { S: string }).S : undefined;

/** An UpdateItem in a transaction; names and values are merged from the parts that build it. */
export function update(
  tableName: string,
  itemKey: Item,
  parts: { set?: string[]; add?: string[]; remove?: string[]; condition?: string; names?: Record<string, string>; values?: Item },
): TransactItem {
  const clauses = [
    parts.set?.length ? `SET ${parts.set.join(', ')}` : '',
    parts.add?.length ? `ADD ${parts.add.join(', ')}` : '',
    parts.remove?.length ? `REMOVE ${parts.remove.join(', ')}` : '',
  ].filter(Boolean);
  const values = parts.values && Object.keys(parts.values).length > 0 ? parts.values : undefined;
  const names = parts.names && Object.keys(parts.names).length > 0 ? parts.names : undefined;
  return {
    Update: {
      TableName: tableName,
      Key: itemKey,
      UpdateExpression: clauses.join(' '),
      ...(parts.condition ? { ConditionExpression: parts.condition } : {}),
      ...(names ? { ExpressionAttributeNames: names } : {}),
      ...(values ? { ExpressionAttributeValues: values } : {}),
    },
  };
}
