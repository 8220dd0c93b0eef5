/** The admin group's adapters. */
import { systemClock } from '../adapters/clock';
import { DynamoContactStore } from '../adapters/dynamodb/contactStore';
import { DynamoDirectoryStore } from '../adapters/dynamodb/directoryStore';
import { DynamoWaitlistStore } from '../adapters/dynamodb/waitlistStore';
import { ulidGenerator } from '../adapters/ulid';
import type { AdminDeps } from '../http/admin';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function adminDeps(config: ServerConfig): AdminDeps {
  const { db, name } = tableOf(config);
  const ids = ulidGenerator();
  return {
    waitlist: new DynamoWaitlistStore(db, name),
    directory: new DynamoDirectoryStore(db, name, { ids, contacts: new DynamoContactStore(db, name) }),
    clock: systemClock,
  };
}
