import { describe, expect, it } from 'vitest';
import {
  campaignsStillSending,
  COVER_SIGNATURE_BYTES,
  coverUploadKey,
  coverUploadMaxBytes,
  formatOfMediaType,
  judgeAudio,
  judgeCoverArt,
  storedPeaks,
  trackAudioKey,
  trackCoverKey,
  trackUploadKey,
  uploadMaxBytes,
  type TrackUse,
} from '../../lambdas/core/tracks';
import { COVER_MAX_BYTES, coverAccept, coverMediaTypeOf, TRACK_MAX_BYTES, trackAccept, trackMediaTypeOf, trackMessages } from '../../schema/api/trackValues';
import { gifBytes, jpegBytes, notAnImageBytes, pngBytes, webpBytes } from '../support/images';

describe('which stored files are tracks', () => {
  const audio = (container: string, codec: string, extra: object = {}) => judgeAudio({ container, codec, durationSeconds: 212.5, sampleRate: 44100, ...extra });

  it.each([
    ['MPEG', 'MPEG 1 Layer 3', 'mp3'],
    ['MPEG', 'MPEG 2 Layer 3', 'mp3'],
    ['WAVE', 'PCM', 'wav'],
    ['FLAC', 'FLAC', 'flac'],
    ['AIFF', 'PCM', 'aiff'],
    ['AIFF-C', 'PCM', 'aiff'],
    ['ADTS/MPEG-4', 'AAC', 'aac'], // music-metadata's names of an ADTS stream
    ['ADTS/MPEG-2', 'AAC', 'aac'],
    ['M4A/mp42/isom', 'MPEG-4/AAC', 'm4a'],
    ['M4A/M4A /mp42/isom', 'ALAC', 'm4a'],
  ])('%s with %s is %s', (container, codec, format) => {
    expect(audio(container, codec)).toEqual({ outcome: 'audio', format, durationSeconds: 212.5, sampleRate: 44100 });
  });

  it.each([
    ['MPEG', 'MPEG 1 Layer 2'],
    ['Ogg', 'Vorbis I'],
    ['WebM', 'OPUS'],
    ['', ''],
  ])('%s with %s is not one of ours', (container, codec) => {
    expect(audio(container, codec)).toEqual({ outcome: 'not_audio' });
  });

  it('refuses a file that plays no time, a video, or one music-metadata could not read', () => {
    expect(audio('WAVE', 'PCM', { durationSeconds: 0 })).toEqual({ outcome: 'not_audio' });
    expect(audio('WAVE', 'PCM', { durationSeconds: Number.NaN })).toEqual({ outcome: 'not_audio' });
    expect(audio('M4A/isom', 'MPEG-4/AAC', { hasVideo: true })).toEqual({ outcome: 'not_audio' });
    expect(judgeAudio({ container: 'WAVE', codec: 'PCM' })).toEqual({ outcome: 'not_audio' });
    expect(judgeAudio({})).toEqual({ outcome: 'not_audio' });
  });

  it('keeps an unknown sample rate as null and rounds the duration to milliseconds', () => {
    expect(judgeAudio({ container: 'MPEG', codec: 'MPEG 1 Layer 3', durationSeconds: 1.23456 })).toEqual({
      outcome: 'audio',
      format: 'mp3',
      durationSeconds: 1.235,
      sampleRate: null,
    });
  });
});

describe('uploads', () => {
  it('keys a track under its owner', () => {
    expect(trackAudioKey('8f1c-sub', '01KAKZ3R0000000000000000AA')).toBe('tracks/8f1c-sub/01KAKZ3R0000000000000000AA');
  });

  it('lets the storage take exactly the declared size, never over 200 MB', () => {
    expect(uploadMaxBytes(1234)).toBe(1234);
    expect(uploadMaxBytes(TRACK_MAX_BYTES + 1)).toBe(TRACK_MAX_BYTES);
    expect(TRACK_MAX_BYTES).toBe(200 * 1024 * 1024);
  });

  it('names the media type of a file by its type, or by its ending when the browser gives none', () => {
    expect(trackMediaTypeOf({ name: 'a.mp3', type: 'audio/mpeg' })).toBe('audio/mpeg');
    expect(trackMediaTypeOf({ name: 'Mix.AIF', type: '' })).toBe('audio/aiff');
    expect(trackMediaTypeOf({ name: 'b.m4a', type: 'audio/x-m4a' })).toBe('audio/x-m4a');
    expect(trackMediaTypeOf({ name: 'c.ogg', type: 'audio/ogg' })).toBeUndefined();
    expect(trackMediaTypeOf({ name: 'notes.txt', type: 'text/plain' })).toBeUndefined();
    expect(formatOfMediaType('AUDIO/X-WAV')).toBe('wav');
    expect(trackAccept).toContain('.flac');
    expect(trackAccept).toContain('audio/mp4');
  });

  it('stores peaks to 3 decimals, and none as an empty waveform', () => {
    expect(storedPeaks([0.123456, 1, 0])).toEqual([0.123, 1, 0]);
    expect(storedPeaks(undefined)).toEqual([]);
  });
});

describe('the track contract', () => {
  it("lists exactly the summary schema's fields (the store reads these without loading zod)", async () => {
    const { trackSummarySchema, TRACK_SUMMARY_FIELDS } = await import('../../schema/api/tracks');
    expect([...TRACK_SUMMARY_FIELDS].sort()).toEqual(Object.keys(trackSummarySchema.shape).sort());
  });
});

describe('a track campaigns still send with (issue 23 §5: never a dead listen link)', () => {
  const TRACK = '01KAKZ3R0000000000000000AA';
  const use = (track_name: string, status: TrackUse['status'], sent: number, over: Partial<TrackUse> = {}): TrackUse => ({
    track_id: TRACK,
    track_name,
    status,
    total_queued: 10,
    emails_sent: sent,
    emails_failed: 0,
    emails_skipped: 0,
    emails_unknown: 0,
    ...over,
  });

  it('is held by a campaign sending, scheduled or paused with recipients left', () => {
    const campaigns = [
      use('Sending', 'sending', 4),
      use('Scheduled', 'scheduled', 0),
      use('Paused', 'paused', 9),
      use('Held', 'sending', 2, { track_id: null }),
    ];
    expect(campaignsStillSending(campaigns, TRACK).map((c) => c.track_name)).toEqual(['Sending', 'Scheduled', 'Paused']);
  });

  it('is not held by a draft, a finished campaign, one with nothing left to try, or another track', () => {
    const campaigns = [
      use('Draft', 'draft', 0, { total_queued: 0 }),
      use('Done', 'completed', 10),
      use('All tried', 'sending', 6, { emails_failed: 2, emails_skipped: 1, emails_unknown: 1 }),
      use('Other', 'sending', 0, { track_id: '01KAKZ3R0000000000000000BB' }),
    ];
    expect(campaignsStillSending(campaigns, TRACK)).toEqual([]);
  });

  it('the refusal names them, quoted', () => {
    expect(trackMessages.inUse(['X', 'Y'])).toBe(
      'This track is used by campaigns still sending: "X", "Y". Their emails link to it: delete it once they finish.',
    );
  });
});

/**
 * Cover art (issue 25 §5): what a stored image is comes from its first bytes and its size, never from its
 * name or the media type the browser declared. The handler reads COVER_SIGNATURE_BYTES and the size.
 */
describe('which stored images are cover art', () => {
  const judge = (bytes: Uint8Array, size = bytes.length) => judgeCoverArt(bytes.subarray(0, COVER_SIGNATURE_BYTES), size);

  it.each([
    ['a JPEG', jpegBytes(), 'image/jpeg'],
    ['a PNG', pngBytes(), 'image/png'],
    ['a WebP', webpBytes(), 'image/webp'],
  ])('%s is taken, its type said by its bytes', (_, bytes, mediaType) => {
    expect(judge(bytes)).toEqual({ outcome: 'image', mediaType });
  });

  it('refuses a GIF, text (a PNG named .jpg that is really text), another RIFF file (a WAV) and a truncated signature', () => {
    expect(judge(gifBytes())).toEqual({ outcome: 'refused', reason: 'not_image' });
    expect(judge(notAnImageBytes())).toEqual({ outcome: 'refused', reason: 'not_image' });
    const wav = new Uint8Array([...new TextEncoder().encode('RIFF'), 36, 0, 0, 0, ...new TextEncoder().encode('WAVEfmt ')]);
    expect(judge(wav)).toEqual({ outcome: 'refused', reason: 'not_image' });
    expect(judge(pngBytes().subarray(0, 4), 4)).toEqual({ outcome: 'refused', reason: 'not_image' });
    expect(judge(webpBytes().subarray(0, 8), 8)).toEqual({ outcome: 'refused', reason: 'not_image' });
  });

  it('takes an image of exactly 5 MB and refuses one byte more, and an empty file', () => {
    expect(COVER_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(judge(pngBytes(), COVER_MAX_BYTES)).toEqual({ outcome: 'image', mediaType: 'image/png' });
    expect(judge(pngBytes(), COVER_MAX_BYTES + 1)).toEqual({ outcome: 'refused', reason: 'too_large' });
    expect(judge(new Uint8Array(), 0)).toEqual({ outcome: 'refused', reason: 'empty' });
  });

  it('lets the storage take what was declared, never over 5 MB', () => {
    expect(coverUploadMaxBytes(1234)).toBe(1234);
    expect(coverUploadMaxBytes(COVER_MAX_BYTES * 2)).toBe(COVER_MAX_BYTES);
  });

  it("keeps the cover beside the track's audio (the listen grant's prefix), its upload beside the track's upload", () => {
    expect(trackCoverKey('u1', '01K')).toBe(`${trackAudioKey('u1', '01K')}-cover`);
    expect(trackCoverKey('u1', '01K').startsWith('tracks/u1/')).toBe(true);
    expect(coverUploadKey('u1', '01K')).toBe(`${trackUploadKey('u1', '01K')}-cover`);
  });

  it("the browser declares a type from the file's type or name, and its picker offers exactly the three", () => {
    expect(coverMediaTypeOf({ name: 'cover.JPG', type: '' })).toBe('image/jpeg');
    expect(coverMediaTypeOf({ name: 'cover', type: 'image/webp' })).toBe('image/webp');
    expect(coverMediaTypeOf({ name: 'cover.gif', type: 'image/gif' })).toBeUndefined();
    expect(coverMediaTypeOf({ name: 'cover.svg', type: 'image/svg+xml' })).toBeUndefined();
    expect(coverAccept.split(',').sort()).toEqual(['.jpeg', '.jpg', '.png', '.webp', 'image/jpeg', 'image/png', 'image/webp']);
    expect(trackMessages.coverInvalid).toBe('Cover art must be a JPEG, PNG or WebP image up to 5 MB.');
  });
});
