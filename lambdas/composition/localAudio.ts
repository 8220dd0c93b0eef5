/**
 * What both audio compositions share (issue 16), apart from either adapter over S3: the local folder's
 * store, and the answer of an S3 configuration without a bucket. audio.ts (the tracks group's store,
 * the S3 client on first use) and audioUrls.ts (the listen group's signed GETs, the SigV4 signer) each
 * import this, so neither group bundles the other's S3 adapter.
 */
import { LocalAudioStore, localAudioFolder } from '../adapters/local-audio/localAudioStore';
import { localKeys } from '../adapters/local-secrets/localKeys';
import { notConfiguredMessage } from '../../schema/api/serverMessages';
import type { ServerConfig } from './config';
import { notConfigured } from './notConfigured';

/** Every audio call of an S3 configuration without a bucket: a 503 naming the setting. */
export const unconfiguredAudio = notConfigured(notConfiguredMessage('Uploading tracks', ['AUDIO_BUCKET_NAME'], 'What gets created'));

/** The local runtime's store: the folder of its data folder, policies signed with its local key. */
export const localAudioStore = (config: Pick<ServerConfig, 'localDataDir' | 'appUrl'>) =>
  new LocalAudioStore({ folder: localAudioFolder(config.localDataDir), signingKey: localKeys(config.localDataDir).audioSigningKey, appUrl: config.appUrl });
