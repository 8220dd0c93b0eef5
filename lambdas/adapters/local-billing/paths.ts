/** Where the local billing twin lives: its pages (lib/local/billingPages.ts) and the app's webhook route it posts to. */
export const BILLING_CHECKOUT_PATH = '/local/billing/checkout';
export const BILLING_PORTAL_PATH = '/local/billing/portal';
export const BILLING_WEBHOOK_PATH = '/api/billing/webhook';
/** The header Stripe signs its webhook posts with. */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

/** The pages a twin session sends the browser to. */
export const checkoutPageUrl = (appUrl: string, sessionId: string) => `${appUrl}${BILLING_CHECKOUT_PATH}?session=${encodeURIComponent(sessionId)}`;
export const portalPageUrl = (appUrl: string, sessionId: string) => `${appUrl}${BILLING_PORTAL_PATH}?session=${encodeURIComponent(sessionId)}`;
