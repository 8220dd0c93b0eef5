import { COVER_MAX_BYTES, coverMediaTypeOf, TRACK_MAX_BYTES, trackMediaTypeOf, trackMessages } from '../../../../schema/api/trackValues';

/**
 * The browser's checks of a chosen file before it uploads (the storage policy and the server check
 * again): one of our formats, not empty, at most 200 MB. Answers the media type to declare, or why not.
 */
export function checkTrackFile(file: { name: string; type: string; size: number }): { ok: true; contentType: string } | { ok: false; message: string } {
  const contentType = trackMediaTypeOf(file);
  if (contentType === undefined) return { ok: false, message: trackMessages.unsupportedType };
  if (file.size === 0) return { ok: false, message: trackMessages.empty };
  if (file.size > TRACK_MAX_BYTES) return { ok: false, message: trackMessages.tooLarge };
  return { ok: true, contentType };
}

/**
 * The browser's check of a chosen cover image (issue 25 §5): a JPEG, PNG or WebP by its type or name,
 * not empty, at most 5 MB. The server judges the stored bytes again (a text file named .jpg passes here).
 */
export function checkCoverFile(file: { name: string; type: string; size: number }): { ok: true; contentType: string } | { ok: false; message: string } {
  const contentType = coverMediaTypeOf(file);
  if (contentType === undefined || file.size === 0 || file.size > COVER_MAX_BYTES) return { ok: false, message: trackMessages.coverInvalid };
  return { ok: true, contentType };
}

/** The track's name from its file's: without the ending. */
export const trackNameOf = (fileName: string) => fileName.replace(/\.[a-z0-9]+$/i, '').trim() || fileName;

export const WAVEFORM_PEAKS = 800;

/**
 * The waveform, once, in the browser: the file decoded with Web Audio and split into `count` slices,
 * each the loudest sample of its slice (all channels), scaled to 0–1. Undefined when the browser cannot
 * decode the file (the track is kept without a waveform).
 */
export async function computePeaks(file: Blob, count = WAVEFORM_PEAKS): Promise<number[] | undefined> {
  const AudioContextClass = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!AudioContextClass) return undefined;
  const context = new AudioContextClass();
  try {
    const audio = await context.decodeAudioData(await file.arrayBuffer());
    return peaksOf(
      Array.from({ length: audio.numberOfChannels }, (_, channel) => audio.getChannelData(channel)),
      count,
    );
  } catch {
    return undefined;
  } finally {
    void context.close().catch(() => undefined);
  }
}

/** `count` peaks of the channels' samples (each the loudest absolute sample of its slice), to 3 decimals, at most 1. */
export function peaksOf(channels: readonly Float32Array[], count: number): number[] {
  const length = channels[0]?.length ?? 0;
  if (length === 0) return [];
  const slices = Math.min(count, length);
  const peaks: number[] = [];
  for (let slice = 0; slice < slices; slice++) {
    const start = Math.floor((slice * length) / slices);
    const end = Math.floor(((slice + 1) * length) / slices);
    let peak = 0;
    for (const samples of channels) {
      for (let i = start; i < end; i++) peak = Math.max(peak, Math.abs(samples[i] ?? 0));
    }
    peaks.push(Math.round(Math.min(peak, 1) * 1000) / 1000);
  }
  return peaks;
}

/** 212.5 → '3:32'. */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  return `${String(Math.floor(whole / 60))}:${String(whole % 60).padStart(2, '0')}`;
}
