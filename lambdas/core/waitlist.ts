/**
 * The beta waitlist's rules (spec §3 beta_waitlist, §4 waitlist entry states, §5, §9). Pure: the
 * handler gives the validated form, the time and a new id; the store applies what these return.
 */
import type { z } from 'zod';
import { BETA_SPOTS, type WaitlistEntry, type WaitlistSpots, type waitlistJoinSchema } from '../../schema/api/waitlist';
import { isUlid } from './ids';

/** A join request after waitlistJoinSchema: trimmed, email lower-cased, blank optionals null. */
export type ValidWaitlistJoin = z.output<typeof waitlistJoinSchema>;
export type WaitlistStatus = WaitlistEntry['status'];
/** The statuses an admin may move an entry to. */
export type WaitlistDecision = Exclude<WaitlistStatus, 'pending'>;

/** Entry ids are ULIDs. */
export const isWaitlistEntryId = isUlid;

/** The entry stored for a new join: pending, submitted now, not approved, no notes. */
export function newWaitlistEntry(join: ValidWaitlistJoin, now: Date, id: string): WaitlistEntry & { status: 'pending'; approved_at: null; notes: null } {
  return {
    id,
    email: join.email,
    artist_name: join.artist_name,
    music_style: join.music_style,
    soundcloud_spotify_url: join.soundcloud_spotify_url ?? null,
    why_interested: join.why_interested ?? null,
    status: 'pending',
    submitted_at: now.toISOString(),
    approved_at: null,
    notes: null,
  };
}

/** The beta's spots from the number of entries: remaining never goes below 0. */
export function waitlistSpots(taken: number, total: number = BETA_SPOTS): WaitlistSpots {
  const count = Math.max(0, Math.trunc(taken));
  return { total, taken: count, remaining: Math.max(0, total - count) };
}

/** pending → approved | rejected, never back: every decision starts from pending (the store's write is conditional on it). */
export const DECIDABLE_STATUS: WaitlistStatus = 'pending';

/** What a decision writes: approving also sets approved_at to now; rejecting leaves it null. */
export function decisionUpdate(to: WaitlistDecision, now: Date): Pick<WaitlistEntry, 'status' | 'approved_at'> {
  return { status: to, approved_at: to === 'approved' ? now.toISOString() : null };
}

/** Internal notes as stored: a blank text clears them (null). */
export const normaliseNotes = (notes: string): string | null => (notes.trim() === '' ? null : notes.trim());
