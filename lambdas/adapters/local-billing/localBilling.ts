/**
 * PLACEHOLDER (issue 14): the local billing twin is written on another branch (HB2) and replaces this file
 * at merge. It exists so the billing composition compiles; every call fails.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BillingProvider, Clock, ProviderSubscription } from '../../ports';

const notImplemented = (): never => {
  throw new Error('LocalBilling is not implemented on this branch');
};

export class LocalBilling implements BillingProvider {
  constructor(readonly deps: { db: DynamoDBDocumentClient; tableName: string; appUrl: string; clock: Clock }) {}

  createCustomer(): Promise<string> {
    return Promise.resolve().then(notImplemented);
  }
  createCheckoutSession(): Promise<string> {
    return Promise.resolve().then(notImplemented);
  }
  createPortalSession(): Promise<string> {
    return Promise.resolve().then(notImplemented);
  }
  currentSubscription(): Promise<ProviderSubscription | null> {
    return Promise.resolve().then(notImplemented);
  }
}
