// STUB (issue 6 contract): replaced by its owner. Constructor signature is the contract.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TrackingStore } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
export class DynamoTrackingStore implements TrackingStore {
  constructor(readonly db: DynamoDBDocumentClient, readonly tableName: string) {}
  getToken = todo as TrackingStore['getToken'];
  recordOpen = todo as TrackingStore['recordOpen'];
  recordClick = todo as TrackingStore['recordClick'];
  unsubscribe = todo as TrackingStore['unsubscribe'];
  isUnsubscribed = todo as TrackingStore['isUnsubscribed'];
}
