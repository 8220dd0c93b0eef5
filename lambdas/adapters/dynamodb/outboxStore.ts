// STUB (issue 6 contract): replaced by its owner. Constructor signature is the contract.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IdGenerator, OutboxStore } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
export class DynamoOutboxStore implements OutboxStore {
  constructor(readonly db: DynamoDBDocumentClient, readonly tableName: string, readonly options: { ids: IdGenerator }) {}
  add = todo as OutboxStore['add'];
  list = todo as OutboxStore['list'];
  get = todo as OutboxStore['get'];
}
