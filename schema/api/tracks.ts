import * as z from 'zod';
import {
  COVER_MAX_BYTES,
  coverMediaTypes,
  isCoverMediaType,
  TRACK_MAX_BYTES,
  TRACK_NAME_MAX_LENGTH,
  TRACK_PEAKS_MAX,
  trackFormats,
  trackMediaTypes,
  trackMessages,
} from './trackValues';

export * from './trackValues';

/**
 * The tracks routes' bodies and answers (issue 16): an upload is asked for (name, media type, size),
 * sent by the browser straight to storage with the presigned POST, then completed (the server reads the
 * stored file's metadata; the browser adds the waveform peaks it computed).
 */

/** POST /api/tracks/uploads. */
export const trackUploadRequestSchema = z
  .object({
    name: z.string().trim().min(1, trackMessages.nameRequired).max(TRACK_NAME_MAX_LENGTH, trackMessages.nameTooLong),
    content_type: z
      .string()
      .transform((value) => value.trim().toLowerCase())
      .refine((value) => value in trackMediaTypes, trackMessages.unsupportedType),
    size: z.number().int().min(1, trackMessages.empty).max(TRACK_MAX_BYTES, trackMessages.tooLarge),
  })
  .strict();
export type TrackUploadRequest = z.infer<typeof trackUploadRequestSchema>;

/** Where and how the browser posts the file: a multipart form of `fields` (in order) and then the file as `file`. */
export const presignedUploadSchema = z.object({
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  expires_at: z.string(),
});
export type PresignedUpload = z.infer<typeof presignedUploadSchema>;

export const trackUploadSchema = z.object({ track_id: z.string(), upload: presignedUploadSchema });
export type TrackUpload = z.infer<typeof trackUploadSchema>;

/** POST /api/tracks/{id}/complete: the waveform the browser computed, or none when it could not decode the file. */
export const trackCompleteRequestSchema = z
  .object({
    peaks: z
      .array(z.number().min(0, trackMessages.peaksInvalid).max(1, trackMessages.peaksInvalid))
      .max(TRACK_PEAKS_MAX, trackMessages.peaksInvalid)
      .optional(),
  })
  .strict();
export type TrackCompleteRequest = z.infer<typeof trackCompleteRequestSchema>;

/**
 * POST /api/tracks/{id}/cover/uploads: the cover's declared media type and size (issue 25 §5). The same
 * two steps as the track's own upload: a presigned form, then POST /api/tracks/{id}/cover/complete, where
 * the server reads the stored bytes.
 */
export const coverUploadRequestSchema = z
  .object({
    content_type: z
      .string()
      .transform((value) => value.trim().toLowerCase())
      .refine(isCoverMediaType, trackMessages.coverInvalid),
    size: z.number().int().min(1, trackMessages.coverInvalid).max(COVER_MAX_BYTES, trackMessages.coverInvalid),
  })
  .strict();
export type CoverUploadRequest = z.infer<typeof coverUploadRequestSchema>;

export const coverUploadSchema = z.object({ upload: presignedUploadSchema });
export type CoverUpload = z.infer<typeof coverUploadSchema>;

/** A track as the artist's pickers show it (no waveform: GET /api/tracks lists many). */
export const trackSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  format: z.enum(trackFormats),
  content_type: z.string(),
  duration_seconds: z.number(),
  sample_rate: z.number().int().nullable(),
  size_bytes: z.number().int(),
  created_at: z.string(),
  /** The cover art's media type (as its bytes said); absent when the track has none. */
  cover_type: z.enum(coverMediaTypes).optional(),
});
export type TrackSummary = z.infer<typeof trackSummarySchema>;

/** A track with its waveform: what complete answers. */
export const trackSchema = trackSummarySchema.extend({ peaks: z.array(z.number()) });
export type Track = z.infer<typeof trackSchema>;

/** GET /api/tracks: the ready tracks, newest first. */
export const trackListSchema = z.object({ tracks: z.array(trackSummarySchema) });
export type TrackList = z.infer<typeof trackListSchema>;
