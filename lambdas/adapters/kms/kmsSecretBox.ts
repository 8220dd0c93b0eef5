// STUB (issue 6 contract): replaced by its owner. Constructor signature is the contract.
import type { KMSClient } from '@aws-sdk/client-kms';
import type { SecretBox } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
export class KmsSecretBox implements SecretBox {
  constructor(readonly kms: KMSClient, readonly keyId: string) {}
  seal = todo as SecretBox['seal'];
  open = todo as SecretBox['open'];
}
