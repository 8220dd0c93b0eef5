/** The sending group's adapters. */
import { systemClock } from '../adapters/clock';
import { DynamoCampaignStore } from '../adapters/dynamodb/campaignStore';
import { DynamoContactStore } from '../adapters/dynamodb/contactStore';
import { DynamoPitchStore } from '../adapters/dynamodb/pitchStore';
import { DynamoProfileStore } from '../adapters/dynamodb/profileStore';
import { DynamoSendQueueStore } from '../adapters/dynamodb/sending/queue';
import { DynamoTrackingStore } from '../adapters/dynamodb/trackingStore';
import { DynamoTrackStore } from '../adapters/dynamodb/trackStore';
import { DynamoUnsubscribeStore } from '../adapters/dynamodb/unsubscribeStore';
import { ulidGenerator } from '../adapters/ulid';
import type { SendingDeps } from '../http/sending';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function sendingDeps(config: ServerConfig): SendingDeps {
  const { db, name } = tableOf(config);
  return {
    campaigns: new DynamoCampaignStore(db, name, { ids: ulidGenerator() }),
    contacts: new DynamoContactStore(db, name),
    profiles: new DynamoProfileStore(db, name),
    unsubscribes: new DynamoUnsubscribeStore(db, name),
    sendQueue: new DynamoSendQueueStore(db, name, { intervalMs: config.intervalMs }),
    tracking: new DynamoTrackingStore(db, name),
    tracks: new DynamoTrackStore(db, name),
    pitches: new DynamoPitchStore(db, name),
    clock: systemClock,
    intervalMs: config.intervalMs,
    ...(config.followUpDayMs !== undefined ? { followUpDayMs: config.followUpDayMs } : {}),
  };
}
