/**
 * The values a profile's enumerated fields take. Free of zod, so the web app's first load can check a
 * profile (web/src/auth/checkProfile.ts) against the same lists the schemas use.
 */
export const tiers = ['free', 'pro', 'label'] as const;
export type Tier = (typeof tiers)[number];

/** A connected Gmail mailbox's kind: a free account or a Google Workspace one (their daily limits differ). */
export const gmailAccountTypes = ['free', 'workspace'] as const;

/**
 * A subscription's state as the billing provider reports it (Stripe's statuses), written onto the profile
 * by the verified webhook and sync only; 'none' when the user never subscribed.
 */
export const subscriptionStatuses = ['none', 'active', 'trialing', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];
