import type { Campaign } from '../../../schema/api/campaigns';
import { PITCH_KEY_LENGTH, pitchBasis } from '../../../lambdas/core/pitchBasis';

/**
 * A track's pitch key in the browser, as the server's core sender pitchKey computes it (the same basis,
 * SHA-256 with crypto.subtle, base64url, 22 characters): Compose reads a track's board before a draft
 * exists (GET /api/pipeline/tracks/{trackKey}).
 */
export async function pitchKeyOfBasis(basis: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(basis)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
    .slice(0, PITCH_KEY_LENGTH);
}

/** The pitch key of a track (its link, else its name). */
export const browserPitchKey = (track: Pick<Campaign, 'track_url' | 'track_name'>): Promise<string> => pitchKeyOfBasis(pitchBasis(track));
