/**
 * The waitlist's constants, without zod: the landing page imports this module directly so its bundle
 * stays small; schema/api/waitlist.ts re-exports it next to the schemas.
 */
import { characterMessages, hasInvisibleOrControl } from './characters';

export const musicStyles = [
  'House',
  'Techno',
  'Hip-Hop',
  'Drum & Bass',
  'Dubstep',
  'Trap',
  'Future Bass',
  'Progressive House',
  'Deep House',
  'Trance',
  'Hardstyle',
  'Ambient',
  'Other',
] as const;

export const waitlistStatuses = ['pending', 'approved', 'rejected'] as const;

/** Spec §9: the beta has 50 spots; the landing page shows how many remain (never below 0). */
export const BETA_SPOTS = 50;
export const WHY_INTERESTED_MAX = 200;
export const EMAIL_MAX = 254;
export const ARTIST_NAME_MAX = 100;
export const LINK_MAX = 500;
export const NOTES_MAX = 2000;

/** The form and the server accept the same addresses (zod's own email pattern). */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/**
 * The one check of a waitlist address, for the landing page's form and the server alike (surrounding
 * spaces ignored): null when it may join, else the message. An invisible or control character
 * (./characters) is named as such, since the address looks right; anything else off EMAIL_PATTERN is a
 * bad email.
 */
export function waitlistEmailError(value: string): string | null {
  const email = value.trim();
  if (hasInvisibleOrControl(email)) return waitlistMessages.invisibleInEmail;
  return EMAIL_PATTERN.test(email) ? null : waitlistMessages.badEmail;
}

export const waitlistMessages = {
  required: 'Please fill in all required fields',
  duplicate: "You're already on the list! We'll contact you soon with your access details.",
  throttled: 'Too many people are joining right now. Please wait a minute and try again.',
  notPending: 'Only pending entries can be approved or rejected.',
  notFound: 'Waitlist entry not found',
  badEmail: 'Enter a valid email address',
  invisibleInEmail: characterMessages.invisibleInEmail,
  badLink: 'Enter a link such as https://soundcloud.com/yourname',
} as const;
