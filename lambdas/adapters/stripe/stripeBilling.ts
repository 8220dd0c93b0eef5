/**
 * PLACEHOLDER (issue 14): the Stripe adapter is written on another branch (HB2) and replaces this file at
 * merge. It exists so the billing composition compiles and bundles; every call fails.
 */
import type Stripe from 'stripe';
import type { BillingProvider, ProviderSubscription } from '../../ports';

const notImplemented = (): never => {
  throw new Error('StripeBilling is not implemented on this branch');
};

export class StripeBilling implements BillingProvider {
  constructor(
    readonly stripe: Stripe,
    readonly options: { appUrl: string },
  ) {}

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
