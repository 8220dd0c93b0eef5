// STUB (issue 6 contract): replaced by its owner. Signatures are the contract.
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { OAuthStateKeySource } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
/** A secret's SecretString, read once per container. */
export function cachedSecretString(_client: SecretsManagerClient, _name: string): Promise<string> { return todo(); }
export class SecretsManagerOAuthStateKey implements OAuthStateKeySource {
  constructor(readonly client: SecretsManagerClient, readonly secretName: string) {}
  key = todo as OAuthStateKeySource['key'];
}
