// STUB (issue 6 contract): replaced by its owner. Constructor signatures are the contract.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SendQueueStore } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
export class DynamoSendQueueStore implements SendQueueStore {
  constructor(readonly db: DynamoDBDocumentClient, readonly tableName: string, readonly options: { intervalMs: number }) {}
  queueBatch = todo as SendQueueStore['queueBatch'];
  pause = todo as SendQueueStore['pause'];
  resume = todo as SendQueueStore['resume'];
  usage = todo as SendQueueStore['usage'];
  pitchedAddressIds = todo as SendQueueStore['pitchedAddressIds'];
  listRecipients = todo as SendQueueStore['listRecipients'];
  getRecipient = todo as SendQueueStore['getRecipient'];
}
export class DynamoSenderStore {
  constructor(readonly db: DynamoDBDocumentClient, readonly tableName: string, readonly options: { intervalMs: number }) {}
}
