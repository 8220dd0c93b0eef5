/**
 * A track's pitch key in the browser (web/src/lib/pitchKey.ts, crypto.subtle) is the server's (core
 * sender pitchKey, node:crypto) for the same track: Compose reads the board of the track being typed by
 * it before a draft exists. And the track as the form holds it keys as the draft the server stores.
 */
import { describe, expect, it } from 'vitest';
import { pitchKey } from '../../lambdas/core/sender';
import { isTrackKey } from '../../lambdas/core/pipeline';
import { aiTrackSchema } from '../../schema/api/campaigns';
import { browserPitchKey } from '../../web/src/lib/pitchKey';
import { emptyTrackForm, pitchedTrackOf } from '../../web/src/pages/compose/trackForm';

const tracks = [
  { track_url: 'https://soundcloud.com/robin/harbour-lights', track_name: 'Harbour Lights' },
  { track_url: '  https://SoundCloud.com/Robin/Harbour-Lights ', track_name: 'Another name' },
  { track_url: null, track_name: ' Harbour Lights ' },
  { track_url: '', track_name: 'harbour lights' },
  // Beyond ASCII: both hash the UTF-8 bytes.
  { track_url: null, track_name: 'Café Nuit — Ø 🌙' },
  { track_url: 'https://music.example/tracks?id=Ø+1&x=%2F', track_name: 'x' },
];

describe('the pitch key in the browser', () => {
  it.each(tracks)('is the server’s for %o', async (track) => {
    const key = await browserPitchKey(track);
    expect(isTrackKey(key)).toBe(true);
    expect(key).toBe(pitchKey(track));
  });

  it('differs between tracks as the server’s does', async () => {
    expect(await browserPitchKey({ track_url: null, track_name: 'Harbour Lights' })).not.toBe(
      await browserPitchKey({ track_url: null, track_name: 'Midnight Drive' }),
    );
  });

  it('of the track as typed in the form is the key of the draft the server stores from it', async () => {
    const form = { ...emptyTrackForm, track_name: 'Harbour Lights', track_url: ' SoundCloud.com/Robin/Harbour-Lights ' };
    const stored = aiTrackSchema.parse({ track_name: form.track_name, track_url: form.track_url, genre: 'techno', description: 'd' });
    const typed = pitchedTrackOf(form);
    expect(typed).not.toBeNull();
    expect(await browserPitchKey(typed!)).toBe(pitchKey(stored));
    // No link yet, or one half typed: the track is not known yet.
    expect(pitchedTrackOf({ track_name: '', track_url: '' })).toBeNull();
    expect(pitchedTrackOf({ track_name: 'Harbour Lights', track_url: 'soundcl' })).toBeNull();
    expect(pitchedTrackOf({ track_name: 'Harbour Lights', track_url: '' })).toEqual({ track_name: 'Harbour Lights', track_url: null });
  });
});
