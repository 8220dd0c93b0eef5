/** The outbox group's adapters: the local mailbox's sent folder (none unless the local mailbox sends). */
import { DynamoOutboxStore } from '../adapters/dynamodb/outboxStore';
import { ulidGenerator } from '../adapters/ulid';
import type { OutboxDeps } from '../http/outbox';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function outboxDeps(config: ServerConfig): OutboxDeps {
  if (config.mailbox !== 'local') return { outbox: undefined };
  const { db, name } = tableOf(config);
  return { outbox: new DynamoOutboxStore(db, name, { ids: ulidGenerator() }) };
}
