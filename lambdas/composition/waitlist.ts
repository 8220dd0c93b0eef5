/** The waitlist group's adapters. */
import { systemClock } from '../adapters/clock';
import { DynamoWaitlistStore } from '../adapters/dynamodb/waitlistStore';
import { ulidGenerator } from '../adapters/ulid';
import type { WaitlistDeps } from '../http/waitlist';
import type { ServerConfig } from './config';
import { tableOf } from './table';
import { clientLimitOf } from './clientLimit';

export function waitlistDeps(config: ServerConfig): WaitlistDeps {
  const { db, name } = tableOf(config);
  return { waitlist: new DynamoWaitlistStore(db, name), clock: systemClock, ids: ulidGenerator(), clientLimit: clientLimitOf(config) };
}
