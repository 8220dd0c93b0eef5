import { DeleteCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput, PutCommand } from '@aws-sdk/lib-dynamodb';
import { withoutKeys } from './client';

/** Every item a Query matches, page by page, stopping once `limit` items are read. */
export async function queryAll(
  db: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>,
  limit = Number.POSITIVE_INFINITY,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const remaining = limit - items.length;
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey, ...(Number.isFinite(remaining) ? { Limit: remaining } : {}) }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items;
}

/** How many items a Query matches (`Select: COUNT`, page by page: keys only, no items returned). */
export async function countAll(db: DynamoDBDocumentClient, input: Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit' | 'Select'>): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey: startKey }));
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

export interface Projection {
  ProjectionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
}

/**
 * A read of only these attributes (a contract's fields), each under a placeholder name (#f0, #f1, …)
 * because some are reserved words ('name', 'status'). Attributes others add to the item stay inside.
 */
export function projectionOf(fields: readonly string[]): Projection {
  return {
    ProjectionExpression: fields.map((_, i) => `#f${i}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(fields.map((field, i) => [`#f${i}`, field])),
  };
}

export interface PartitionQuery {
  /** The partition key (a user's `USER#<sub>`, or a shared partition such as `TEMPLATE`). */
  pk: string;
  /** Only items whose sort key starts with this (one kind of item of a user's partition). */
  skPrefix?: string;
  projection: Projection;
  /** Descending sort key: with ULID ids, newest first. */
  newestFirst?: boolean;
}

/** Every item of one partition (under a sort-key prefix when given), all pages, projected and without the table's keys. */
export async function queryPartition<T>(db: DynamoDBDocumentClient, tableName: string, query: PartitionQuery): Promise<T[]> {
  const prefixed = query.skPrefix !== undefined;
  const items = await queryAll(db, {
    TableName: tableName,
    KeyConditionExpression: prefixed ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
    ProjectionExpression: query.projection.ProjectionExpression,
    ExpressionAttributeNames: { '#pk': 'PK', ...(prefixed ? { '#sk': 'SK' } : {}), ...query.projection.ExpressionAttributeNames },
    ExpressionAttributeValues: { ':pk': query.pk, ...(prefixed ? { ':prefix': query.skPrefix } : {}) },
    ...(query.newestFirst ? { ScanIndexForward: false } : {}),
  });
  return items.map((item) => withoutKeys<T>(item));
}

/** Deletes one item by its key; true when there was one (ALL_OLD says so in the same request). */
export async function deleteExisting(db: DynamoDBDocumentClient, tableName: string, key: Record<string, string>): Promise<boolean> {
  const { Attributes } = await db.send(new DeleteCommand({ TableName: tableName, Key: key, ReturnValues: 'ALL_OLD' }));
  return Attributes !== undefined;
}

/**
 * Puts a new item under a fresh key: `attribute_not_exists(PK)`, so a colliding id (a new ULID never
 * should) fails loudly instead of overwriting what is stored.
 */
export async function putNew(
  db: DynamoDBDocumentClient,
  tableName: string,
  key: Record<string, string>,
  entity: string,
  item: Record<string, unknown>,
): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName, Item: { ...key, entity, ...item }, ConditionExpression: 'attribute_not_exists(PK)' }));
}
