import {
  coverUploadSchema,
  trackListSchema,
  trackSchema,
  trackUploadSchema,
  type CoverUpload,
  type PresignedUpload,
  type Track,
  type TrackSummary,
  type TrackUpload,
} from '../../../schema/api/tracks';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/**
 * The artist's tracks (issue 16). Contract: schema/api/tracks.ts; routes: schema/routes.ts (group
 * `tracks`). The file itself goes straight from the browser to storage (S3 in AWS, the local server's
 * stand-in locally) with the presigned POST the upload route answers: the same code for both.
 */

/** GET /api/tracks: 'My tracks', newest first. */
export async function listTracks(api: ApiClient, { signal }: { signal?: AbortSignal } = {}): Promise<TrackSummary[]> {
  return (await api.request(apiPath('GET /api/tracks'), { parse: (data) => trackListSchema.parse(data), signal })).tracks;
}

/** POST /api/tracks/uploads: a pending track and the form to post its file with. */
export function startTrackUpload(api: ApiClient, request: { name: string; content_type: string; size: number }): Promise<TrackUpload> {
  return api.post(apiPath('POST /api/tracks/uploads'), request, (data) => trackUploadSchema.parse(data));
}

/** POST /api/tracks/{id}/complete: the server reads the stored file; `peaks` is the waveform the browser computed (none when it could not). */
export function completeTrackUpload(api: ApiClient, id: string, peaks: number[] | undefined): Promise<Track> {
  return api.post(apiPath('POST /api/tracks/{id}/complete', { id }), peaks ? { peaks } : {}, (data) => trackSchema.parse(data));
}

/** POST /api/tracks/{id}/cover/uploads: the form to post a ready track's cover art with (issue 25 §5). */
export function startCoverUpload(api: ApiClient, id: string, request: { content_type: string; size: number }): Promise<CoverUpload> {
  return api.post(apiPath('POST /api/tracks/{id}/cover/uploads', { id }), request, (data) => coverUploadSchema.parse(data));
}

/** POST /api/tracks/{id}/cover/complete: the server checks the stored image by its bytes and keeps it; the track with its cover. */
export function completeCoverUpload(api: ApiClient, id: string): Promise<Track> {
  return api.post(apiPath('POST /api/tracks/{id}/cover/complete', { id }), {}, (data) => trackSchema.parse(data));
}

/** DELETE /api/tracks/{id}. */
export async function deleteTrack(api: ApiClient, id: string): Promise<void> {
  await api.delete(apiPath('DELETE /api/tracks/{id}', { id }));
}

export class StorageUploadError extends Error {}

/**
 * Posts `file` with the presigned form (its fields in order, then the file), reporting progress from
 * 0 to 1. XMLHttpRequest, not fetch: only it reports upload progress. The storage answers 204.
 */
export function uploadToStorage(
  upload: PresignedUpload,
  file: Blob,
  { onProgress, signal }: { onProgress: (fraction: number) => void; signal?: AbortSignal },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append('file', file);
    const request = new XMLHttpRequest();
    request.open('POST', upload.url);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(new StorageUploadError(`The upload was refused (${String(request.status)}). Please try again.`));
      }
    });
    request.addEventListener('error', () => reject(new StorageUploadError('The upload did not reach the storage. Check your connection and try again.')));
    request.addEventListener('abort', () => reject(new StorageUploadError('The upload was cancelled.')));
    signal?.addEventListener('abort', () => request.abort());
    request.send(form);
  });
}
