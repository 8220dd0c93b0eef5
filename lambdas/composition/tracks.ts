/**
 * The tracks group's adapters (issue 16): the table's track items, the AudioStore (a private S3 bucket
 * in AWS, the local folder otherwise) and the music-metadata inspector. The S3 client and
 * music-metadata are imported on first use, so a cold start of the list route pays for neither.
 */
import { systemClock } from '../adapters/clock';
import { DynamoCampaignStore } from '../adapters/dynamodb/campaignStore';
import { DynamoTrackStore } from '../adapters/dynamodb/trackStore';
import { ulidGenerator } from '../adapters/ulid';
import type { TracksDeps } from '../http/tracks';
import type { AudioInspector } from '../ports';
import { audioStoreOf } from './audio';
import type { ServerConfig } from './config';
import { lazyAdapter } from './lazy';
import { tableOf } from './table';

export function tracksDeps(config: ServerConfig): TracksDeps {
  const { db, name } = tableOf(config);
  const inspector: AudioInspector = lazyAdapter(() => import('../adapters/audioInspector').then((m) => m.musicMetadataInspector), ['inspect']);
  return {
    tracks: new DynamoTrackStore(db, name),
    campaigns: new DynamoCampaignStore(db, name, { ids: ulidGenerator() }),
    audio: audioStoreOf(config),
    inspector,
    ids: ulidGenerator(),
    clock: systemClock,
  };
}
