/**
 * The LabelFinder directory (schema/ACCESS_PATTERNS.md): entries `DIRECTORY` / `ENTRY#<id>`, findable by
 * lower-cased email in GSI1 `DIRECTORY#EMAIL` / `<email>` (only entries with a real address are there).
 * Adding entries to contacts follows core/directory's rules; this store reads and writes.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ulidGenerator } from '../ulid';
import { isContactEmail, normaliseEmail, type Contact } from '../../../schema/api/contacts';
import { directoryEntrySchema, type DirectoryAllowance, type DirectoryEntry } from '../../../schema/api/directory';
import { indexes, key, keys } from '../../../schema/table';
import { allowsAdding, checkSelection, directoryCandidates, maxUsedBeforeAdding, selectionIds, splitExisting } from '../../core/directory';
import type { ContactStore, DirectoryAddOutcome, DirectoryStore, IdGenerator } from '../../ports';
import { batchGetAll, batchWriteAll } from './batch';
import { withoutKeys } from './client';
import { contactItem, DynamoContactStore } from './contactStore';
import { statsTotalsUpdate } from './counters';
import { countAll, queryAll } from './query';

/** The `entity` of a directory entry item. */
const ENTRY = 'directory';

/** The fields of a DirectoryEntry, in the API's order: what a list reads. */
const ENTRY_FIELDS = Object.keys(directoryEntrySchema.shape) as (keyof DirectoryEntry)[];

/** TransactWriteItems takes 100 actions: 98 contact puts, the profile's counter and the user's `contacts_count`. */
export const CONTACTS_PER_TRANSACTION = 98;

/** Simultaneous adds of one user write the same profile item and can collide: retry those a few times. */
const CONFLICT_RETRIES = 6;

const COUNT = 'labelfinder_additions_count';

/**
 * The stored item of a directory entry: PK `DIRECTORY`, SK `ENTRY#<id>`, and GSI1 `DIRECTORY#EMAIL` /
 * `<lower email>` only when the email is a real address (not the 'No email' default), so the email
 * lookup holds only addresses an import can match.
 */
export function directoryItem(entry: DirectoryEntry): Record<string, unknown> {
  return {
    ...entry,
    [keys.partition]: key.directoryPartition(),
    [keys.sort]: key.directoryEntry(entry.id),
    ...(isContactEmail(entry.email)
      ? { [indexes.byLookup.partitionKey]: key.directoryEmailLookup(), [indexes.byLookup.sortKey]: normaliseEmail(entry.email) }
      : {}),
    entity: ENTRY,
  };
}

/** An entry stored before demo policies existed has none: null, as the contract says. */
const toEntry = (item: Record<string, unknown>): DirectoryEntry => {
  const entry = withoutKeys<DirectoryEntry>(item);
  return { ...entry, demo_policy: entry.demo_policy ?? null };
};

const entryKey = (id: string) => ({ PK: key.directoryPartition(), SK: key.directoryEntry(id) });
const profileKey = (userId: string) => ({ PK: key.user(userId), SK: key.profile() });

export class DynamoDirectoryStore implements DirectoryStore {
  private readonly ids: IdGenerator;
  /** Which contacts exist: the contacts store's own read, so both agree on keys. */
  private readonly contacts: Pick<ContactStore, 'existingIds'>;
  /** The back-off wait between conflict retries; tests pass one that does not really wait. */
  private readonly wait: (ms: number) => Promise<unknown>;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: { ids?: IdGenerator; contacts?: Pick<ContactStore, 'existingIds'>; wait?: (ms: number) => Promise<unknown> } = {},
  ) {
    this.ids = options.ids ?? ulidGenerator();
    this.contacts = options.contacts ?? new DynamoContactStore(db, tableName);
    this.wait = options.wait ?? sleep;
  }

  async list(): Promise<DirectoryEntry[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :entry)',
      ProjectionExpression: ENTRY_FIELDS.map((_, i) => `#f${i}`).join(', '),
      ExpressionAttributeNames: {
        '#pk': keys.partition,
        '#sk': keys.sort,
        ...Object.fromEntries(ENTRY_FIELDS.map((field, i) => [`#f${i}`, field])),
      },
      ExpressionAttributeValues: { ':pk': key.directoryPartition(), ':entry': key.directoryEntry('') },
    });
    return items.map(toEntry);
  }

  private async usedAdditions(userId: string): Promise<number | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: profileKey(userId), ProjectionExpression: COUNT, ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const used: unknown = Item[COUNT];
    return typeof used === 'number' ? used : 0;
  }

  /**
   * Reads the entries and the user's contacts with those addresses (core/directory decides what is
   * added, what is a duplicate and whether the allowance takes it), then writes the new contacts in
   * transactions of at most 98 puts plus the profile's counter (`ADD count :n` on condition
   * `count <= limit - n`) and the user's `contacts_count` (`STATS`, `ADD contacts_count :n`), so
   * concurrent adds cannot pass `limit` and both counters rise by exactly the contacts created. A contact created meanwhile (another tab) fails its put's condition: it becomes a
   * duplicate and the rest is retried. When the counter's condition fails nothing of that transaction
   * is written; a large add (over 98) whose later transaction fails that way keeps, and reports as
   * added, what its earlier transactions wrote.
   */
  async addToContacts(userId: string, entryIds: readonly string[], limit: number, now: Date): Promise<DirectoryAddOutcome> {
    const ids = selectionIds(entryIds);
    const found = new Map(
      (await batchGetAll(this.db, this.tableName, ids.map(entryKey))).map((item) => {
        const entry = toEntry(item);
        return [entry.id, entry] as const;
      }),
    );
    const selection = checkSelection(ids, found);
    if (selection.outcome !== 'selected') return selection;

    const { candidates, duplicates } = directoryCandidates(userId, selection.entries, now.toISOString());
    const existing = splitExisting(
      candidates,
      await this.contacts.existingIds(
        userId,
        candidates.map((candidate) => candidate.contact.id),
      ),
    );
    duplicates.push(...existing.duplicates);
    let fresh = existing.fresh;

    const used = await this.usedAdditions(userId);
    if (used === undefined) return { outcome: 'no_profile' };
    if (fresh.length === 0) return { outcome: 'added', added: [], duplicates, allowance: { used, limit } };
    if (!allowsAdding({ used, limit }, fresh.length)) return { outcome: 'over_allowance', allowance: { used, limit }, requested: fresh.length };

    const added: Contact[] = [];
    while (fresh.length > 0) {
      const batch = fresh.slice(0, CONTACTS_PER_TRANSACTION);
      const result = await this.writeBatch(
        userId,
        batch.map((candidate) => candidate.contact),
        limit,
      );
      if (result.outcome === 'written') {
        added.push(...batch.map((candidate) => candidate.contact));
        fresh = fresh.slice(batch.length);
      } else if (result.outcome === 'exists') {
        // Nothing of this transaction was written: the contacts that exist now are duplicates; the rest is tried again.
        const meanwhile = splitExisting(fresh, result.ids);
        duplicates.push(...meanwhile.duplicates);
        fresh = meanwhile.fresh;
      } else {
        const allowance: DirectoryAllowance = { used: (await this.usedAdditions(userId)) ?? used, limit };
        if (added.length === 0) return { outcome: 'over_allowance', allowance, requested: fresh.length };
        return { outcome: 'added', added, duplicates, allowance };
      }
    }
    return { outcome: 'added', added, duplicates, allowance: { used: (await this.usedAdditions(userId)) ?? used + added.length, limit } };
  }

  /** One transaction: the contacts' puts and the counter's update, all or nothing. */
  private async writeBatch(
    userId: string,
    contacts: readonly Contact[],
    limit: number,
  ): Promise<{ outcome: 'written' } | { outcome: 'exists'; ids: Set<string> } | { outcome: 'over_allowance' }> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.send(
          new TransactWriteCommand({
            // An SDK retry after a lost response then succeeds instead of finding its own contacts.
            ClientRequestToken: randomUUID(),
            TransactItems: [
              ...contacts.map((contact) => ({
                Put: { TableName: this.tableName, Item: contactItem(userId, contact), ConditionExpression: 'attribute_not_exists(PK)' },
              })),
              {
                Update: {
                  TableName: this.tableName,
                  Key: profileKey(userId),
                  UpdateExpression: 'ADD #count :n',
                  ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#count) OR #count <= :maxBefore)',
                  ExpressionAttributeNames: { '#count': COUNT },
                  ExpressionAttributeValues: { ':n': contacts.length, ':maxBefore': maxUsedBeforeAdding(limit, contacts.length) },
                },
              },
              // No condition: the puts' and the profile's decide whether anything is written and counted.
              statsTotalsUpdate(this.tableName, userId, { contacts_count: contacts.length }),
            ],
          }),
        );
        return { outcome: 'written' };
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code);
        // A contact that exists now decides first: without it the counter's condition may well pass.
        const exists = new Set(contacts.filter((_, i) => codes[i] === 'ConditionalCheckFailed').map((contact) => contact.id));
        if (exists.size > 0) return { outcome: 'exists', ids: exists };
        if (codes[contacts.length] === 'ConditionalCheckFailed') return { outcome: 'over_allowance' };
        if (codes.includes('TransactionConflict') && attempt < CONFLICT_RETRIES) {
          await this.wait(10 * 2 ** attempt * (0.5 + Math.random()));
          continue;
        }
        throw error;
      }
    }
  }

  /**
   * Reads the email lookup once (every page), keeps the id of each address already in the directory
   * and gives the others new ids, then writes every entry with BatchWriteItem. An entry is replaced as
   * a whole. Two imports of one new address at the same moment could both create it (admin-only, rare);
   * the lookup is an index, so an entry written a moment ago may not be matched yet in AWS.
   */
  async upsertByEmail(entries: readonly Omit<DirectoryEntry, 'id'>[], { maxEntries }: { maxEntries: number }): ReturnType<DirectoryStore['upsertByEmail']> {
    const lookup = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: indexes.byLookup.name,
      KeyConditionExpression: '#pk = :pk',
      ProjectionExpression: '#sk, id',
      ExpressionAttributeNames: { '#pk': indexes.byLookup.partitionKey, '#sk': indexes.byLookup.sortKey },
      ExpressionAttributeValues: { ':pk': key.directoryEmailLookup() },
    });
    const idByEmail = new Map(lookup.map((item) => [String(item[indexes.byLookup.sortKey]), String(item.id)]));
    const now = new Date();
    const written = new Set<string>();
    const items: Record<string, unknown>[] = [];
    let created = 0;
    let updated = 0;
    for (const entry of entries) {
      const email = normaliseEmail(entry.email);
      // One item per address: a repeat within the same call is ignored (the import already rejects it).
      if (written.has(email)) continue;
      written.add(email);
      const existingId = idByEmail.get(email);
      if (existingId === undefined) created++;
      else updated++;
      items.push(directoryItem({ ...entry, id: existingId ?? this.ids.next(now) }));
    }
    if (created > 0) {
      const total = (await this.count()) + created;
      if (total > maxEntries) return { outcome: 'too_many', total };
    }
    await batchWriteAll(
      this.db,
      this.tableName,
      items.map((Item) => ({ PutRequest: { Item } })),
    );
    return { outcome: 'upserted', created, updated };
  }

  /** How many entries the directory holds (a COUNT Query over the partition: keys only, no items returned). */
  private count(): Promise<number> {
    return countAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :entry)',
      ExpressionAttributeNames: { '#pk': keys.partition, '#sk': keys.sort },
      ExpressionAttributeValues: { ':pk': key.directoryPartition(), ':entry': key.directoryEntry('') },
    });
  }
}
