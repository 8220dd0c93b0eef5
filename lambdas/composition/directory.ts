/** The directory group's adapters. */
import { systemClock } from '../adapters/clock';
import { DynamoContactStore } from '../adapters/dynamodb/contactStore';
import { DynamoDirectoryStore } from '../adapters/dynamodb/directoryStore';
import { DynamoProfileStore } from '../adapters/dynamodb/profileStore';
import { ulidGenerator } from '../adapters/ulid';
import type { DirectoryDeps } from '../http/directory';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function directoryDeps(config: ServerConfig): DirectoryDeps {
  const { db, name } = tableOf(config);
  const contacts = new DynamoContactStore(db, name);
  return {
    directory: new DynamoDirectoryStore(db, name, { ids: ulidGenerator(), contacts }),
    contacts,
    profiles: new DynamoProfileStore(db, name),
    clock: systemClock,
  };
}
