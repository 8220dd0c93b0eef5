/** Where refresh tokens are sealed and opened (mailbox and sender only: it brings the KMS SDK). */
import { localKeys } from '../adapters/local-secrets/localKeys';
import { notConfiguredMessage } from '../../schema/api/serverMessages';
import type { SecretBox } from '../ports';
import type { ServerConfig } from './config';
import { lazyAdapter } from './lazy';
import { notConfigured } from './notConfigured';

/** KMS in AWS (TOKEN_KEY_ID), loaded by the first seal or open; the local key locally. */
export function makeSecretBox(config: ServerConfig): SecretBox {
  if (config.mailbox === 'local') return localKeys(config.localDataDir).secretBox;
  const { region, tokenKeyId } = config;
  if (!tokenKeyId) {
    const missing = notConfigured(notConfiguredMessage('Gmail sending', ['TOKEN_KEY_ID'], 'Gmail sending'));
    return { seal: missing, open: missing };
  }
  return lazyAdapter(async () => {
    const [{ KMSClient }, { KmsSecretBox }] = await Promise.all([import('@aws-sdk/client-kms'), import('../adapters/kms/kmsSecretBox')]);
    return new KmsSecretBox(new KMSClient({ region }), tokenKeyId);
  }, ['seal', 'open']);
}
