/**
 * The tracks group's adapters (issue 16): the table's track items, the AudioStore (a private S3 bucket
 * in AWS, the local folder otherwise) and the music-metadata inspector. The S3 client and
 * music-metadata are imported on first use, so a cold start of the list route pays for neither.
 */
import { systemClock } from '../adapters/clock';
import { DynamoTrackStore } from '../adapters/dynamodb/trackStore';
import { LocalAudioStore, localAudioFolder } from '../adapters/local-audio/localAudioStore';
import { localKeys } from '../adapters/local-secrets/localKeys';
import { ulidGenerator } from '../adapters/ulid';
import { DomainError } from '../core/errors';
import type { TracksDeps } from '../http/tracks';
import type { AudioInspector, AudioStore } from '../ports';
import type { ServerConfig } from './config';
import { lazyAdapter } from './lazy';
import { tableOf } from './table';

const AUDIO_STORE_METHODS = ['presignUpload', 'head', 'read', 'promote', 'delete', 'signedGetUrl'] as const;

const unconfigured = (): Promise<never> =>
  Promise.reject(new DomainError('unavailable', 'Track uploads are not configured: AUDIO_BUCKET_NAME is not set (see docs/deploy.md).'));

/** The local runtime's store: the folder of its data folder, policies signed with its local key. */
export const localAudioStore = (config: Pick<ServerConfig, 'localDataDir' | 'appUrl'>) =>
  new LocalAudioStore({ folder: localAudioFolder(config.localDataDir), signingKey: localKeys(config.localDataDir).audioSigningKey, appUrl: config.appUrl });

export function audioStoreOf(config: ServerConfig): AudioStore {
  if (config.audio !== 's3') return localAudioStore(config);
  const bucket = config.audioBucketName;
  if (!bucket) return Object.fromEntries(AUDIO_STORE_METHODS.map((name) => [name, unconfigured])) as unknown as AudioStore;
  return lazyAdapter(() => import('../adapters/s3/s3AudioStore').then((m) => m.S3AudioStore.forRegion(config.region, bucket)), AUDIO_STORE_METHODS);
}

export function tracksDeps(config: ServerConfig): TracksDeps {
  const { db, name } = tableOf(config);
  const inspector: AudioInspector = lazyAdapter(() => import('../adapters/audioInspector').then((m) => m.musicMetadataInspector), ['inspect']);
  return { tracks: new DynamoTrackStore(db, name), audio: audioStoreOf(config), inspector, ids: ulidGenerator(), clock: systemClock };
}
