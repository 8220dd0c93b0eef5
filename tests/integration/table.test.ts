/** The table on DynamoDB Local is exactly schema/table.ts (keys, GSIs, TTL), and ensureTable is idempotent. */
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable } from '../../lib/local/dynamodb';
import { LocalStackError } from '../../lib/local/errors';
import { allIndexes, createTableInput, keys, ttlAttribute } from '../../schema/table';
import { dynamodb, stack } from './helpers';

const sortByName = <T extends { AttributeName?: string | undefined }>(list: T[] = []) =>
  [...list].sort((a, b) => String(a.AttributeName).localeCompare(String(b.AttributeName)));

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

  it('holds the seeded system data', async () => {
    const { Items } = await dynamodb().doc.send(
      new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'TEMPLATE' } }),
    );
    expect(stack().seeded.templates).toBe(3);
    expect(Items).toHaveLength(stack().seeded.templates);
    expect(stack().seeded.directoryEntries).toBeGreaterThanOrEqual(100);
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
