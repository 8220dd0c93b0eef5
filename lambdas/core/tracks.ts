/**
 * The artist's tracks (issue 16, DESIGN §12): where a track's audio is kept, how long an upload may
 * take, and which files are tracks. What the file is comes from its bytes (music-metadata's reading,
 * passed in as AudioFacts), never from the name or the media type the browser declared.
 */
import type { Campaign } from '../../schema/api/campaigns';
import { pendingEmails } from '../../schema/api/campaignValues';
import { COVER_MAX_BYTES, TRACK_MAX_BYTES, trackMediaTypes, type CoverMediaType, type TrackFormat } from '../../schema/api/trackValues';

/** The audio object of a ready track: under its owner's prefix, so a key names whose it is. Only complete writes it. */
export const trackAudioKey = (userId: string, trackId: string) => `tracks/${userId}/${trackId}`;

/**
 * Where the browser's upload lands (the presigned form's key): complete reads it there and moves it to
 * trackAudioKey only when it is audio, so a form posted again later (it is good for 15 minutes) writes
 * here, never over a ready track's checked audio. The storage expires what is left here after a day.
 */
export const trackUploadKey = (userId: string, trackId: string) => `uploads/${userId}/${trackId}`;

/**
 * A ready track's cover art (issue 25 §5): beside its audio, under the same prefix (so the listen page's
 * read grant and the delete reach it), and where its upload lands until complete checks it. No dot in
 * the key: the local store takes plain segments only.
 */
export const trackCoverKey = (userId: string, trackId: string) => `${trackAudioKey(userId, trackId)}-cover`;
export const coverUploadKey = (userId: string, trackId: string) => `${trackUploadKey(userId, trackId)}-cover`;

/** How long the browser may take to start its upload with the presigned POST. */
export const UPLOAD_POLICY_SECONDS = 15 * 60;

/** A pending upload that is never completed is forgotten by DynamoDB after a day (its uploaded object by the storage's expiry of uploads/). */
export const PENDING_UPLOAD_SECONDS = 24 * 60 * 60;

/** The size the storage policy lets the browser post: exactly what it declared, never over the limit. */
export const uploadMaxBytes = (declaredSize: number) => Math.min(declaredSize, TRACK_MAX_BYTES);

/** The size the storage policy lets the browser post a cover with: exactly what it declared, never over the limit. */
export const coverUploadMaxBytes = (declaredSize: number) => Math.min(declaredSize, COVER_MAX_BYTES);

/** The bytes of a stored cover judgeCoverArt reads: its first ones (a WebP's signature is the longest). */
export const COVER_SIGNATURE_BYTES = 12;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => Array.from(new TextEncoder().encode(text));
const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');

/** What a stored cover is: an image of a type we take, or refused (core of 'Cover art must be a JPEG, PNG or WebP image up to 5 MB.'). */
export type CoverVerdict = { outcome: 'image'; mediaType: CoverMediaType } | { outcome: 'refused'; reason: 'empty' | 'too_large' | 'not_image' };

/**
 * Judges a stored cover by its size and its first bytes (`head`: at least COVER_SIGNATURE_BYTES when the
 * file has them), never by its name or declared type: JPEG (FF D8 FF), PNG (its 8-byte signature), WebP
 * (a RIFF container of form WEBP). GIF, SVG, HEIC and anything else are refused.
 */
export function judgeCoverArt(head: Uint8Array, size: number): CoverVerdict {
  if (size <= 0) return { outcome: 'refused', reason: 'empty' };
  if (size > COVER_MAX_BYTES) return { outcome: 'refused', reason: 'too_large' };
  if (startsWith(head, JPEG)) return { outcome: 'image', mediaType: 'image/jpeg' };
  if (startsWith(head, PNG)) return { outcome: 'image', mediaType: 'image/png' };
  if (startsWith(head, RIFF) && startsWith(head, WEBP, 8)) return { outcome: 'image', mediaType: 'image/webp' };
  return { outcome: 'refused', reason: 'not_image' };
}

/** The format a declared media type stands for (undefined: not one we take). */
export const formatOfMediaType = (mediaType: string): TrackFormat | undefined => trackMediaTypes[mediaType.toLowerCase()];

/** What music-metadata read of a file: its container, codec, duration and sample rate (absent when it could not tell). */
export interface AudioFacts {
  container?: string;
  codec?: string;
  durationSeconds?: number;
  sampleRate?: number;
  hasVideo?: boolean;
}

/** What a stored file turned out to be: a track of a format, or not audio we take. */
export type AudioVerdict = { outcome: 'audio'; format: TrackFormat; durationSeconds: number; sampleRate: number | null } | { outcome: 'not_audio' };

/** music-metadata's container names (upper-cased) and the format each is; ADTS is `ADTS/MPEG-4` (or -2); MP4 containers are `M4A/…`, `MP4/…`, `isom/…`. */
function formatOfContainer(container: string, codec: string): TrackFormat | undefined {
  if (container === 'WAVE') return 'wav';
  if (container === 'FLAC') return 'flac';
  if (container === 'AIFF' || container === 'AIFF-C') return 'aiff';
  if (container === 'ADTS' || container.startsWith('ADTS/')) return codec.includes('AAC') ? 'aac' : undefined;
  // MPEG-1/2 Layer 3 only: Layer 1 and 2 are not what browsers play as MP3.
  if (container.startsWith('MPEG')) return /LAYER 3/.test(codec) ? 'mp3' : undefined;
  if (/^(M4A|MP4|ISOM|MP42|M4B)\b/.test(container)) return /AAC|ALAC|MPEG-4\/AAC/.test(codec) ? 'm4a' : undefined;
  return undefined;
}

/** A stored file is a track when it is one of our formats, has no video, and lasts some time. */
export function judgeAudio(facts: AudioFacts): AudioVerdict {
  const format = formatOfContainer((facts.container ?? '').toUpperCase(), (facts.codec ?? '').toUpperCase());
  const duration = facts.durationSeconds;
  if (!format || facts.hasVideo === true || duration === undefined || !Number.isFinite(duration) || duration <= 0) return { outcome: 'not_audio' };
  const sampleRate = facts.sampleRate !== undefined && Number.isFinite(facts.sampleRate) && facts.sampleRate > 0 ? Math.round(facts.sampleRate) : null;
  return { outcome: 'audio', format, durationSeconds: Math.round(duration * 1000) / 1000, sampleRate };
}

/** Peaks as stored: each rounded to 3 decimals (the browser's floats carry nothing a waveform shows). */
export const storedPeaks = (peaks: readonly number[] | undefined): number[] => (peaks ?? []).map((peak) => Math.round(peak * 1000) / 1000);

/**
 * A track as kept under its owner's partition. `pending` between the upload's start and its complete
 * (the audio may not be there yet); `ready` once the server has read it; `deleted` when the artist
 * deleted it (the item stays, so a listen link of it can say the track is gone; the audio is deleted).
 */
export type TrackStatus = 'pending' | 'ready' | 'deleted';

export interface StoredTrack {
  id: string;
  name: string;
  status: TrackStatus;
  /** The audio object's key in the AudioStore (trackAudioKey). */
  audio_key: string;
  /** The media type the upload declared (and the storage policy held it to). */
  content_type: string;
  /** Declared at the upload's start; the stored size once ready. */
  size_bytes: number;
  created_at: string;
  /** Set once ready: what the server read of the file, and the browser's waveform. */
  format?: TrackFormat;
  duration_seconds?: number;
  sample_rate?: number | null;
  peaks?: number[];
  deleted_at?: string;
  /** Set once a cover was completed: its key (trackCoverKey) and the type its bytes said. */
  cover_key?: string;
  cover_type?: CoverMediaType;
}

/** What the server learnt of a stored file when it completed the upload. */
export interface ReadyTrackFacts {
  format: TrackFormat;
  duration_seconds: number;
  sample_rate: number | null;
  size_bytes: number;
  peaks: number[];
}

/** What the delete check reads of a campaign. */
export type TrackUse = Pick<
  Campaign,
  'track_id' | 'track_name' | 'status' | 'total_queued' | 'emails_sent' | 'emails_failed' | 'emails_skipped' | 'emails_unknown'
>;

/**
 * The campaigns that still have emails to send with links to this track: sending, scheduled or paused,
 * with recipients left. Deleting the track under them would send dead listen links, so the delete is
 * refused naming them. A draft (checked again when it starts) and a finished campaign do not hold it.
 */
export function campaignsStillSending(campaigns: readonly TrackUse[], trackId: string): TrackUse[] {
  return campaigns.filter(
    (campaign) =>
      campaign.track_id === trackId && (['sending', 'scheduled', 'paused'] as const).some((s) => s === campaign.status) && pendingEmails(campaign) > 0,
  );
}
