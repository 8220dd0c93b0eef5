import { describe, expect, it } from 'vitest';
import { LocalAudioStore } from '../../lambdas/adapters/local-audio/localAudioStore';
import { audioStoreOf } from '../../lambdas/composition/audio';
import { exportStoreOf } from '../../lambdas/composition/exports';
import type { ServerConfig } from '../../lambdas/composition/config';
import { DomainError } from '../../lambdas/core/errors';

const config: ServerConfig = {
  tableName: 't',
  region: 'eu-west-1',
  writer: 'local',
  mailbox: 'local',
  billing: 'local',
  appUrl: 'http://127.0.0.1:3000',
  intervalMs: 60_000,
};

describe('the tracks composition', () => {
  it('keeps audio in the local folder unless the config says S3', () => {
    expect(audioStoreOf(config)).toBeInstanceOf(LocalAudioStore);
    expect(audioStoreOf({ ...config, audio: 'local' })).toBeInstanceOf(LocalAudioStore);
  });

  it('answers 503 naming AUDIO_BUCKET_NAME when S3 has no bucket configured', async () => {
    const store = audioStoreOf({ ...config, audio: 's3' });
    const upload = store.presignUpload({ key: 'tracks/u/1', contentType: 'audio/wav', maxBytes: 1, expiresInSeconds: 60, now: new Date() });
    await expect(upload).rejects.toBeInstanceOf(DomainError);
    await expect(upload).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringContaining('AUDIO_BUCKET_NAME') as string });
    await expect(store.head('tracks/u/1')).rejects.toMatchObject({ kind: 'unavailable' });
  });
});

describe('the data export composition', () => {
  it('writes the zip to the local folder unless the config says S3', () => {
    expect(exportStoreOf(config)).toBeInstanceOf(LocalAudioStore);
  });

  it('answers 503 naming AUDIO_BUCKET_NAME and the export when S3 has no bucket configured', async () => {
    const write = exportStoreOf({ ...config, audio: 's3' }).write('exports/u/1', (async function* () {})(), { contentType: 'application/zip' });
    await expect(write).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringMatching(/^Downloading your data .*AUDIO_BUCKET_NAME/) as string,
    });
  });
});
