import { setTimeout as sleep } from 'node:timers/promises';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { waitlistEntrySchema, type WaitlistEntry } from '../../../schema/api/waitlist';
import { key } from '../../../schema/table';
import { isWaitlistEntryId } from '../../core/waitlist';
import type { WaitlistAddResult, WaitlistChangeResult, WaitlistListResult, WaitlistStore } from '../../ports';
import { updatedItem, withoutKeys } from './client';

/**
 * The waitlist partition `WAITLIST` holds three kinds of items (schema/ACCESS_PATTERNS.md):
 * entries `ENTRY#<ulid>`, one email guard per entry `EMAIL#<lower email>`, and the counter `COUNTER`.
 */
const ENTRY = 'waitlist-entry';
const EMAIL_GUARD = 'waitlist-email';
const COUNTER = 'waitlist-counter';

/** Every join writes the counter, so joins at the same moment can collide: retry those a few times. */
const CONFLICT_RETRIES = 6;

/** The fields of a WaitlistEntry, in the API's order. */
const ENTRY_FIELDS = Object.keys(waitlistEntrySchema.shape) as (keyof WaitlistEntry)[];

const toEntry = (item: Record<string, unknown>) => withoutKeys<WaitlistEntry>(item);

/** A list cursor is the base64url of the last entry's sort key (`ENTRY#<ulid>`), nothing more. */
const encodeCursor = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');

/** The entry sort key a cursor holds, or undefined unless it is exactly one this store could have made. */
function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return undefined;
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  const prefix = key.waitlistEntryPrefix();
  if (!sk.startsWith(prefix) || !isWaitlistEntryId(sk.slice(prefix.length))) return undefined;
  return encodeCursor(sk) === cursor ? sk : undefined;
}

export class DynamoWaitlistStore implements WaitlistStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The back-off wait between conflict retries; tests pass one that does not really wait. */
    private readonly wait: (ms: number) => Promise<unknown> = sleep,
  ) {}

  private entryKey(id: string) {
    return { PK: key.waitlistPartition(), SK: key.waitlistEntry(id) };
  }

  async list({ limit, cursor }: { limit: number; cursor?: string }): Promise<WaitlistListResult> {
    let startKey: Record<string, string> | undefined;
    if (cursor !== undefined) {
      const sk = decodeCursor(cursor);
      if (sk === undefined) return { outcome: 'invalid_cursor' };
      // The partition always comes from here, never from the cursor.
      startKey = { PK: key.waitlistPartition(), SK: sk };
    }
    // One Query page: at most `limit` entries (and at most 1 MB read), so a response stays small.
    const { Items, LastEvaluatedKey } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :entry)',
        // Only the entry's own fields: less to read, unmarshal and send at thousands of entries.
        ProjectionExpression: ENTRY_FIELDS.map((_, i) => `#f${i}`).join(', '),
        ExpressionAttributeNames: {
          '#pk': 'PK',
          '#sk': 'SK',
          ...Object.fromEntries(ENTRY_FIELDS.map((field, i) => [`#f${i}`, field])),
        },
        ExpressionAttributeValues: { ':pk': key.waitlistPartition(), ':entry': key.waitlistEntryPrefix() },
        ScanIndexForward: false, // ULID sort keys: newest first
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    const entries = (Items ?? []).map(toEntry);
    const lastSk: unknown = LastEvaluatedKey?.SK;
    return typeof lastSk === 'string' ? { outcome: 'listed', entries, nextCursor: encodeCursor(lastSk) } : { outcome: 'listed', entries };
  }

  async add(entry: WaitlistEntry): Promise<WaitlistAddResult> {
    const command = new TransactWriteCommand({
      // Idempotent for ten minutes: if the SDK retries after a lost response, the retry succeeds
      // instead of finding its own guard item and calling the visitor a duplicate.
      ClientRequestToken: entry.id,
      TransactItems: [
        {
          Put: {
            TableName: this.tableName,
            Item: { PK: key.waitlistPartition(), SK: key.waitlistEmail(entry.email), entity: EMAIL_GUARD, entry_id: entry.id },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: { ...this.entryKey(entry.id), entity: ENTRY, ...entry },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: { PK: key.waitlistPartition(), SK: key.waitlistCounter() },
            UpdateExpression: 'ADD entries :one SET entity = :entity',
            ExpressionAttributeValues: { ':one': 1, ':entity': COUNTER },
          },
        },
      ],
    });
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.send(command);
        return { outcome: 'added', entry };
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code);
        if (codes[0] === 'ConditionalCheckFailed') return { outcome: 'duplicate' };
        // Another transaction held one of the items (often the counter): the write did not happen.
        if (codes.includes('TransactionConflict') && attempt < CONFLICT_RETRIES) {
          await this.wait(10 * 2 ** attempt * (0.5 + Math.random()));
          continue;
        }
        throw error;
      }
    }
  }

  async count(): Promise<number> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { PK: key.waitlistPartition(), SK: key.waitlistCounter() },
        ProjectionExpression: 'entries',
        ConsistentRead: true,
      }),
    );
    const entries: unknown = Item?.entries;
    return typeof entries === 'number' ? entries : 0;
  }

  async get(id: string): Promise<WaitlistEntry | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.entryKey(id), ConsistentRead: true }));
    return Item ? toEntry(Item) : undefined;
  }

  async changeStatus(id: string, from: WaitlistEntry['status'], change: Pick<WaitlistEntry, 'status' | 'approved_at'>): Promise<WaitlistChangeResult> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.entryKey(id),
          UpdateExpression: 'SET #status = :to, approved_at = :approvedAt',
          ConditionExpression: 'attribute_exists(PK) AND #status = :from',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':to': change.status, ':approvedAt': change.approved_at, ':from': from },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { outcome: 'changed', entry: toEntry(updatedItem(Attributes)) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // Entries are never deleted: a failed condition is either no entry or another status.
      const stored = await this.get(id);
      return stored ? { outcome: 'conflict', entry: stored } : { outcome: 'not_found' };
    }
  }

  async setNotes(id: string, notes: string | null): Promise<WaitlistEntry | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.entryKey(id),
          UpdateExpression: 'SET notes = :notes',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':notes': notes },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? toEntry(Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}
