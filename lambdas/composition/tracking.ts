/** The tracking group's adapters. */
import { systemClock } from '../adapters/clock';
import { DynamoTrackingStore } from '../adapters/dynamodb/trackingStore';
import type { TrackingDeps } from '../http/tracking';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function trackingDeps(config: ServerConfig): TrackingDeps {
  const { db, name } = tableOf(config);
  return { tracking: new DynamoTrackingStore(db, name), clock: systemClock };
}
