/**
 * BatchWriteItem and BatchGetItem over any number of items: split into the API's limits, a few requests
 * in flight, and what DynamoDB leaves unprocessed retried with back-off. Used by the CSV import, bulk
 * delete, directory import and the local seed.
 */
import { BatchGetCommand, BatchWriteCommand, type BatchWriteCommandInput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { chunk } from '../../../schema/chunk';

export type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];
type Key = Record<string, unknown>;

/** BatchWriteItem takes 25 requests, BatchGetItem 100 keys. */
const WRITE_BATCH = 25;
const GET_BATCH = 100;

export interface BatchOptions {
  /** Attempts per batch before giving up on what DynamoDB left unprocessed. Default 8. */
  maxAttempts?: number;
  /** First back-off between attempts, doubled each time (capped at 2 s). Default 50 ms. */
  baseDelayMs?: number;
  /** Requests in flight. Default 4. */
  concurrency?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `work` over `jobs` with at most `concurrency` at a time; rejects on the first failure. */
async function pool<T, R>(jobs: readonly T[], concurrency: number, work: (job: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await work(jobs[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  return results;
}

const settingsOf = (options: BatchOptions) => ({
  maxAttempts: options.maxAttempts ?? 8,
  baseDelayMs: options.baseDelayMs ?? 50,
  concurrency: options.concurrency ?? 4,
});

/** Writes every request (puts and deletes; no two for the same key) or throws. */
export async function batchWriteAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  requests: readonly WriteRequest[],
  options: BatchOptions = {},
): Promise<void> {
  const { maxAttempts, baseDelayMs, concurrency } = settingsOf(options);
  await pool(chunk(requests, WRITE_BATCH), concurrency, async (batch) => {
    let pending = batch;
    for (let attempt = 1; ; attempt++) {
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      const left = result.UnprocessedItems?.[tableName] ?? [];
      if (left.length === 0) return;
      if (attempt >= maxAttempts) throw new Error(`${left.length} item(s) still unprocessed after ${attempt} attempts`);
      pending = left;
      await sleep(Math.min(baseDelayMs * 2 ** (attempt - 1), 2000));
    }
  });
}

/** Reads the items of these keys (no duplicate keys); missing items are simply absent from the result. */
export async function batchGetAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Key[],
  /** consistentRead: a strongly consistent read (an "does it exist yet" check right after a write needs it). */
  options: BatchOptions & { projection?: readonly string[]; consistentRead?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const { maxAttempts, baseDelayMs, concurrency } = settingsOf(options);
  const consistency = options.consistentRead ? { ConsistentRead: true } : {};
  const projection = options.projection
    ? {
        ProjectionExpression: options.projection.map((_, i) => `#p${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(options.projection.map((name, i) => [`#p${i}`, name])),
      }
    : {};
  const pages = await pool(chunk(keys, GET_BATCH), concurrency, async (batch) => {
    const items: Record<string, unknown>[] = [];
    let pending: Key[] = batch;
    for (let attempt = 1; ; attempt++) {
      const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...projection, ...consistency } } }));
      items.push(...(result.Responses?.[tableName] ?? []));
      const left = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Key[];
      if (left.length === 0) return items;
      if (attempt >= maxAttempts) throw new Error(`${left.length} key(s) still unprocessed after ${attempt} attempts`);
      pending = left;
      await sleep(Math.min(baseDelayMs * 2 ** (attempt - 1), 2000));
    }
  });
  return pages.flat();
}
