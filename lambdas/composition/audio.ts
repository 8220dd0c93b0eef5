/**
 * The AudioStore of a configuration (issue 16): a private S3 bucket in AWS (the S3 client imported on
 * first use), the local data folder otherwise: the tracks group's (apart from its composition, which
 * adds the audio inspector). The listen group's signed GET URLs (AudioUrls) are audioUrls.ts's.
 */
import type { AudioStore } from '../ports';
import { localAudioStore, unconfiguredAudio } from './localAudio';
import type { ServerConfig } from './config';
import { lazyAdapter } from './lazy';

export { localAudioStore } from './localAudio';

const AUDIO_STORE_METHODS = ['presignUpload', 'head', 'read', 'promote', 'delete'] as const;

export function audioStoreOf(config: ServerConfig): AudioStore {
  if (config.audio !== 's3') return localAudioStore(config);
  const bucket = config.audioBucketName;
  if (!bucket) return Object.fromEntries(AUDIO_STORE_METHODS.map((name) => [name, unconfiguredAudio])) as unknown as AudioStore;
  return lazyAdapter(() => import('../adapters/s3/s3AudioStore').then((m) => m.S3AudioStore.forRegion(config.region, bucket)), AUDIO_STORE_METHODS);
}
