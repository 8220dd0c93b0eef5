/** The table on DynamoDB Local is exactly schema/table.ts (keys, GSIs, TTL), and ensureTable is idempotent. */
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable } from '../../lib/local/dynamodb';
import { LocalStackError } from '../../lib/local/errors';
import { systemTemplateNames } from '../../lib/local/seed/index';
import { allIndexes, createTableInput, indexes, key, keys, ttlAttribute } from '../../schema/table';
import { dynamodb, stack } from './helpers';

const sortByName = <T extends { AttributeName?: string | undefined }>(list: T[] = []) =>
  [...list].sort((a, b) => String(a.AttributeName).localeCompare(String(b.AttributeName)));

/** Every item of a partition (of the table or an index), all pages. */
async function queryAll(query: { pk: string; sk?: string; index?: string }) {
  const index = query.index ? allIndexes.find((i) => i.name === query.index)! : undefined;
  const pkName = index ? index.partitionKey : keys.partition;
  const skName = index ? index.sortKey : keys.sort;
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamodb().doc.send(
      new QueryCommand({
        TableName: stack().tableName,
        ...(index ? { IndexName: index.name } : {}),
        KeyConditionExpression: query.sk === undefined ? '#pk = :pk' : '#pk = :pk AND #sk = :sk',
        ExpressionAttributeNames: { '#pk': pkName, ...(query.sk === undefined ? {} : { '#sk': skName }) },
        ExpressionAttributeValues: { ':pk': query.pk, ...(query.sk === undefined ? {} : { ':sk': query.sk }) },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

async function describeTable(name: string) {
  const { Table } = await dynamodb().client.send(new DescribeTableCommand({ TableName: name }));
  return Table!;
}

describe('the table npm start and the tests run on', () => {
  it('has the keys, attribute types and GSIs of schema/table.ts', async () => {
    const expected = createTableInput(stack().tableName);
    const table = await describeTable(stack().tableName);
    expect(table.TableStatus).toBe('ACTIVE');
    expect(table.KeySchema).toEqual([
      { AttributeName: keys.partition, KeyType: 'HASH' },
      { AttributeName: keys.sort, KeyType: 'RANGE' },
    ]);
    expect(sortByName(table.AttributeDefinitions)).toEqual(sortByName(expected.AttributeDefinitions));
    expect(table.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');

    const indexes = (table.GlobalSecondaryIndexes ?? []).map((index) => ({
      IndexName: index.IndexName,
      KeySchema: index.KeySchema,
      Projection: index.Projection,
    }));
    expect(indexes.sort((a, b) => a.IndexName!.localeCompare(b.IndexName!))).toEqual(
      [...expected.GlobalSecondaryIndexes].sort((a, b) => a.IndexName.localeCompare(b.IndexName)),
    );
    expect(indexes.map((index) => index.IndexName).sort()).toEqual(allIndexes.map((index) => index.name).sort());
  });

  it('has TTL on the schema attribute', async () => {
    const { TimeToLiveDescription } = await dynamodb().client.send(new DescribeTimeToLiveCommand({ TableName: stack().tableName }));
    expect(TimeToLiveDescription?.TimeToLiveStatus).toBe('ENABLED');
    expect(TimeToLiveDescription?.AttributeName).toBe(ttlAttribute);
  });

  it('holds the seeded system templates under TEMPLATE', async () => {
    const items = await queryAll({ pk: key.templatePartition() });
    expect(items.map((item) => item[keys.sort]).sort()).toEqual([...systemTemplateNames].sort());
    for (const item of items) {
      expect(item).toMatchObject({ name: item[keys.sort], is_system_template: true, entity: 'template' });
      expect(String(item.body_template)).toContain('{{UNSUBSCRIBE_FOOTER}}');
    }
    expect(stack().seeded.templates).toBe(items.length);
  });

  it('holds the seeded directory under DIRECTORY, findable by email on GSI1', async () => {
    const items = await queryAll({ pk: key.directoryPartition() });
    expect(items.length).toBeGreaterThanOrEqual(100);
    expect(items.length).toBe(stack().seeded.directoryEntries);
    for (const item of items) {
      expect(String(item[keys.sort])).toBe(key.directoryEntry(String(item.id)));
      // Reserved domains only (example.com/.org/.net, *.example, *.test): nothing can reach a real inbox.
      expect(String(item.email)).toMatch(/@(([a-z0-9-]+\.)*example\.(com|org|net)|([a-z0-9-]+\.)+(example|test))$/);
    }
    expect(new Set(items.map((item) => item.contact_type))).toEqual(new Set(['Label', 'DJ']));
    expect(items.some((item) => item.is_featured === true)).toBe(true);

    const entry = items[Math.floor(items.length / 2)]!;
    const found = await queryAll({
      index: indexes.byLookup.name,
      pk: key.directoryEmailLookup(),
      sk: String(entry.email).trim().toLowerCase(),
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ id: entry.id, email: entry.email, name: entry.name });
  });
});

describe('ensureTable', () => {
  it('creates a missing table, then leaves it alone', async () => {
    const name = `ensure-${randomUUID().slice(0, 8)}`;
    try {
      expect(await ensureTable(dynamodb().client, name)).toBe('created');
      expect(await ensureTable(dynamodb().client, name)).toBe('unchanged');
      const table = await describeTable(name);
      expect(table.GlobalSecondaryIndexes).toHaveLength(allIndexes.length);
    } finally {
      await dynamodb().client.send(new DeleteTableCommand({ TableName: name }));
    }
  });

  it('adds the indexes a kept local table lacks (schema grew since it was created)', async () => {
    const name = `ensure-${randomUUID().slice(0, 8)}`;
    const full = createTableInput(name);
    const [first, ...missing] = full.GlobalSecondaryIndexes;
    const used = new Set([keys.partition, keys.sort, ...first!.KeySchema.map((k) => k.AttributeName)]);
    await dynamodb().client.send(
      new CreateTableCommand({
        ...full,
        AttributeDefinitions: full.AttributeDefinitions.filter((a) => used.has(a.AttributeName)),
        GlobalSecondaryIndexes: [first!],
      }),
    );
    try {
      expect(missing.length).toBeGreaterThan(0);
      expect(await ensureTable(dynamodb().client, name)).toBe('updated');
      const table = await describeTable(name);
      expect((table.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort()).toEqual(allIndexes.map((i) => i.name).sort());
    } finally {
      await dynamodb().client.send(new DeleteTableCommand({ TableName: name }));
    }
  });

  it('refuses, with a way out, a kept table whose primary key differs from the schema', async () => {
    const name = `ensure-${randomUUID().slice(0, 8)}`;
    await dynamodb().client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
    try {
      const error = await ensureTable(dynamodb().client, name).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LocalStackError);
      expect((error as Error).message).toContain('npm start -- --reset');
    } finally {
      await dynamodb().client.send(new DeleteTableCommand({ TableName: name }));
    }
  });
});
