/**
 * The sending pipeline's one transaction helper (lambdas/adapters/dynamodb/sending/transaction.ts) over a
 * mocked DynamoDB: a TransactionConflict is tried again (bounded, then thrown), never reported as a
 * failed condition; a failed condition is an answer, named, and never retried.
 */
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { makeDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { CONFLICT_ATTEMPTS } from '../../lambdas/adapters/dynamodb/races';
import { sendingStepOf, transaction, update, type SendingStepTag } from '../../lambdas/adapters/dynamodb/sending/transaction';

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/** A document client whose TransactWriteItems answer `outcomes` in turn. */
function dbWith(...outcomes: (Error | 'ok')[]) {
  const db = makeDocumentClient(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
  const mock = mockClient(db);
  let call = mock.on(TransactWriteCommand);
  for (const outcome of outcomes) call = outcome === 'ok' ? call.resolvesOnce({}) : call.rejectsOnce(outcome);
  return { db, mock };
}

const tag: SendingStepTag = { step: 'record', userId: 'u1', campaignId: 'c1', position: 0, record: 'sent' };
const items = {
  recipient: update(
    'table',
    { PK: 'CAMPAIGN#c1', SK: 'RCPT#0' },
    { set: ['#s = :sent'], condition: '#s = :sending', names: { '#s': 'status' }, values: { ':sent': 'sent', ':sending': 'sending' } },
  ),
  stats: update('table', { PK: 'USER#u1', SK: 'STATS' }, { add: ['emails_sent :one'], values: { ':one': 1 } }),
  cursor: update('table', { PK: 'USER#u1', SK: 'SENDER' }, { set: ['x = :x'], condition: 'attribute_exists(PK)', values: { ':x': 1 } }),
};

describe('transaction()', () => {
  it('tries a transaction cancelled by a TransactionConflict again, each try tagged with its step, until it goes through', async () => {
    const { db, mock } = dbWith(cancelled('None', 'TransactionConflict', 'None'), cancelled('TransactionConflict', 'None', 'None'), 'ok');
    expect(await transaction(db, tag, items)).toEqual({ ok: true });
    const calls = mock.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(sendingStepOf(call.args[0])).toBe(tag);
      expect(call.args[0].input.TransactItems).toHaveLength(3);
    }
  });

  it(`throws after ${CONFLICT_ATTEMPTS} conflicting tries instead of reporting the items as failed`, async () => {
    const { db, mock } = dbWith(...Array.from({ length: CONFLICT_ATTEMPTS + 2 }, () => cancelled('None', 'TransactionConflict', 'None')));
    await expect(transaction(db, tag, items)).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(CONFLICT_ATTEMPTS);
  });

  it('names only the items whose condition failed, without trying again, even beside a conflict on another item', async () => {
    const { db, mock } = dbWith(cancelled('ConditionalCheckFailed', 'TransactionConflict', 'None'));
    expect(await transaction(db, tag, items)).toEqual({ ok: false, failed: new Set(['recipient']), oldItems: {} });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('leaves an undefined item out, and names the failed ones by the items sent', async () => {
    const { db, mock } = dbWith(cancelled('None', 'ConditionalCheckFailed'));
    expect(await transaction(db, tag, { ...items, stats: undefined })).toEqual({ ok: false, failed: new Set(['cursor']), oldItems: {} });
    expect(mock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems).toHaveLength(2);
  });

  it('throws any other cancellation (a throttled item) at once', async () => {
    const { db, mock } = dbWith(cancelled('None', 'ThrottlingError', 'None'));
    await expect(transaction(db, tag, items)).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});
