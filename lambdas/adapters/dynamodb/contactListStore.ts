import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { savedContactListSchema, type SavedContactList } from '../../../schema/api/campaigns';
import { key } from '../../../schema/table';
import type { ContactListStore, IdGenerator } from '../../ports';
import { withoutKeys } from './client';
import { queryAll } from './query';

/**
 * The Compose picker's saved recipient lists (schema/ACCESS_PATTERNS.md): `USER#<sub>` / `LIST#<ulid>`.
 * The ULID starts with the creation time, so the partition read descending is newest first.
 */
const CONTACT_LIST = 'contact-list';

const LIST_FIELDS = Object.keys(savedContactListSchema.shape) as (keyof SavedContactList)[];

const listKey = (userId: string, id: string) => ({ PK: key.user(userId), SK: key.contactList(id) });

export class DynamoContactListStore implements ContactListStore {
  private readonly ids: IdGenerator;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    { ids }: { ids: IdGenerator },
  ) {
    this.ids = ids;
  }

  async list(userId: string): Promise<SavedContactList[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :list)',
      ProjectionExpression: LIST_FIELDS.map((_, i) => `#f${i}`).join(', '),
      ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK', ...Object.fromEntries(LIST_FIELDS.map((field, i) => [`#f${i}`, field])) },
      ExpressionAttributeValues: { ':pk': key.user(userId), ':list': key.contactListPrefix() },
      ScanIndexForward: false, // newest first
    });
    return items.map((item) => withoutKeys<SavedContactList>(item));
  }

  async add(userId: string, input: Omit<SavedContactList, 'id' | 'created_at'>, now: Date): Promise<SavedContactList> {
    const list: SavedContactList = {
      id: this.ids.next(now),
      name: input.name,
      contact_types: input.contact_types,
      selected_genres: input.selected_genres,
      contact_ids: input.contact_ids,
      created_at: now.toISOString(),
    };
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...listKey(userId, list.id), entity: CONTACT_LIST, ...list },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return list;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const { Attributes } = await this.db.send(
      new DeleteCommand({ TableName: this.tableName, Key: listKey(userId, id), ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined;
  }
}
