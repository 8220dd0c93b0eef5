import type { Profile } from '../../schema/api/profile';
import { newProfile, type Identity } from '../core/profile';
import type { ProfileStore } from '../ports';
import { HttpError } from './api';

/**
 * The caller's profile, created on first use with the spec's defaults. Only an ID token carries the
 * email and name a profile starts from; an access token does not, so that caller must sign in again.
 */
export async function ensureProfile(profiles: ProfileStore, identity: Identity, now: Date): Promise<Profile> {
  const existing = await profiles.get(identity.userId);
  if (existing) return existing;
  if (!identity.email) throw new HttpError(401, 'Please sign in again to finish setting up your account.');
  return profiles.createIfMissing(newProfile(identity, now));
}
