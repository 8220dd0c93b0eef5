/**
 * Reads what a stored file is with music-metadata (issue 16): container, codec, duration, sample rate.
 * Reads the stream only as far as the format needs (a WAV's or FLAC's header; an MP3's first frames),
 * and cancels it then. A file music-metadata cannot read gives empty facts: the core calls it not audio.
 */
import { parseWebStream } from 'music-metadata';
import type { AudioFacts } from '../core/tracks';
import type { AudioInspector } from '../ports';

export const musicMetadataInspector: AudioInspector = {
  async inspect(audio, file) {
    try {
      const { format } = await parseWebStream(
        audio,
        { mimeType: file.contentType, size: file.size },
        { duration: false, skipCovers: true, skipPostHeaders: true },
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
  },
};
