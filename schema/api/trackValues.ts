/**
 * The artist's tracks (issue 16, DESIGN §12), zod-free: the formats an upload may be, the size limit,
 * the bounds of a name and of the waveform peaks, and the texts the server answers with. The web app
 * checks a file with the same values before it uploads; the server and the storage policy enforce them.
 */

/** The formats a track may be, as the API names them. */
export const trackFormats = ['mp3', 'wav', 'flac', 'aiff', 'aac', 'm4a'] as const;
export type TrackFormat = (typeof trackFormats)[number];

/** 200 MB (issue 16): the storage policy, the server and the browser each refuse a larger file. */
export const TRACK_MAX_BYTES = 200 * 1024 * 1024;

export const TRACK_NAME_MAX_LENGTH = 200;

/** The waveform the browser computes once: at most this many peaks, each a number from 0 to 1. */
export const TRACK_PEAKS_MAX = 2000;

/** The fields of a track as 'My tracks' lists it (tracks.ts trackSummarySchema has exactly these): what the store reads. */
export const TRACK_SUMMARY_FIELDS = [
  'id',
  'name',
  'format',
  'content_type',
  'duration_seconds',
  'sample_rate',
  'size_bytes',
  'created_at',
  'cover_type',
] as const;

/**
 * The media types an upload may declare, and the format each stands for. Browsers differ (a WAV is
 * `audio/wav` in Chromium, `audio/x-wav` elsewhere); the server checks the bytes, not this name.
 */
export const trackMediaTypes: Readonly<Record<string, TrackFormat>> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/aiff': 'aiff',
  'audio/x-aiff': 'aiff',
  'audio/aac': 'aac',
  'audio/x-aac': 'aac',
  'audio/mp4': 'm4a',
  'audio/m4a': 'm4a',
  'audio/x-m4a': 'm4a',
};

/** File name endings and the media type a browser that gives none should declare for them. */
export const trackExtensions: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  wave: 'audio/wav',
  flac: 'audio/flac',
  aif: 'audio/aiff',
  aiff: 'audio/aiff',
  aifc: 'audio/aiff',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
};

/** The file picker's `accept`: every extension and media type above. */
export const trackAccept = [...Object.keys(trackExtensions).map((extension) => `.${extension}`), ...Object.keys(trackMediaTypes)].join(',');

/** The media type to declare for a file: the browser's when it is one of ours, else the one its name's ending stands for. */
export function trackMediaTypeOf(file: { name: string; type: string }): string | undefined {
  const declared = file.type.toLowerCase();
  if (declared in trackMediaTypes) return declared;
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : trackExtensions[extension];
}

/**
 * Cover art (issue 25 §5): an optional image of a ready track, shown on the listen page in a fixed
 * square box (no server-side resizing). What it is comes from its bytes (lambdas/core/tracks.ts
 * judgeCoverArt); the media type declared only picks the storage policy's Content-Type.
 */
export const COVER_MAX_BYTES = 5 * 1024 * 1024;
export const coverMediaTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type CoverMediaType = (typeof coverMediaTypes)[number];
export const isCoverMediaType = (value: string): value is CoverMediaType => (coverMediaTypes as readonly string[]).includes(value);

/** File name endings and the media type a browser that gives none should declare for them. */
export const coverExtensions: Readonly<Record<string, CoverMediaType>> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** The cover picker's `accept`. */
export const coverAccept = [...Object.keys(coverExtensions).map((extension) => `.${extension}`), ...coverMediaTypes].join(',');

/** The media type to declare for an image: the browser's when it is one of ours, else its name's ending's; undefined: not one we take. */
export function coverMediaTypeOf(file: { name: string; type: string }): CoverMediaType | undefined {
  const declared = file.type.toLowerCase();
  if (isCoverMediaType(declared)) return declared;
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : coverExtensions[extension];
}

export const trackMessages = {
  notFound: 'Track not found.',
  nameRequired: 'Please give the track a name.',
  nameTooLong: `A track name has at most ${TRACK_NAME_MAX_LENGTH} characters.`,
  unsupportedType: 'Please upload an MP3, WAV, FLAC, AIFF or AAC/M4A file.',
  tooLarge: 'The file is larger than 200 MB. Please upload a smaller file (an MP3 of the track is fine).',
  empty: 'The file is empty.',
  notAudio: 'This file is not audio we can play (MP3, WAV, FLAC, AIFF or AAC/M4A). Please upload the track itself.',
  notUploaded: 'The file has not arrived yet. Please upload it again.',
  alreadyDeleted: 'This track was deleted.',
  /** A draft whose track was deleted before it was sent: its emails would link to a page with no track. */
  campaignTrackDeleted: 'The track this campaign links to was deleted. Choose another track for it, then send.',
  /**
   * DELETE refused (409): campaigns with emails still to send (sending, scheduled, or paused with
   * recipients left) link to the track; they are named, quoted. Pausing does not free it (a paused
   * campaign resumes where it stopped), so the words say to wait for them to finish.
   */
  inUse: (campaignNames: readonly string[]) =>
    `This track is used by campaigns still sending: ${campaignNames.map((name) => `"${name}"`).join(', ')}. Their emails link to it: delete it once they finish.`,
  /** Every refusal of a cover: a type we do not take, by its bytes or as declared, too large, or empty. */
  coverInvalid: 'Cover art must be a JPEG, PNG or WebP image up to 5 MB.',
  /** A cover for a track whose own upload has not been completed. */
  coverTrackNotReady: 'Finish uploading the track before adding its cover art.',
  peaksInvalid: `The waveform must be a list of at most ${TRACK_PEAKS_MAX} numbers from 0 to 1.`,
} as const;
