import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoConfig {
  tableName: string;
  region: string;
  /** Set for DynamoDB Local; unset in AWS. */
  endpoint?: string;
}

export function makeDocumentClient(config: DynamoConfig): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.endpoint
      ? {
          endpoint: config.endpoint,
          // DynamoDB Local accepts any key made of letters and digits.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** Strip the table's key attributes from an item before it leaves the adapter. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  const { PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g2, DuePK: _d1, DueSK: _d2, entity: _e, expiresAt: _x, ...rest } = item;
  return rest as T;
}
