// STUB (issue 6 contract): replaced by its owner. Constructor signature is the contract.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MailboxStore, StoredMailbox } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
export class DynamoMailboxStore implements MailboxStore {
  constructor(readonly db: DynamoDBDocumentClient, readonly tableName: string) {}
  get(_userId: string): Promise<StoredMailbox | undefined> { return todo(); }
  connect(_userId: string, _mailbox: StoredMailbox): Promise<void> { return todo(); }
  disconnect(_userId: string): Promise<StoredMailbox | undefined> { return todo(); }
}
