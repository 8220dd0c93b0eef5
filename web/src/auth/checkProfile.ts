import type { Profile } from '../../../schema/api/profile';
import { gmailAccountTypes, subscriptionStatuses, tiers } from '../../../schema/api/profileValues';

/**
 * A dependency-free check of GET /api/profile's answer against schema/api/profile.ts's profileSchema. It
 * keeps zod (about 25 KB gzip) out of the dashboard's first load, as validateConfig does for the landing
 * page; tests/web/check-profile.test.tsx runs it side by side with the zod schema so the two cannot drift.
 */
type Rule = 'string' | 'string or null' | 'integer' | 'integer or null' | 'boolean' | readonly string[];

const rules = {
  id: 'string',
  created_at: 'string',
  email: 'string',
  full_name: 'string',
  artist_name: 'string or null',
  bio: 'string or null',
  website_url: 'string or null',
  soundcloud_url: 'string or null',
  spotify_url: 'string or null',
  instagram_url: 'string or null',
  tier: tiers,
  emails_used: 'integer',
  email_limit: 'integer or null',
  gmail_connected: 'boolean',
  gmail_daily_limit: 'integer',
  gmail_account_type: gmailAccountTypes,
  gmail_email: 'string or null',
  labelfinder_additions_count: 'integer',
  subscription_status: subscriptionStatuses,
  subscription_end: 'string or null',
  cancel_at_period_end: 'boolean',
  tour_completed: 'boolean',
  time_zone: 'string or null',
} as const satisfies Record<keyof Profile, Rule>;

function fits(value: unknown, rule: Rule): boolean {
  if (typeof rule !== 'string') return typeof value === 'string' && rule.includes(value);
  switch (rule) {
    case 'string':
      return typeof value === 'string';
    case 'string or null':
      return value === null || typeof value === 'string';
    case 'integer':
      // zod 4's .int() accepts safe integers only.
      return Number.isSafeInteger(value);
    case 'integer or null':
      return value === null || Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
  }
}

/** The profile with its known fields only (like zod's object()), or null when a field does not fit. */
export function checkProfile(input: unknown): Profile | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  const record = input as Record<string, unknown>;
  const profile: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(rules) as [keyof Profile, Rule][]) {
    if (!fits(record[key], rule)) return null;
    profile[key] = record[key];
  }
  return profile as Profile;
}
