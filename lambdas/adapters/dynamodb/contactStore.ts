import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Contact, ContactInput } from '../../../schema/api/contacts';
import { contactFields, contactInputFields } from '../../../schema/api/recordFields';
import { indexes, key } from '../../../schema/table';
import { addressId, isAddressId } from '../../core/contacts';
import type { ContactListResult, ContactStore, ContactWriteResult, NewContact } from '../../ports';
import { batchGetAll, batchWriteAll } from './batch';
import { updatedItem, withoutKeys } from './client';
import { statsTotalsUpdate } from './counters';
import { conditionFailed, retryingRaces } from './races';

/**
 * A user's contacts (schema/ACCESS_PATTERNS.md): `USER#<sub>` / `CONTACT#<addressId(sub, email)>`, and in
 * GSI1 `USER#<sub>#CONTACTS` / `<created_at>#<id>` for the newest-first list. The key is a function of the
 * normalised email, so "one contact per email per user" is the key itself: no guard item.
 * Every write that creates or deletes contacts moves the user's `contacts_count` (`STATS`, see
 * lambdas/core/counters.ts): in the same transaction for one contact, after the batch for many.
 */
const CONTACT = 'contact';

/** The fields of a Contact, in the API's order: what a list reads and what an item returns. */
const CONTACT_FIELDS: readonly (keyof Contact)[] = contactFields;

/** A contact stored before time zones existed has none: null, as the contract says. */
const toContact = (item: Record<string, unknown>) => {
  const contact = withoutKeys<Contact>(item);
  return { ...contact, time_zone: contact.time_zone ?? null };
};

const contactKey = (userId: string, id: string) => ({ PK: key.user(userId), SK: key.contact(id) });

/** The stored item of a contact: its key, its place on the user's timeline (GSI1) and its fields. */
export function contactItem(userId: string, contact: Contact): Record<string, unknown> {
  return {
    ...contactKey(userId, contact.id),
    entity: CONTACT,
    GSI1PK: key.contactTimeline(userId),
    GSI1SK: key.contactTimeSort(contact.created_at, contact.id),
    ...contact,
  };
}

/** The contact a new contact becomes: its id from its email, only the contract's fields. */
function storedContact(userId: string, contact: NewContact, createdAt: string): Contact {
  return {
    id: addressId(userId, contact.email),
    name: contact.name,
    email: contact.email,
    label_name: contact.label_name,
    contact_type: contact.contact_type,
    position: contact.position,
    genre: contact.genre,
    website_url: contact.website_url,
    notes: contact.notes,
    genre_focus: contact.genre_focus ?? null,
    time_zone: contact.time_zone ?? null,
    created_at: createdAt,
    // Only a contact from the directory has a policy and a label size (issue 28): none is stored for the others.
    ...(contact.demo_policy ? { demo_policy: contact.demo_policy } : {}),
    ...(contact.label_size ? { label_size: contact.label_size } : {}),
  };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A list cursor is the base64url of the last contact's GSI1 sort key (`<created_at>#<id>`), nothing more. */
const encodeCursor = (sortKey: string) => Buffer.from(sortKey, 'utf8').toString('base64url');

/** The created_at and id a cursor holds, or undefined unless it is exactly one this store could have made. */
function decodeCursor(cursor: string): { createdAt: string; id: string } | undefined {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(cursor)) return undefined;
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  const separator = sortKey.lastIndexOf('#');
  if (separator < 0) return undefined;
  const createdAt = sortKey.slice(0, separator);
  const id = sortKey.slice(separator + 1);
  if (!ISO_TIME.test(createdAt) || !isAddressId(id)) return undefined;
  // Exactly one encoding of exactly one sort key: no padding, no trailing bits, nothing else inside.
  if (key.contactTimeSort(createdAt, id) !== sortKey || encodeCursor(sortKey) !== cursor) return undefined;
  return { createdAt, id };
}

export class DynamoContactStore implements ContactStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(userId: string, { limit, cursor }: { limit: number; cursor?: string }): Promise<ContactListResult> {
    let startKey: Record<string, string> | undefined;
    if (cursor !== undefined) {
      const position = decodeCursor(cursor);
      if (position === undefined) return { outcome: 'invalid_cursor' };
      // The partitions always come from the token's user, never from the cursor.
      startKey = {
        ...contactKey(userId, position.id),
        GSI1PK: key.contactTimeline(userId),
        GSI1SK: key.contactTimeSort(position.createdAt, position.id),
      };
    }
    const { Items, LastEvaluatedKey } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: indexes.byLookup.name,
        KeyConditionExpression: '#pk = :timeline',
        // Only the contact's own fields: less to read and send at thousands of contacts.
        ProjectionExpression: CONTACT_FIELDS.map((_, i) => `#f${i}`).join(', '),
        ExpressionAttributeNames: {
          '#pk': indexes.byLookup.partitionKey,
          ...Object.fromEntries(CONTACT_FIELDS.map((field, i) => [`#f${i}`, field])),
        },
        ExpressionAttributeValues: { ':timeline': key.contactTimeline(userId) },
        ScanIndexForward: false, // newest first
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    const contacts = (Items ?? []).map(toContact);
    const lastSortKey: unknown = LastEvaluatedKey?.[indexes.byLookup.sortKey];
    return typeof lastSortKey === 'string' ? { outcome: 'listed', contacts, nextCursor: encodeCursor(lastSortKey) } : { outcome: 'listed', contacts };
  }

  async get(userId: string, id: string): Promise<Contact | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: contactKey(userId, id), ConsistentRead: true }));
    return Item ? toContact(Item) : undefined;
  }

  async add(userId: string, contact: NewContact, now: Date): Promise<ContactWriteResult> {
    const stored = storedContact(userId, contact, now.toISOString());
    try {
      await retryingRaces(() =>
        this.db.send(
          new TransactWriteCommand({
            // An SDK retry after a lost response then succeeds instead of finding its own contact.
            ClientRequestToken: randomUUID(),
            TransactItems: [
              { Put: { TableName: this.tableName, Item: contactItem(userId, stored), ConditionExpression: 'attribute_not_exists(PK)' } },
              this.countChange(userId, 1),
            ],
          }),
        ),
      );
      return { outcome: 'saved', contact: stored };
    } catch (error) {
      // Only the put has a condition: the address is taken, nothing was written or counted.
      if (conditionFailed(error)) return { outcome: 'duplicate' };
      throw error;
    }
  }

  /** The `contacts_count` update of `n` contacts more (or fewer), for a transaction or alone. */
  private countChange(userId: string, n: number) {
    return statsTotalsUpdate(this.tableName, userId, { contacts_count: n });
  }

  /** After a batch write of contacts: one UpdateItem of the count by what the batch created or deleted. */
  private async addToCount(userId: string, n: number): Promise<void> {
    const { Update } = this.countChange(userId, n);
    // STATS is in every send's, open's and first batch's transaction: a plain write that meets one is refused (TransactionConflict) and the SDK does not retry that.
    if (n !== 0 && Update) await retryingRaces(() => this.db.send(new UpdateCommand(Update)));
  }

  async update(userId: string, id: string, contact: ContactInput): Promise<ContactWriteResult> {
    const newId = addressId(userId, contact.email);
    return newId === id ? this.replaceFields(userId, id, contact) : this.move(userId, id, newId, contact);
  }

  /** Same address (perhaps in another case): the fields the person writes change in place (genre_focus, demo_policy, label_size and created_at are kept), the id stays. */
  private async replaceFields(userId: string, id: string, contact: ContactInput): Promise<ContactWriteResult> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: contactKey(userId, id),
          UpdateExpression: `SET ${contactInputFields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: Object.fromEntries(contactInputFields.map((field, i) => [`#f${i}`, field])),
          ExpressionAttributeValues: Object.fromEntries(contactInputFields.map((field, i) => [`:v${i}`, contact[field]])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { outcome: 'saved', contact: toContact(updatedItem(Attributes)) };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return { outcome: 'not_found' };
      throw error;
    }
  }

  /** Another address: the contact moves to the new address's id in one transaction (delete old, create new). */
  private async move(userId: string, oldId: string, newId: string, contact: ContactInput): Promise<ContactWriteResult> {
    const old = await this.get(userId, oldId);
    if (!old) return { outcome: 'not_found' };
    const moved = storedContact(userId, { ...contact, genre_focus: old.genre_focus, demo_policy: old.demo_policy, label_size: old.label_size }, old.created_at);
    try {
      await this.db.send(
        new TransactWriteCommand({
          // An SDK retry after a lost response then succeeds instead of finding the old item gone.
          ClientRequestToken: randomUUID(),
          TransactItems: [
            { Delete: { TableName: this.tableName, Key: contactKey(userId, oldId), ConditionExpression: 'attribute_exists(PK)' } },
            { Put: { TableName: this.tableName, Item: contactItem(userId, moved), ConditionExpression: 'attribute_not_exists(PK)' } },
          ],
        }),
      );
      return { outcome: 'saved', contact: moved };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [deleteReason, putReason] = (error.CancellationReasons ?? []).map((reason) => reason.Code);
      if (deleteReason === 'ConditionalCheckFailed') return { outcome: 'not_found' };
      if (putReason === 'ConditionalCheckFailed') return { outcome: 'duplicate' };
      throw error;
    }
  }

  async remove(userId: string, id: string): Promise<boolean> {
    try {
      await retryingRaces(() =>
        this.db.send(
          new TransactWriteCommand({
            ClientRequestToken: randomUUID(),
            TransactItems: [
              { Delete: { TableName: this.tableName, Key: contactKey(userId, id), ConditionExpression: 'attribute_exists(PK)' } },
              this.countChange(userId, -1),
            ],
          }),
        ),
      );
      return true;
    } catch (error) {
      // Not there (never was, or a concurrent delete got it first): nothing deleted, nothing counted.
      if (conditionFailed(error)) return false;
      throw error;
    }
  }

  /**
   * Reads which of `ids` exist, deletes those with BatchWriteItem (no per-item condition), then lowers
   * `contacts_count` by how many were found. Two bulk deletes of one contact at the same moment (or a
   * bulk delete racing a single delete) both count it: the count is then one too low until a rebuild.
   */
  async removeMany(userId: string, ids: readonly string[]): Promise<string[]> {
    const existing = [...(await this.existingIds(userId, ids))];
    await batchWriteAll(
      this.db,
      this.tableName,
      existing.map((id) => ({ DeleteRequest: { Key: contactKey(userId, id) } })),
    );
    await this.addToCount(userId, -existing.length);
    return existing;
  }

  /**
   * No transaction and no condition per item (BatchWriteItem has none): the key is the address, so a
   * retried batch finds what it wrote last time and skips it, and two writers of one address (an
   * import and the form, two imports) meet on one item instead of making two. Under such a race both
   * may report the address as created, and the later write's fields win; both then count it, so
   * `contacts_count` is one too high until `npm run counters:rebuild` (schema/ACCESS_PATTERNS.md).
   */
  async importMany(userId: string, contacts: readonly NewContact[], now: Date): Promise<{ created: Contact[]; skipped: number }> {
    const createdAt = now.toISOString();
    const unique = new Map<string, Contact>();
    for (const contact of contacts) {
      const stored = storedContact(userId, contact, createdAt);
      if (!unique.has(stored.id)) unique.set(stored.id, stored);
    }
    const existing = await this.existingIds(userId, [...unique.keys()]);
    const created = [...unique.values()].filter((contact) => !existing.has(contact.id));
    await batchWriteAll(
      this.db,
      this.tableName,
      created.map((contact) => ({ PutRequest: { Item: contactItem(userId, contact) } })),
    );
    await this.addToCount(userId, created.length);
    return { created, skipped: contacts.length - created.length };
  }

  async existingIds(userId: string, ids: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Set();
    const items = await batchGetAll(
      this.db,
      this.tableName,
      unique.map((id) => contactKey(userId, id)),
      { projection: ['SK'], consistentRead: true },
    );
    const prefix = key.contactPrefix();
    return new Set(items.map((item) => String(item.SK).slice(prefix.length)));
  }

  async getMany(userId: string, ids: readonly string[]): Promise<Contact[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const items = await batchGetAll(
      this.db,
      this.tableName,
      unique.map((id) => contactKey(userId, id)),
      { projection: CONTACT_FIELDS, consistentRead: true },
    );
    return items.map(toContact);
  }
}
