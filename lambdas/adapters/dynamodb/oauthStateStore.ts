// STUB (issue 6 contract): replaced by its owner. Constructor signature is the contract.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OAuthStateStore } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
export class DynamoOAuthStateStore implements OAuthStateStore {
  constructor(readonly db: DynamoDBDocumentClient, readonly tableName: string) {}
  create(_nonce: string, _userId: string, _expiresAt: Date): Promise<void> { return todo(); }
  consume(_nonce: string, _now: Date): Promise<string | undefined> { return todo(); }
}
