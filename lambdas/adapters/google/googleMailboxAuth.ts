// STUB (issue 6 contract): replaced by its owner. Constructor signature is the contract.
import type { MailboxAuthProvider } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
export class GoogleMailboxAuth implements MailboxAuthProvider {
  constructor(readonly client: { clientId: string; clientSecret: () => Promise<string> }) {}
  authorizationUrl = todo as MailboxAuthProvider['authorizationUrl'];
  exchangeCode = todo as MailboxAuthProvider['exchangeCode'];
  revoke = todo as MailboxAuthProvider['revoke'];
}
