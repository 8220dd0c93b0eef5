import type { Profile, Tier } from '../../../../schema/api/profile';

/** The plan screen calls the `label` tier Expert (spec §3). */
export const tierLabels: Record<Tier, string> = { free: 'Free', pro: 'Pro', label: 'Expert' };

export function usagePercent(profile: Pick<Profile, 'emails_used' | 'email_limit'>): number {
  if (profile.email_limit <= 0) return profile.emails_used > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.round((profile.emails_used / profile.email_limit) * 100)));
}

export function usageText(profile: Pick<Profile, 'emails_used' | 'email_limit'>): string {
  return `${profile.emails_used} / ${profile.email_limit} sent`;
}
