/** The profile group's adapters. */
import { systemClock } from '../adapters/clock';
import { DynamoProfileStore } from '../adapters/dynamodb/profileStore';
import { DynamoSendingUsage } from '../adapters/dynamodb/sending/usage';
import type { ProfileDeps } from '../http/profile';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function profileDeps(config: ServerConfig): ProfileDeps {
  const { db, name } = tableOf(config);
  return {
    profiles: new DynamoProfileStore(db, name),
    clock: systemClock,
    sendQueue: new DynamoSendingUsage(db, name),
  };
}
