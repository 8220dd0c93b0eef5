/** The campaigns group's adapters: the only API group with the AI writer and the HTML sanitizer. */
import { systemClock } from '../adapters/clock';
import { DynamoAllowanceStore } from '../adapters/dynamodb/allowanceStore';
import { DynamoCampaignStore } from '../adapters/dynamodb/campaignStore';
import { DynamoContactStore } from '../adapters/dynamodb/contactStore';
import { DynamoPitchStore } from '../adapters/dynamodb/pitchStore';
import { DynamoProfileStore } from '../adapters/dynamodb/profileStore';
import { DynamoTrackStore } from '../adapters/dynamodb/trackStore';
import { DynamoWrittenEmailStore } from '../adapters/dynamodb/writtenEmailStore';
import { DomPurifySanitizer } from '../adapters/html/domPurifySanitizer';
import { ulidGenerator } from '../adapters/ulid';
import type { CampaignsDeps } from '../http/campaigns';
import type { ServerConfig } from './config';
import { tableOf } from './table';
import { makeWriter } from './writer';

export function campaignsDeps(config: ServerConfig): CampaignsDeps {
  const { db, name } = tableOf(config);
  return {
    campaigns: new DynamoCampaignStore(db, name, { ids: ulidGenerator() }),
    contacts: new DynamoContactStore(db, name),
    profiles: new DynamoProfileStore(db, name),
    writer: makeWriter(config),
    // Loads jsdom and builds its DOM on first use (jsdom is installed beside this function only).
    sanitizer: new DomPurifySanitizer(),
    written: new DynamoWrittenEmailStore(db, name),
    tracks: new DynamoTrackStore(db, name),
    allowances: new DynamoAllowanceStore(db, name),
    pitches: new DynamoPitchStore(db, name),
    clock: systemClock,
  };
}
