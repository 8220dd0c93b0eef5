/**
 * The data export's writer of a configuration (issue 26 §3; ExportStore): the audio bucket's multipart
 * upload in AWS (the S3 client imported on first use), the local audio folder otherwise. Apart from
 * audio.ts: esbuild bundles an `import()` target even where it is never called, so the tracks group,
 * which composes audio.ts, must not reach the export writer.
 */
import type { ExportStore } from '../ports';
import type { ServerConfig } from './config';
import { notConfiguredMessage } from '../../schema/api/serverMessages';
import { lazyAdapter } from './lazy';
import { localAudioStore } from './localAudio';
import { notConfigured } from './notConfigured';

export function exportStoreOf(config: ServerConfig): ExportStore {
  if (config.audio !== 's3') return localAudioStore(config);
  const bucket = config.audioBucketName;
  if (!bucket) return { write: notConfigured(notConfiguredMessage('Downloading your data', ['AUDIO_BUCKET_NAME'], 'What gets created')) };
  return lazyAdapter(() => import('../adapters/s3/s3ExportStore').then((m) => m.S3ExportStore.forRegion(config.region, bucket)), ['write']);
}
