/**
 * The values a profile's enumerated fields take. Free of zod, so the web app's first load can check a
 * profile (web/src/auth/checkProfile.ts) against the same lists the schemas use.
 */
export const tiers = ['free', 'pro', 'label'] as const;
export type Tier = (typeof tiers)[number];

/** A connected Gmail mailbox's kind: a free account or a Google Workspace one (their daily limits differ). */
export const gmailAccountTypes = ['free', 'workspace'] as const;
