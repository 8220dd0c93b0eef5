import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The credentials every local engine is called with (DynamoDB Local, cognito-local, and the "AWS"
 * clients cognito-local itself builds). DynamoDB Local accepts any key made only of letters and
 * digits; cognito-local checks none. The one place they are spelled.
 */
export const LOCAL_CREDENTIALS: Readonly<{ accessKeyId: string; secretAccessKey: string }> = {
  accessKeyId: 'local',
  secretAccessKey: 'local',
};

/** A copy for one SDK client: the SDK marks the credentials object it is given (so never share or freeze it). */
export const localCredentials = () => ({ ...LOCAL_CREDENTIALS });

export interface DynamoClientConfig {
  region: string;
  /** Set for DynamoDB Local (the local credentials are used with it); unset in AWS. */
  endpoint?: string | undefined;
  /** The SDK's attempts per request (default: the SDK's, 3). */
  maxAttempts?: number;
}

export interface DynamoConfig extends DynamoClientConfig {
  /** Not needed to build a client; callers pass their whole table config along. */
  tableName?: string;
}

/** The one builder of raw DynamoDB clients: AWS (default credentials chain) or DynamoDB Local. */
export function makeDynamoDbClient(config: DynamoClientConfig): DynamoDBClient {
  return new DynamoDBClient({
    region: config.region,
    ...(config.maxAttempts !== undefined ? { maxAttempts: config.maxAttempts } : {}),
    ...(config.endpoint ? { endpoint: config.endpoint, credentials: localCredentials() } : {}),
  });
}

/**
 * The document client every adapter uses, with the marshalling they expect: over a new client for
 * `config`, or over an existing raw client (to share its connections).
 */
export function makeDocumentClient(config: DynamoConfig | DynamoDBClient): DynamoDBDocumentClient {
  const client = config instanceof DynamoDBClient ? config : makeDynamoDbClient(config);
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** The attributes the table adds to every item for its keys, indexes and expiry. */
const TABLE_ATTRIBUTES: ReadonlySet<string> = new Set(['PK', 'SK', 'GSI1PK', 'GSI1SK', 'DuePK', 'DueSK', 'entity', 'expiresAt']);

/**
 * Strip the table's key attributes (and any `alsoDrop`) from an item before it leaves the adapter,
 * taking the rest as the `T` the adapter stored.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the one typed read of a stored item: the adapter names the type it wrote
export function withoutKeys<T>(item: Record<string, unknown>, alsoDrop: readonly string[] = []): T {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !TABLE_ATTRIBUTES.has(name) && !alsoDrop.includes(name))) as T;
}

/**
 * The item an UpdateItem with ReturnValues ALL_NEW hands back. DynamoDB always returns it on
 * success; a missing one is a broken contract, named as such rather than read as undefined.
 */
export function updatedItem(attributes: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!attributes) throw new Error('DynamoDB returned no attributes for an UpdateItem with ReturnValues ALL_NEW');
  return attributes;
}
