// STUB (issue 6 contract): replaced by its owner. Constructor signature is the contract.
import type { Mailer } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
export class GmailMailer implements Mailer {
  constructor(readonly client: { clientId: string; clientSecret: () => Promise<string> }) {}
  send = todo as Mailer['send'];
}
