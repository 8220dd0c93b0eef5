/** The compose group's adapters (templates and saved recipient lists). */
import { systemClock } from '../adapters/clock';
import { DynamoContactListStore } from '../adapters/dynamodb/contactListStore';
import { DynamoTemplateStore } from '../adapters/dynamodb/templateStore';
import { ulidGenerator } from '../adapters/ulid';
import type { ComposeDeps } from '../http/compose';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function composeDeps(config: ServerConfig): ComposeDeps {
  const { db, name } = tableOf(config);
  const ids = ulidGenerator();
  return { templates: new DynamoTemplateStore(db, name, { ids }), contactLists: new DynamoContactListStore(db, name, { ids }), clock: systemClock };
}
