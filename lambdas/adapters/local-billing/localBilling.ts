/**
 * PLACEHOLDER (issue 14): the local billing twin is written on another branch (HB2) and replaces this file
 * at merge. It exists so the billing composition compiles; every call fails.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BillingProvider, CheckoutSessionInput, Clock, ProviderSubscription } from '../../ports';

const notImplemented = (): never => {
  throw new Error('LocalBilling is not implemented on this branch');
};

export class LocalBilling implements BillingProvider {
  constructor(readonly deps: { db: DynamoDBDocumentClient; tableName: string; appUrl: string; clock: Clock }) {}

  createCustomer(_input: { userId: string; email: string }): Promise<string> {
    return Promise.resolve().then(notImplemented);
  }
  createCheckoutSession(_input: CheckoutSessionInput): Promise<string> {
    return Promise.resolve().then(notImplemented);
  }
  createPortalSession(_input: { customerId: string; returnUrl: string }): Promise<string> {
    return Promise.resolve().then(notImplemented);
  }
  currentSubscription(_customerId: string): Promise<ProviderSubscription | null> {
    return Promise.resolve().then(notImplemented);
  }
}
