/**
 * The listen group's adapters (issue 16): the token items, the listen counters, the track items and
 * the AudioStore's signed GET (S3 in AWS, imported on first use; the local folder otherwise).
 */
import { systemClock } from '../adapters/clock';
import { DynamoListenStore } from '../adapters/dynamodb/listenStore';
import { DynamoTrackingStore } from '../adapters/dynamodb/trackingStore';
import { DynamoTrackStore } from '../adapters/dynamodb/trackStore';
import type { ListenDeps } from '../http/listen';
import type { ServerConfig } from './config';
import { tableOf } from './table';
import { audioStoreOf } from './audio';

export function listenDeps(config: ServerConfig): ListenDeps {
  const { db, name } = tableOf(config);
  return {
    tokens: new DynamoTrackingStore(db, name),
    listen: new DynamoListenStore(db, name),
    tracks: new DynamoTrackStore(db, name),
    audio: audioStoreOf(config),
    clock: systemClock,
  };
}
