/** The shapes of the ids the API hands out, checked before any read: an id of another shape cannot exist. */

/** A ULID (26 Crockford base-32 characters, the first 10 the time in milliseconds): campaign, user template, saved list and waitlist entry ids. */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export const isUlid = (id: string): boolean => ULID.test(id);
