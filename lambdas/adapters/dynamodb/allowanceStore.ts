import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { key, ttlAttribute } from '../../../schema/table';
import type { AllowanceOutcome, AllowanceWindow } from '../../core/allowance';
import type { AllowanceStore, AllowanceSubject } from '../../ports';
import { epochSeconds } from '../clock';
import { conditionFailed, reasonCodes, retryingRaces } from './races';

/** How long a window's count outlives its window (TTL): past it nothing reads it. */
const KEPT_AFTER_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The partition a subject's counts live in: the user's, or the client's (its hashed address). */
const partitionOf = (subject: AllowanceSubject) => ('userId' in subject ? key.user(subject.userId) : key.client(subject.client));

/**
 * `USER#<sub>` or `CLIENT#<hash>` / `ALLOW#<kind>#<window>` (schema/ACCESS_PATTERNS.md): one count per window, raised in one
 * transaction with a condition each, so a take counts in all of its windows or, when one is full, in none;
 * the cancellation reasons, one per window in order, tell which was full.
 */
export class DynamoAllowanceStore implements AllowanceStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async take(subject: AllowanceSubject, windows: readonly AllowanceWindow[]): Promise<AllowanceOutcome> {
    try {
      await retryingRaces(() =>
        this.db.send(
          new TransactWriteCommand({
            TransactItems: windows.map((window) => ({
              Update: {
                TableName: this.tableName,
                Key: { PK: partitionOf(subject), SK: key.allowance(subject.kind, window.name) },
                UpdateExpression: 'SET entity = :entity, #ttl = :ttl ADD used :one',
                ConditionExpression: 'attribute_not_exists(used) OR used < :most',
                ExpressionAttributeNames: { '#ttl': ttlAttribute },
                ExpressionAttributeValues: {
                  ':entity': 'allowance',
                  ':ttl': epochSeconds(new Date(window.endsAt.getTime() + KEPT_AFTER_WINDOW_MS)),
                  ':one': 1,
                  ':most': window.most,
                },
              },
            })),
          }),
        ),
      );
      return { allowed: true };
    } catch (error) {
      if (!conditionFailed(error)) throw error;
      const full = windows[reasonCodes(error).indexOf('ConditionalCheckFailed')];
      if (!full) throw error;
      return { allowed: false, full };
    }
  }
}
