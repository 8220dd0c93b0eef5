import * as z from 'zod';
import { storableText, timeZoneField, typedLink } from './common';
import type { LinkField } from './links';
import { gmailAccountTypes, subscriptionStatuses, tiers } from './profileValues';

export { tiers, subscriptionStatuses, type Tier, type SubscriptionStatus } from './profileValues';

/** What the API returns for a profile. The Gmail refresh token never leaves the server. */
export const profileSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  email: z.string(),
  full_name: z.string(),
  artist_name: z.string().nullable(),
  bio: z.string().nullable(),
  website_url: z.string().nullable(),
  soundcloud_url: z.string().nullable(),
  spotify_url: z.string().nullable(),
  instagram_url: z.string().nullable(),
  tier: z.enum(tiers),
  emails_used: z.number().int(),
  /** The plan's emails a Pacific month; null: no monthly cap (the Label plan). */
  email_limit: z.number().int().nullable(),
  gmail_connected: z.boolean(),
  gmail_daily_limit: z.number().int(),
  gmail_account_type: z.enum(gmailAccountTypes),
  /** The connected mailbox's address (null when none is connected). */
  gmail_email: z.string().nullable(),
  labelfinder_additions_count: z.number().int(),
  /** The billing provider's state of the user's subscription, as the verified webhook or a sync last wrote it. */
  subscription_status: z.enum(subscriptionStatuses),
  /** The end of the paid period (ISO): the renewal date, or the cancellation date with cancel_at_period_end. */
  subscription_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  /** The guided tour was finished or skipped: kept on the profile so it holds in every browser. */
  tour_completed: z.boolean(),
  /**
   * The artist's time zone (IANA; issue 27 §2): a recipient without a zone of their own gets the email in
   * the campaign's send window on this clock. Null until set in Settings (which offers the browser's zone).
   */
  time_zone: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

/** Settings' link fields: 'Enter a link such as https://soundcloud.com/yourname' for one that is none. */
export const profileLinkMessage = 'Enter a link such as https://soundcloud.com/yourname';

/** A profile link as typed ('soundcloud.com/…', '@handle' for Instagram), stored as the link; blank clears it. */
const optionalUrl = (field: LinkField = 'website') =>
  typedLink({ max: 500, message: profileLinkMessage, field, tooLong: 'Links must be at most 500 characters' })
    .transform((value) => (value === '' ? null : value))
    .nullable();

/** Free text named as the Settings form names it, for the message of a character that cannot be stored. */
const optionalText = (max: number, field: string) =>
  storableText(field)
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .transform((value) => (value === '' ? null : value))
    .nullable();

/** PATCH /api/profile: every field optional, unknown fields refused. */
export const profileUpdateSchema = z
  .object({
    full_name: storableText('Full name').trim().min(1, 'Please enter your full name').max(100, 'Must be at most 100 characters'),
    artist_name: optionalText(100, 'Artist name'),
    bio: optionalText(1000, 'Bio'),
    website_url: optionalUrl(),
    soundcloud_url: optionalUrl(),
    spotify_url: optionalUrl(),
    instagram_url: optionalUrl('instagram'),
    // Set by the tour's finish or skip; nothing takes a tour back, so only true is accepted.
    tour_completed: z.literal(true),
    time_zone: timeZoneField,
  })
  .partial()
  .strict();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export { artistName, artistDetails, artistLinks } from './artist';
