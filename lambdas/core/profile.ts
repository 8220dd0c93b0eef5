import type { Profile } from '../../schema/api/profile';
import { DEFAULT_GMAIL_DAILY_LIMIT, NEW_PROFILE_EMAIL_LIMIT } from './plans';

/** Who the verified token says the caller is. */
export interface Identity {
  userId: string;
  email: string;
  name: string | undefined;
  groups: string[];
}

/** The profile created on a user's first sign-in (spec §3 defaults). */
export function newProfile(identity: Identity, now: Date): Profile {
  return {
    id: identity.userId,
    created_at: now.toISOString(),
    email: identity.email,
    full_name: identity.name?.trim() || identity.email.split('@')[0] || identity.email,
    artist_name: null,
    bio: null,
    website_url: null,
    soundcloud_url: null,
    spotify_url: null,
    instagram_url: null,
    tier: 'free',
    emails_used: 0,
    email_limit: NEW_PROFILE_EMAIL_LIMIT,
    gmail_connected: false,
    gmail_daily_limit: DEFAULT_GMAIL_DAILY_LIMIT,
    gmail_account_type: 'free',
    gmail_email: null,
    labelfinder_additions_count: 0,
    subscription_status: 'none',
    subscription_end: null,
    cancel_at_period_end: false,
    tour_completed: false,
    time_zone: null,
  };
}
