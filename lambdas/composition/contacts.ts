/** The contacts group's adapters. */
import { systemClock } from '../adapters/clock';
import { DynamoContactStore } from '../adapters/dynamodb/contactStore';
import { DynamoUnsubscribeStore } from '../adapters/dynamodb/unsubscribeStore';
import type { ContactsDeps } from '../http/contacts';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function contactsDeps(config: ServerConfig): ContactsDeps {
  const { db, name } = tableOf(config);
  return { contacts: new DynamoContactStore(db, name), unsubscribes: new DynamoUnsubscribeStore(db, name), clock: systemClock };
}
