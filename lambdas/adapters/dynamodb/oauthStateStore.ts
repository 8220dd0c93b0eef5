/**
 * Pending mailbox consents (`OAUTHSTATE#<nonce>` / `OAUTHSTATE`): the nonce of each signed state and the
 * user it was made for. Consuming deletes the item in the same request that reads it, so a state works
 * once (DESIGN §5); DynamoDB's TTL removes the ones never used.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { key, ttlAttribute } from '../../../schema/table';
import type { OAuthStateStore } from '../../ports';
import { epochSeconds } from '../clock';

/** The TTL attribute holds epoch seconds. */

export class DynamoOAuthStateStore implements OAuthStateStore {
  constructor(
    readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  private stateKey(nonce: string) {
    return { PK: key.oauthStatePartition(nonce), SK: key.oauthStateSort() };
  }

  async create(nonce: string, userId: string, expiresAt: Date): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...this.stateKey(nonce), entity: 'oauthState', userId, [ttlAttribute]: epochSeconds(expiresAt) },
        // A 256-bit nonce never repeats; if one did, the first consent must not be taken over.
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async consume(nonce: string, now: Date): Promise<string | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: this.stateKey(nonce),
          // TTL deletion is lazy (up to days): an expired item must not count as pending.
          ConditionExpression: 'attribute_exists(PK) AND #expiresAt > :now',
          ExpressionAttributeNames: { '#expiresAt': ttlAttribute },
          ExpressionAttributeValues: { ':now': epochSeconds(now) },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return typeof Attributes?.userId === 'string' ? Attributes.userId : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}
