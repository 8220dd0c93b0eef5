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
