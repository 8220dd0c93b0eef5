import * as z from 'zod';
import { subscriptionStatuses, tiers } from './profileValues';

/**
 * The billing routes' bodies (spec §7 sync-subscription, create-checkout, manage-subscription). The
 * browser names a plan by its tier; the server maps it to the configured price id (DESIGN §10), so no
 * price id ever comes from the browser.
 */

/** POST /api/billing/checkout: the paid plan to subscribe to. */
export const checkoutRequestSchema = z.object({ tier: z.enum(['pro', 'label'], 'Choose the Pro or Expert plan') }).strict();
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** POST /api/billing/checkout and POST /api/billing/portal: where the browser goes next. */
export const billingRedirectSchema = z.object({ url: z.string() });
export type BillingRedirect = z.infer<typeof billingRedirectSchema>;

/**
 * POST /api/billing/sync (spec §7: subscribed, tier, email_limit, subscription_end), plus the status and
 * cancel_at_period_end the Subscription page shows ('Cancels on {date}', the failed-payment banner).
 */
export const subscriptionStateSchema = z.object({
  subscribed: z.boolean(),
  tier: z.enum(tiers),
  email_limit: z.number().int().nullable(),
  subscription_end: z.string().nullable(),
  subscription_status: z.enum(subscriptionStatuses),
  cancel_at_period_end: z.boolean(),
});
export type SubscriptionState = z.infer<typeof subscriptionStateSchema>;
