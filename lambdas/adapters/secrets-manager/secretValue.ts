/**
 * Secrets Manager reads (AWS): the Google client secret and the OAuth state signing key. Each secret is
 * read once per Lambda container (a failed read is not cached, so the next request tries again).
 */
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { OAuthStateKeySource } from '../../ports';

const cache = new Map<string, Promise<string>>();

/** A secret's SecretString, read once per container. */
export function cachedSecretString(client: SecretsManagerClient, name: string): Promise<string> {
  let value = cache.get(name);
  if (!value) {
    value = client.send(new GetSecretValueCommand({ SecretId: name })).then(({ SecretString }) => {
      if (!SecretString) throw new Error(`The secret ${name} has no string value.`);
      return SecretString;
    });
    value.catch(() => cache.delete(name));
    cache.set(name, value);
  }
  return value;
}

/** Shorter keys are refused: HMAC-SHA256 wants at least 256 bits (the CDK secret is a long random string). */
export const MIN_OAUTH_STATE_KEY_BYTES = 32;

/** The OAuth state HMAC key: the bytes of the secret's string. */
export class SecretsManagerOAuthStateKey implements OAuthStateKeySource {
  constructor(
    readonly client: SecretsManagerClient,
    readonly secretName: string,
  ) {}

  async key(): Promise<Buffer> {
    const key = Buffer.from(await cachedSecretString(this.client, this.secretName), 'utf8');
    if (key.length < MIN_OAUTH_STATE_KEY_BYTES) throw new Error(`The secret ${this.secretName} is shorter than ${MIN_OAUTH_STATE_KEY_BYTES} bytes.`);
    return key;
  }
}
