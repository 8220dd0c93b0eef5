/** Audio made in code for the tracks tests (no fixtures, no network): a short PCM WAV of a sine tone. */

/** A 16-bit mono WAV of a 440 Hz tone: 44 header bytes, then `seconds × sampleRate` samples. */
export function wavBytes({ seconds = 1, sampleRate = 8000 }: { seconds?: number; sampleRate?: number } = {}): Uint8Array<ArrayBuffer> {
  const samples = Math.round(seconds * sampleRate);
  const data = samples * 2;
  const bytes = new Uint8Array(44 + data);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => {
    bytes.set(new TextEncoder().encode(value), at); // ASCII chunk ids
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + data, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true); // PCM fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  text(36, 'data');
  view.setUint32(40, data, true);
  for (let i = 0; i < samples; i++) view.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 12000), true);
  return bytes;
}

/** A text file, as a user might rename one `.mp3`. */
export const textBytes = (): Uint8Array<ArrayBuffer> => new TextEncoder().encode('These are the lyrics of the track, not the track.\n'.repeat(40));

const SAMPLE_RATE_INDEX: Record<number, number> = { 48000: 3, 44100: 4, 32000: 5, 24000: 6, 22050: 7, 16000: 8, 8000: 11 };

/**
 * An AAC-LC stereo stream in ADTS, as a `.aac` file is: one 7-byte ADTS header (no CRC) and a small
 * payload per frame of 1024 samples, `seconds` long. The payload is silence-shaped zeros: enough for a
 * reader that counts frames, not for a decoder.
 */
export function adtsBytes({ seconds = 1, sampleRate = 44100, payloadBytes = 100 }: { seconds?: number; sampleRate?: number; payloadBytes?: number } = {}) {
  const frames = Math.round((seconds * sampleRate) / 1024);
  const frameLength = 7 + payloadBytes;
  const rateIndex = SAMPLE_RATE_INDEX[sampleRate];
  if (rateIndex === undefined) throw new Error(`no ADTS sampling index for ${String(sampleRate)} Hz`);
  const channels = 2;
  const bytes = new Uint8Array(frames * frameLength);
  for (let frame = 0; frame < frames; frame++) {
    const at = frame * frameLength;
    bytes[at] = 0xff; // syncword 0xFFF …
    bytes[at + 1] = 0xf1; // … MPEG-4, layer 0, no CRC
    bytes[at + 2] = (1 << 6) | (rateIndex << 2) | (channels >> 2); // profile AAC LC (object type 2, stored minus 1)
    bytes[at + 3] = ((channels & 3) << 6) | (frameLength >> 11);
    bytes[at + 4] = (frameLength >> 3) & 0xff;
    bytes[at + 5] = ((frameLength & 7) << 5) | 0x1f; // buffer fullness 0x7FF: VBR
    bytes[at + 6] = 0xfc; // one raw data block
  }
  return bytes;
}

/** MPEG-1 Layer III bitrates (kbit/s) by header index. */
const MP3_BITRATES: Record<number, number> = { 9: 128, 10: 160, 11: 192, 12: 224 };

/**
 * A mono 44.1 kHz MP3 whose frames' bitrates vary (VBR) and that has no Xing, Info or VBRI header: its
 * length is known only by counting its `frames` frames of 1152 samples. Zero side information and data.
 */
export function vbrMp3Bytes({ frames = 120 }: { frames?: number } = {}) {
  const indices = Object.keys(MP3_BITRATES).map(Number);
  const lengths = Array.from({ length: frames }, (_, frame) => Math.floor((144 * (MP3_BITRATES[indices[frame % indices.length]!]! * 1000)) / 44100));
  const bytes = new Uint8Array(lengths.reduce((sum, length) => sum + length, 0));
  let at = 0;
  lengths.forEach((length, frame) => {
    bytes[at] = 0xff;
    bytes[at + 1] = 0xfb; // MPEG-1, Layer III, no CRC
    bytes[at + 2] = indices[frame % indices.length]! << 4; // bitrate; 44.1 kHz; no padding
    bytes[at + 3] = 0xc0; // mono
    at += length;
  });
  return bytes;
}
