import type { Profile, Tier } from '../../../../schema/api/profile';
import { planOf } from '../../../../schema/plans';

type Usage = Pick<Profile, 'emails_used' | 'email_limit'>;

/** The plan screen calls the `label` tier Expert (spec §3): the plan table's names. */
export const tierLabels: Record<Tier, string> = { free: planOf('free').name, pro: planOf('pro').name, label: planOf('label').name };

/** Emails left this month; null when the plan has no monthly cap. */
export const emailsRemaining = (profile: Usage): number | null => (profile.email_limit === null ? null : profile.email_limit - profile.emails_used);

/** The monthly limit as a count or 'Unlimited'. */
export const emailLimitText = (profile: Pick<Profile, 'email_limit'>): string => (profile.email_limit === null ? 'Unlimited' : String(profile.email_limit));

export const monthlyLimitReached = (profile: Usage): boolean => profile.email_limit !== null && profile.emails_used >= profile.email_limit;

export function usageText(profile: Usage): string {
  return profile.email_limit === null ? `${profile.emails_used} sent (no monthly limit)` : `${profile.emails_used} / ${profile.email_limit} sent`;
}
