import { billingRedirectSchema, subscriptionStateSchema, type CheckoutRequest, type SubscriptionState } from '../../../schema/api/billing';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/** The billing API (schema/api/billing.ts; spec §7 sync-subscription, create-checkout, manage-subscription). */

/** POST /api/billing/sync: the subscription as the billing provider has it now, also written onto the profile. */
export function syncSubscription(api: ApiClient): Promise<SubscriptionState> {
  return api.post(apiPath('POST /api/billing/sync'), undefined, (data) => subscriptionStateSchema.parse(data));
}

/**
 * POST /api/billing/checkout: where to pay for `tier` (a Checkout page; for someone already subscribed,
 * the billing portal, as one customer has one subscription).
 */
export async function startCheckout(api: ApiClient, tier: CheckoutRequest['tier']): Promise<string> {
  const body: CheckoutRequest = { tier };
  return (await api.post(apiPath('POST /api/billing/checkout'), body, (data) => billingRedirectSchema.parse(data))).url;
}

/** POST /api/billing/portal: the billing portal page for the signed-in user. */
export async function openBillingPortal(api: ApiClient): Promise<string> {
  return (await api.post(apiPath('POST /api/billing/portal'), undefined, (data) => billingRedirectSchema.parse(data))).url;
}
