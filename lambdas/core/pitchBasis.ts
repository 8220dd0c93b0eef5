/**
 * What a track's pitch key hashes (core sender pitchKey, `PITCHED#<key>#<addressId>`): the lower-cased,
 * trimmed track link, or the track name when there is none. Kept apart from the hash and free of
 * node:crypto, so the browser (web/src/lib/pitchKey.ts, crypto.subtle) keys a track as the server does.
 */
import type { Campaign } from '../../schema/api/campaigns';

/** A pitch key is this many base64url characters of the basis's SHA-256. */
export const PITCH_KEY_LENGTH = 22;

export function pitchBasis(campaign: Pick<Campaign, 'track_url' | 'track_name'>): string {
  const url = campaign.track_url?.trim().toLowerCase();
  return url ? url : `name:${campaign.track_name.trim().toLowerCase()}`;
}
