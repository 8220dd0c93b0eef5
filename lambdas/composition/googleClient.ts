/** The Google OAuth client in AWS (mailbox and sender): its id, and its secret read from Secrets Manager on first use. */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { cachedSecretString } from '../adapters/secrets-manager/secretValue';
import type { ServerConfig } from './config';

/** One Secrets Manager client per composition, built on first use. */
export function secretsManagerOf(config: Pick<ServerConfig, 'region'>): () => SecretsManagerClient {
  let client: SecretsManagerClient | undefined;
  return () => (client ??= new SecretsManagerClient({ region: config.region }));
}

export function googleClient(config: ServerConfig, secretsManager: () => SecretsManagerClient) {
  const { googleClientId, googleClientSecretName } = config;
  if (!googleClientId || !googleClientSecretName) return undefined;
  return { clientId: googleClientId, clientSecret: () => cachedSecretString(secretsManager(), googleClientSecretName) };
}
