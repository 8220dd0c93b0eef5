/**
 * Where the local billing twin lives (its pages, lib/local/billingPages.ts, and the app's webhook route
 * it posts to) and the price ids it sells, which the local runtime's config names.
 */
import type { PriceTable } from '../../core/billing';

export const LOCAL_BILLING_PRICES: PriceTable = { pro: 'price_local_pro', label: 'price_local_label' };

export const BILLING_CHECKOUT_PATH = '/local/billing/checkout';
export const BILLING_PORTAL_PATH = '/local/billing/portal';
export const BILLING_WEBHOOK_PATH = '/api/billing/webhook';
/** The header Stripe signs its webhook posts with. */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

/** The pages a twin session sends the browser to. */
export const checkoutPageUrl = (appUrl: string, sessionId: string) => `${appUrl}${BILLING_CHECKOUT_PATH}?session=${encodeURIComponent(sessionId)}`;
export const portalPageUrl = (appUrl: string, sessionId: string) => `${appUrl}${BILLING_PORTAL_PATH}?session=${encodeURIComponent(sessionId)}`;
