import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { key, ttlAttribute } from '../../../schema/table';
import type { WrittenEmail, WrittenEmailStore } from '../../ports';

/** Kept long enough for any draft to be sent; a rewritten draft's old emails simply expire. */
const RETENTION_SECONDS = 180 * 24 * 60 * 60;

/**
 * `CAMPAIGN#<id>` / `WRITTEN#<request hash>` (schema/ACCESS_PATTERNS.md). The caller has already found
 * the campaign under the user's own partition, so the campaign id here is one the user owns.
 */
export class DynamoWrittenEmailStore implements WrittenEmailStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private key(campaignId: string, requestKey: string) {
    return { PK: key.campaignPartition(campaignId), SK: key.writtenEmail(requestKey) };
  }

  async get(campaignId: string, requestKey: string): Promise<WrittenEmail | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.key(campaignId, requestKey), ConsistentRead: true }));
    return Item ? { subject: String(Item.subject), body: String(Item.body) } : undefined;
  }

  async putIfAbsent(campaignId: string, requestKey: string, email: WrittenEmail, now: Date): Promise<WrittenEmail> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...this.key(campaignId, requestKey),
            entity: 'written_email',
            subject: email.subject,
            body: email.body,
            written_at: now.toISOString(),
            [ttlAttribute]: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
      return email;
    } catch (error) {
      // Two previews of the same recipient raced: both show the one stored first.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const stored = await this.get(campaignId, requestKey);
      if (!stored) throw error;
      return stored;
    }
  }
}
