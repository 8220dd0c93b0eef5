// STUB (issue 6 contract): replaced by its owner. Constructor signature is the contract.
import type { Clock, Mailer, OutboxStore } from '../../ports';
const todo = (): never => { throw new Error('not implemented yet'); };
export class LocalMailer implements Mailer {
  constructor(readonly outbox: OutboxStore, readonly clock: Clock) {}
  send = todo as Mailer['send'];
}
