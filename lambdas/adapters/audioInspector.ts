/**
 * Reads what a stored file is with music-metadata (issue 16): container, codec, duration, sample rate.
 * Reads the stream only as far as the format needs (a WAV's or FLAC's header; an MP3's first frames),
 * and cancels it then. A file of MPEG or ADTS frames that says nothing of its length (every AAC in
 * ADTS; a VBR MP3 without a Xing or VBRI header) is read a second time to its end, counting frames:
 * at most TRACK_MAX_BYTES, streamed from storage. A file music-metadata cannot read gives empty facts:
 * the core calls it not audio.
 */
import { parseWebStream } from 'music-metadata';
import { TRACK_MAX_BYTES } from '../../schema/api/trackValues';
import type { AudioFacts } from '../core/tracks';
import type { AudioInspector } from '../ports';

async function factsOf(audio: ReadableStream<Uint8Array>, file: { contentType: string; size: number }, countFrames: boolean): Promise<AudioFacts> {
  try {
    const { format } = await parseWebStream(
      audio,
      { mimeType: file.contentType, size: file.size },
      { duration: countFrames, skipCovers: true, skipPostHeaders: true },
    );
    return {
      ...(format.container !== undefined ? { container: format.container } : {}),
      ...(format.codec !== undefined ? { codec: format.codec } : {}),
      ...(format.duration !== undefined ? { durationSeconds: format.duration } : {}),
      ...(format.sampleRate !== undefined ? { sampleRate: format.sampleRate } : {}),
      ...(format.hasVideo !== undefined ? { hasVideo: format.hasVideo } : {}),
    } satisfies AudioFacts;
  } catch {
    return {};
  } finally {
    await audio.cancel().catch(() => undefined);
  }
}

/** music-metadata's containers of bare frames (`MPEG`, `ADTS/MPEG-4`): their length is known only by counting. */
const isFrameStream = (container: string | undefined) => /^(MPEG|ADTS)\b/i.test(container ?? '');

export const musicMetadataInspector: AudioInspector = {
  async inspect(audio, file, readAgain) {
    const facts = await factsOf(audio, file, false);
    if (facts.durationSeconds !== undefined || !isFrameStream(facts.container) || file.size > TRACK_MAX_BYTES) return facts;
    const again = await readAgain();
    return again ? factsOf(again, file, true) : facts;
  },
};
