/**
 * The public beta waitlist calls (spec §7): POST /api/waitlist and GET /api/waitlist/spots.
 *
 * The landing page must stay free of zod, so this module imports only types from the contract
 * (schema/api/waitlist.ts) and its constants from the zod-free schema/api/waitlistConstants.ts.
 */
import type { WaitlistEntry, WaitlistJoin, WaitlistSpots } from '../../../schema/api/waitlist';
import { musicStyles, waitlistMessages } from '../../../schema/api/waitlistConstants';
import { CLIENT_LIMIT_CODE } from '../../../schema/api/serverMessages';
import { apiPath } from '../../../schema/routes';
import { ApiError, createApiClient } from './client';

export { ARTIST_NAME_MAX, BETA_SPOTS, EMAIL_MAX, EMAIL_PATTERN, LINK_MAX, waitlistEmailError, WHY_INTERESTED_MAX } from '../../../schema/api/waitlistConstants';
/** Spec §2 music style options, in the spec's order. */
export const MUSIC_STYLES = musicStyles;

/** Spec §5 and §8 texts, plus the generic failure of §8. */
export const WAITLIST_TEXT = {
  ...waitlistMessages,
  failedTitle: 'Something went wrong',
  failedMessage: 'Please try again or contact support',
} as const;

const publicApi = (fetchImpl?: typeof fetch) => createApiClient(() => Promise.resolve(null), fetchImpl);

/** Joins the beta; resolves with the stored entry (201) or throws an ApiError (400, 409, 429, …). */
export function joinWaitlist(input: WaitlistJoin, fetchImpl?: typeof fetch): Promise<WaitlistEntry> {
  return publicApi(fetchImpl).request<WaitlistEntry>(apiPath('POST /api/waitlist'), { method: 'POST', body: input, auth: false });
}

function parseSpots(data: unknown): WaitlistSpots {
  const value = data as Partial<WaitlistSpots> | null;
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  if (!value || !ok(value.total) || !ok(value.taken) || !ok(value.remaining)) throw new Error('Unexpected spots response');
  return { total: value.total, taken: value.taken, remaining: value.remaining };
}

/** How many beta spots are left, from the real count of entries. */
export function fetchWaitlistSpots(signal?: AbortSignal, fetchImpl?: typeof fetch): Promise<WaitlistSpots> {
  return publicApi(fetchImpl).request(apiPath('GET /api/waitlist/spots'), { auth: false, parse: parseSpots, signal });
}

/** Spots remaining as shown to a visitor: a whole number, never below 0 nor above the total. */
export function spotsRemaining(spots: WaitlistSpots): number {
  return Math.min(Math.max(0, Math.floor(spots.remaining)), Math.max(0, spots.total));
}

export type JoinFailure = { title: string; message?: string };

/** What the form says for a failed join (spec §5, §8). */
export function joinFailure(error: unknown): JoinFailure {
  if (error instanceof ApiError) {
    if (error.status === 409) return { title: WAITLIST_TEXT.duplicate };
    // The client's own limit says when to try again (code client_limit); the route's throttle is everyone's.
    if (error.status === 429) return { title: error.code === CLIENT_LIMIT_CODE && error.message ? error.message : WAITLIST_TEXT.throttled };
    // The server names the field ("email: Enter a valid email address"); the form shows the sentence.
    if (error.status === 400 && error.message) return { title: error.message.replace(/^[a-z_]+: /, '') };
  }
  return { title: WAITLIST_TEXT.failedTitle, message: WAITLIST_TEXT.failedMessage };
}
