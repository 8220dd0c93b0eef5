// STUB (issue 6 contract): replaced by its owner. Signature is the contract: one set of keys per data
// folder (a file in it) or, without one, per process (in memory); the same object on every call.
import type { OAuthStateKeySource, SecretBox } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
export function localKeys(_dataDir: string | undefined): { secretBox: SecretBox; oauthStateKey: OAuthStateKeySource } {
  return { secretBox: { seal: todo, open: todo }, oauthStateKey: { key: todo } };
}
