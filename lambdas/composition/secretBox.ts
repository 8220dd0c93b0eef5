/** Where refresh tokens are sealed and opened (mailbox and sender only: it brings the KMS SDK). */
import { KMSClient } from '@aws-sdk/client-kms';
import { KmsSecretBox } from '../adapters/kms/kmsSecretBox';
import { localKeys } from '../adapters/local-secrets/localKeys';
import type { SecretBox } from '../ports';
import type { ServerConfig } from './config';
import { notConfigured } from './notConfigured';

/** KMS in AWS (TOKEN_KEY_ID), the local key locally. */
export function makeSecretBox(config: ServerConfig): SecretBox {
  if (config.mailbox === 'local') return localKeys(config.localDataDir).secretBox;
  return config.tokenKeyId
    ? new KmsSecretBox(new KMSClient({ region: config.region }), config.tokenKeyId)
    : { seal: notConfigured('TOKEN_KEY_ID'), open: notConfigured('TOKEN_KEY_ID') };
}
