/**
 * The interfaces the core and the handlers need. Adapters in lambdas/adapters/* implement them;
 * lambdas/compose.ts picks which. Nothing here imports an SDK.
 */
import type { Profile, ProfileUpdate } from '../schema/api/profile';
import type { WaitlistEntry } from '../schema/api/waitlist';

export interface Clock {
  now(): Date;
}

export interface ProfileStore {
  get(userId: string): Promise<Profile | undefined>;
  /** Creates the profile unless one exists; returns whichever is stored (first sign-in may race). */
  createIfMissing(profile: Profile): Promise<Profile>;
  /** Applies the user-editable fields; returns the updated profile, or undefined if none exists. */
  update(userId: string, update: ProfileUpdate): Promise<Profile | undefined>;
}

export interface WaitlistStore {
  /** Every entry, newest first, read by partition (no Scan). */
  list(): Promise<WaitlistEntry[]>;
}
