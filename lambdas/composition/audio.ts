/**
 * The AudioStore of a configuration (issue 16): a private S3 bucket in AWS (the S3 client imported on
 * first use), the local data folder otherwise. Shared by the tracks group and the listen group; apart
 * from the tracks composition so the listen bundle carries no audio inspector.
 */
import { LocalAudioStore, localAudioFolder } from '../adapters/local-audio/localAudioStore';
import { localKeys } from '../adapters/local-secrets/localKeys';
import { DomainError } from '../core/errors';
import type { AudioStore } from '../ports';
import type { ServerConfig } from './config';
import { lazyAdapter } from './lazy';

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
