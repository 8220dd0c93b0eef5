/**
 * The signed GET URLs of a configuration's audio (issue 16; the listen page's player and download):
 * S3's, signed without the S3 client, in AWS; the local folder's otherwise. Apart from audio.ts, whose
 * AudioStore imports the S3 client on first use: esbuild bundles an `import()` target even where it is
 * never called, so the listen group must not import that module.
 */
import { LocalAudioStore, localAudioFolder } from '../adapters/local-audio/localAudioStore';
import { localKeys } from '../adapters/local-secrets/localKeys';
import { S3GetUrlSigner } from '../adapters/s3/s3GetUrlSigner';
import { DomainError } from '../core/errors';
import type { AudioUrls } from '../ports';
import type { ServerConfig } from './config';

/** Every audio call of an S3 configuration without a bucket: a 503 naming the setting. */
export const unconfiguredAudio = (): Promise<never> =>
  Promise.reject(new DomainError('unavailable', 'Track uploads are not configured: AUDIO_BUCKET_NAME is not set (see docs/deploy.md).'));

/** The local runtime's store: the folder of its data folder, policies signed with its local key. */
export const localAudioStore = (config: Pick<ServerConfig, 'localDataDir' | 'appUrl'>) =>
  new LocalAudioStore({ folder: localAudioFolder(config.localDataDir), signingKey: localKeys(config.localDataDir).audioSigningKey, appUrl: config.appUrl });

export function audioUrlsOf(config: ServerConfig): AudioUrls {
  if (config.audio !== 's3') return localAudioStore(config);
  const bucket = config.audioBucketName;
  if (!bucket) return { signedGetUrl: unconfiguredAudio };
  return S3GetUrlSigner.forRegion(config.region, bucket);
}
