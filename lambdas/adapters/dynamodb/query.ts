import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

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
    const page = await db.send(
      new QueryCommand({ ...input, ExclusiveStartKey: startKey, ...(Number.isFinite(remaining) ? { Limit: remaining } : {}) }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items;
}
