import type { Tier } from '../../schema/api/profile';

/** Plan limits of spec §6 and §9. `null` email limit means unlimited. */
export const plans: Record<Tier, { name: string; monthlyEmailLimit: number | null; directoryAdditions: number }> = {
  free: { name: 'Free', monthlyEmailLimit: 50, directoryAdditions: 5 },
  pro: { name: 'Pro', monthlyEmailLimit: 500, directoryAdditions: 1000 },
  label: { name: 'Expert', monthlyEmailLimit: null, directoryAdditions: 1000 },
};

export const DEFAULT_EMAIL_LIMIT = 50;
export const DEFAULT_GMAIL_DAILY_LIMIT = 500;
