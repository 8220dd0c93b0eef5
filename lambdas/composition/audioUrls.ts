/**
 * The signed GET URLs of a configuration's audio (issue 16; the listen page's player and download):
 * S3's, signed without the S3 client, in AWS; the local folder's otherwise. Apart from audio.ts, whose
 * AudioStore imports the S3 client on first use: esbuild bundles an `import()` target even where it is
 * never called, so the listen group must not import that module.
 */
import { S3GetUrlSigner } from '../adapters/s3/s3GetUrlSigner';
import type { AudioUrls } from '../ports';
import type { ServerConfig } from './config';
import { localAudioStore, unconfiguredAudio } from './localAudio';

export function audioUrlsOf(config: ServerConfig): AudioUrls {
  if (config.audio !== 's3') return localAudioStore(config);
  const bucket = config.audioBucketName;
  if (!bucket) return { signedGetUrl: unconfiguredAudio };
  return S3GetUrlSigner.forRegion(config.region, bucket);
}
