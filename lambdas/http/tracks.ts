/**
 * The artist's tracks (issue 16, DESIGN §12): ask for an upload (the browser then posts the file
 * straight to storage), complete it (the server reads what arrived and keeps it only when it is
 * audio of a format we take), add cover art to a ready track the same two ways (issue 25 §5: an image
 * judged by its bytes, kept beside the audio), list the ready tracks ('My tracks'), delete one (its
 * audio and cover). Another user's track id is not under the caller's partition: 404. Logs carry ids,
 * never names.
 */
import type { CoverUpload, Track, TrackList, TrackUpload } from '../../schema/api/tracks';
import { TRACK_MAX_BYTES, trackMessages } from '../../schema/api/trackValues';
import { isUlid } from '../core/ids';
import {
  campaignsStillSending,
  COVER_SIGNATURE_BYTES,
  coverUploadKey,
  coverUploadMaxBytes,
  judgeAudio,
  judgeCoverArt,
  PENDING_UPLOAD_SECONDS,
  storedPeaks,
  trackAudioKey,
  trackCoverKey,
  trackUploadKey,
  UPLOAD_POLICY_SECONDS,
  uploadMaxBytes,
  type StoredTrack,
} from '../core/tracks';
import type { AudioInspector, AudioStore, CampaignStore, Clock, IdGenerator, TrackStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { tracksDeps } from '../composition/tracks';
import { HttpError, httpApi, json, knownId, lazyHandler, logger, noContent, parseForm } from './api';

export interface TracksDeps {
  tracks: TrackStore;
  /** The user's campaigns: a track their unsent emails link to is not deleted. */
  campaigns: Pick<CampaignStore, 'list'>;
  audio: AudioStore;
  inspector: AudioInspector;
  ids: IdGenerator;
  clock: Clock;
}

/** The body schemas, loaded by the first upload or complete: the list and delete validate no body. */
const trackSchemas = () => import('../../schema/api/tracks');

/** A ready track as complete answers it. */
const trackOf = (track: StoredTrack): Track => ({
  id: track.id,
  name: track.name,
  format: track.format ?? 'mp3',
  content_type: track.content_type,
  duration_seconds: track.duration_seconds ?? 0,
  sample_rate: track.sample_rate ?? null,
  size_bytes: track.size_bytes,
  created_at: track.created_at,
  peaks: track.peaks ?? [],
  ...(track.cover_type ? { cover_type: track.cover_type } : {}),
});

/** The first `count` bytes of a stream (fewer when it is shorter); the rest is never read. */
async function firstBytes(stream: ReadableStream<Uint8Array>, count: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const head = new Uint8Array(count);
  let filled = 0;
  try {
    while (filled < count) {
      const { value, done } = await reader.read();
      if (done) break;
      const part = value.subarray(0, count - filled);
      head.set(part, filled);
      filled += part.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return head.subarray(0, filled);
}

export const makeHandler = ({ tracks, campaigns, audio, inspector, ids, clock }: TracksDeps) => {
  /** Refuses an uploaded file: its object (at `key`) deleted and its pending track forgotten, then the 400 with `message`. */
  const refuse = async (userId: string, track: StoredTrack, key: string, message: string, reason: string): Promise<never> => {
    await audio.delete(key);
    await tracks.forgetPending(userId, track.id);
    logger.info('Track upload refused', { trackId: track.id, reason });
    throw new HttpError(400, message, reason);
  };

  /**
   * A complete that lost a race (another complete moved the upload or marked the track first): the
   * track as it is now, 200 when ready (complete is idempotent); otherwise `error`.
   */
  const readyOr = async (userId: string, id: string, error: HttpError) => {
    const now = await tracks.get(userId, id);
    if (now?.status === 'ready') return json(200, trackOf(now) satisfies Track);
    throw error;
  };

  /** The caller's ready track for its cover: 404 when missing, deleted or another user's; 409 while its own upload is pending. */
  const readyTrack = async (userId: string, id: string): Promise<StoredTrack> => {
    const track = await tracks.get(userId, id);
    if (!track || track.status === 'deleted') throw new HttpError(404, trackMessages.notFound);
    if (track.status !== 'ready') throw new HttpError(409, trackMessages.coverTrackNotReady, 'track_not_ready');
    return track;
  };

  return httpApi('tracks', {
    'GET /api/tracks': async ({ identity }) => json(200, { tracks: await tracks.listReady(identity.userId) } satisfies TrackList),

    /** Step 1: a pending track and the form the browser posts its file with (the storage enforces type and size). */
    'POST /api/tracks/uploads': async ({ identity, body }) => {
      const { trackUploadRequestSchema } = await trackSchemas();
      const input = parseForm(trackUploadRequestSchema, body, { required: [{ path: ['name'], message: trackMessages.nameRequired }] });
      const now = clock.now();
      const id = ids.next(now);
      const track: StoredTrack = {
        id,
        name: input.name,
        status: 'pending',
        audio_key: trackAudioKey(identity.userId, id),
        content_type: input.content_type,
        size_bytes: input.size,
        created_at: now.toISOString(),
      };
      await tracks.createPending(identity.userId, track, new Date(now.getTime() + PENDING_UPLOAD_SECONDS * 1000));
      const form = await audio.presignUpload({
        key: trackUploadKey(identity.userId, id),
        contentType: input.content_type,
        maxBytes: uploadMaxBytes(input.size),
        expiresInSeconds: UPLOAD_POLICY_SECONDS,
        now,
      });
      logger.info('Track upload started', { trackId: id, bytes: input.size });
      return json(201, { track_id: id, upload: { url: form.url, fields: form.fields, expires_at: form.expiresAt.toISOString() } } satisfies TrackUpload);
    },

    /**
     * Step 2, after the browser's upload: the server reads the uploaded file and, only when it is audio,
     * moves it to the track's key and marks the track ready (a form posted again writes to the upload key only).
     */
    'POST /api/tracks/{id}/complete': async ({ identity, params, body }) => {
      const { trackCompleteRequestSchema } = await trackSchemas();
      const id = knownId(params.id, isUlid, trackMessages.notFound);
      const input = parseForm(trackCompleteRequestSchema, body ?? {});
      const track = await tracks.get(identity.userId, id);
      if (!track) throw new HttpError(404, trackMessages.notFound);
      if (track.status === 'ready') return json(200, trackOf(track) satisfies Track); // a repeated complete: the same answer
      if (track.status === 'deleted') throw new HttpError(404, trackMessages.alreadyDeleted);

      // The upload, or (a complete that moved it but failed before marking the track) the track's own object.
      const uploaded = trackUploadKey(identity.userId, id);
      let source = uploaded;
      let head = await audio.head(uploaded);
      if (!head) [source, head] = [track.audio_key, await audio.head(track.audio_key)];
      if (!head) return readyOr(identity.userId, id, new HttpError(409, trackMessages.notUploaded, 'not_uploaded'));
      if (head.size > TRACK_MAX_BYTES) return refuse(identity.userId, track, source, trackMessages.tooLarge, 'too_large');
      const judge = async (key: string, size: number) => {
        const stream = await audio.read(key);
        return stream && judgeAudio(await inspector.inspect(stream, { contentType: track.content_type, size }, () => audio.read(key)));
      };
      let verdict = await judge(source, head.size);
      if ((!verdict || verdict.outcome === 'not_audio') && source === uploaded && !(await audio.head(uploaded))) {
        // A complete running beside this one moved the upload while this one read it (a read cut short is
        // no verdict on the file): judge the moved file instead, never refuse (and forget) a track it is making ready.
        source = track.audio_key;
        const moved = await audio.head(source);
        verdict = moved && (await judge(source, moved.size));
      }
      if (!verdict) return readyOr(identity.userId, id, new HttpError(409, trackMessages.notUploaded, 'not_uploaded'));
      if (verdict.outcome === 'not_audio') return refuse(identity.userId, track, source, trackMessages.notAudio, 'not_audio');

      // Moved already by a complete running beside this one (the same upload, read the same): mark it all the same.
      if (source === uploaded && !(await audio.promote(uploaded, track.audio_key)) && !(await audio.head(track.audio_key))) {
        return readyOr(identity.userId, id, new HttpError(409, trackMessages.notUploaded, 'not_uploaded'));
      }
      const ready = await tracks.markReady(identity.userId, id, {
        format: verdict.format,
        duration_seconds: verdict.durationSeconds,
        sample_rate: verdict.sampleRate,
        size_bytes: head.size,
        peaks: storedPeaks(input.peaks),
      });
      if (!ready) return readyOr(identity.userId, id, new HttpError(404, trackMessages.notFound)); // made ready by another complete, or deleted
      logger.info('Track uploaded', { trackId: id, format: verdict.format, bytes: head.size });
      return json(201, trackOf(ready) satisfies Track);
    },

    /** Cover art, step 1 (issue 25 §5): the form the browser posts the image with, as for the track's audio (the storage enforces type and size). */
    'POST /api/tracks/{id}/cover/uploads': async ({ identity, params, body }) => {
      const { coverUploadRequestSchema } = await trackSchemas();
      const id = knownId(params.id, isUlid, trackMessages.notFound);
      const input = parseForm(coverUploadRequestSchema, body);
      await readyTrack(identity.userId, id);
      const now = clock.now();
      const form = await audio.presignUpload({
        key: coverUploadKey(identity.userId, id),
        contentType: input.content_type,
        maxBytes: coverUploadMaxBytes(input.size),
        expiresInSeconds: UPLOAD_POLICY_SECONDS,
        now,
      });
      logger.info('Cover upload started', { trackId: id, bytes: input.size });
      return json(201, { upload: { url: form.url, fields: form.fields, expires_at: form.expiresAt.toISOString() } } satisfies CoverUpload);
    },

    /**
     * Cover art, step 2: the server reads the stored image's size and first bytes (never its name or
     * declared type) and, only when it is a JPEG, PNG or WebP of at most 5 MB, moves it beside the
     * track's audio (replacing an earlier cover) and records it. Anything else is deleted and refused.
     */
    'POST /api/tracks/{id}/cover/complete': async ({ identity, params }) => {
      const id = knownId(params.id, isUlid, trackMessages.notFound);
      await readyTrack(identity.userId, id);
      const uploaded = coverUploadKey(identity.userId, id);
      const head = await audio.head(uploaded);
      const stream = head && (await audio.read(uploaded));
      if (!head || !stream) throw new HttpError(409, trackMessages.notUploaded, 'not_uploaded');
      const verdict = judgeCoverArt(await firstBytes(stream, COVER_SIGNATURE_BYTES), head.size);
      if (verdict.outcome === 'refused') {
        await audio.delete(uploaded);
        logger.info('Cover upload refused', { trackId: id, reason: verdict.reason });
        throw new HttpError(400, trackMessages.coverInvalid, `cover_${verdict.reason}`);
      }
      const coverKey = trackCoverKey(identity.userId, id);
      // Served as what its bytes are, not what the browser declared (a WebP named .png).
      if (!(await audio.promote(uploaded, coverKey, { contentType: verdict.mediaType }))) {
        // Another complete of the same upload moved it first: its answer is this one's.
        const now = await tracks.get(identity.userId, id);
        if (now?.status === 'ready' && now.cover_key) return json(200, trackOf(now) satisfies Track);
        throw new HttpError(409, trackMessages.notUploaded, 'not_uploaded');
      }
      const updated = await tracks.setCover(identity.userId, id, { key: coverKey, type: verdict.mediaType });
      if (!updated) {
        // Deleted while this ran: its cover goes too.
        await audio.delete(coverKey);
        throw new HttpError(404, trackMessages.notFound);
      }
      logger.info('Cover added', { trackId: id, type: verdict.mediaType, bytes: head.size });
      return json(200, trackOf(updated) satisfies Track);
    },

    /**
     * Deletes the track's audio and cover (and any upload of either), then marks it deleted (a listen link of it will say so). In this order
     * a failure between the two leaves a track that a retry deletes, never a deleted track's audio. Refused (409, naming
     * them) while campaigns with emails still to send link to it: they would send dead listen links.
     */
    'DELETE /api/tracks/{id}': async ({ identity, params }) => {
      const id = knownId(params.id, isUlid, trackMessages.notFound);
      const [track, all] = await Promise.all([tracks.get(identity.userId, id), campaigns.list(identity.userId)]);
      if (!track || track.status === 'deleted') throw new HttpError(404, trackMessages.notFound);
      const holding = campaignsStillSending(all, id);
      if (holding.length > 0) {
        logger.info('Track delete refused: campaigns still sending', { trackId: id, campaigns: holding.length });
        throw new HttpError(409, trackMessages.inUse(holding.map((campaign) => campaign.track_name)), 'track_in_use');
      }
      await Promise.all(
        [track.audio_key, trackUploadKey(identity.userId, id), trackCoverKey(identity.userId, id), coverUploadKey(identity.userId, id)].map((key) =>
          audio.delete(key),
        ),
      );
      if (!(await tracks.markDeleted(identity.userId, id, clock.now()))) throw new HttpError(404, trackMessages.notFound);
      logger.info('Track deleted', { trackId: id });
      return noContent();
    },
  });
};

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(tracksDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
