/**
 * The limits a plan sets (spec §6, §9; DESIGN §10), read from the one plan table (schema/plans.ts), and
 * the mailbox's daily limits.
 *
 * The tier is the single source of a user's limits: every check (the send check, the capacity figures,
 * the sender's re-check before each email, the LabelFinder allowance, the analytics depth) derives them
 * from `profile.tier` through the plan table, at the moment it checks. The profile's `email_limit` is a
 * copy kept in step for the pages (the billing webhook writes tier and email_limit together; the profile
 * answer recomputes it from the tier), never read to decide. So a plan change applies at once, to
 * emails already queued too: the sender reads the profile before each email. Only the verified billing
 * webhook changes a tier; what a subscription state means for the tier (past_due keeps the plan, a
 * deleted subscription or a cancellation at period end reached is Free) is decided there.
 *
 * The monthly count is the Pacific calendar month for every plan (DESIGN §10); a plan with no monthly
 * cap (Label) is still held to its mailbox's daily limit.
 */
import type { Tier } from '../../schema/api/profileValues';
import { planOf, type AnalyticsDepth } from '../../schema/plans';

/** Emails a Pacific calendar month on the user's plan; null: no monthly cap (the daily limit still applies). */
export const monthlyLimitOf = (profile: { tier: Tier }): number | null => planOf(profile.tier).monthlyEmails;

/**
 * Whether a plan change from `before` to `after` lets more emails go this month: the new plan's monthly
 * limit is higher, or it has none. The billing write wakes the sender then, so campaigns held at the
 * monthly limit go on at once instead of waiting for the next Pacific month.
 */
export function raisesMonthlyLimit(before: Tier, after: Tier): boolean {
  const from = monthlyLimitOf({ tier: before });
  const to = monthlyLimitOf({ tier: after });
  if (from === null) return false;
  return to === null || to > from;
}

/** LabelFinder entries the user's plan lets them add to their contacts, in total (no tier read yet: Free). */
export const directoryAdditionsOf = (tier: Tier | undefined): number => planOf(tier ?? 'free').directoryAdditions;

/** How much of the analytics the plan shows: 'basic' is opens only, 'full' every figure. */
export const analyticsDepthOf = (tier: Tier): AnalyticsDepth => planOf(tier).analytics;

/** What a new profile stores as its plan's monthly emails: the Free plan's. */
export const NEW_PROFILE_EMAIL_LIMIT = monthlyLimitOf({ tier: 'free' });

/** Spec §3: a new profile's mailbox daily limit before a mailbox is connected. */
export const DEFAULT_GMAIL_DAILY_LIMIT = 500;

/** Spec §9: a Google Workspace mailbox may send 2000 emails a day; a consumer (free) Gmail account 500. */
export const WORKSPACE_GMAIL_DAILY_LIMIT = 2000;
export const FREE_GMAIL_DAILY_LIMIT = DEFAULT_GMAIL_DAILY_LIMIT;

export type MailboxAccountType = 'free' | 'workspace';

/** The account type and daily limit of a mailbox: Workspace when Google names its domain (`hd`). */
export function mailboxAccount(hostedDomain: string | null): { accountType: MailboxAccountType; dailyLimit: number } {
  return hostedDomain ? { accountType: 'workspace', dailyLimit: WORKSPACE_GMAIL_DAILY_LIMIT } : { accountType: 'free', dailyLimit: FREE_GMAIL_DAILY_LIMIT };
}
