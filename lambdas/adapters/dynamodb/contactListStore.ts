import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { savedContactListSchema, type SavedContactList } from '../../../schema/api/campaigns';
import { key } from '../../../schema/table';
import type { ContactListStore, IdGenerator } from '../../ports';
import { deleteExisting, projectionOf, putNew, queryPartition } from './query';

/**
 * The Compose picker's saved recipient lists (schema/ACCESS_PATTERNS.md): `USER#<sub>` / `LIST#<ulid>`.
 * The ULID starts with the creation time, so the partition read descending is newest first.
 */
const CONTACT_LIST = 'contact-list';

/** The fields of a SavedContactList: what a read returns. */
const projection = projectionOf(Object.keys(savedContactListSchema.shape));

const listKey = (userId: string, id: string) => ({ PK: key.user(userId), SK: key.contactList(id) });

export class DynamoContactListStore implements ContactListStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly deps: { ids: IdGenerator },
  ) {}

  async list(userId: string): Promise<SavedContactList[]> {
    return queryPartition<SavedContactList>(this.db, this.tableName, {
      pk: key.user(userId),
      skPrefix: key.contactListPrefix(),
      projection,
      newestFirst: true,
    });
  }

  async add(userId: string, input: Omit<SavedContactList, 'id' | 'created_at'>, now: Date): Promise<SavedContactList> {
    const list: SavedContactList = {
      id: this.deps.ids.next(now),
      name: input.name,
      contact_types: input.contact_types,
      selected_genres: input.selected_genres,
      contact_ids: input.contact_ids,
      created_at: now.toISOString(),
    };
    await putNew(this.db, this.tableName, listKey(userId, list.id), CONTACT_LIST, list);
    return list;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    return deleteExisting(this.db, this.tableName, listKey(userId, id));
  }
}
