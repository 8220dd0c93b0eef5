import type {
  ContactTrackList,
  PipelineBoard,
  PipelineEntry,
  PipelineMarkRequest,
  PipelineTodo,
  PipelineTodoList,
  PipelineTrack,
  PipelineTrackList,
} from '../../../schema/api/pipeline';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/**
 * The pipeline of the signed-in artist's tracks (issue 28 §1, DESIGN §16): the Tracks page, a track's
 * board, the artist's marks, the Dashboard's to-dos and a contact's tracks. Contract: schema/api/pipeline.ts.
 * Type imports only: the Dashboard's to-dos use this module, and its first paint loads no zod.
 */

type Signal = { signal?: AbortSignal };

/** GET /api/pipeline/tracks: the artist's tracks with their counts. */
export async function listPipelineTracks(api: ApiClient, { signal }: Signal = {}): Promise<PipelineTrack[]> {
  const result = await api.request<PipelineTrackList>(apiPath('GET /api/pipeline/tracks'), { signal });
  return result.tracks;
}

/** GET /api/pipeline/tracks/{trackKey}: a track's board (404 when the track is not the artist's). */
export function getPipelineBoard(api: ApiClient, trackKey: string, { signal }: Signal = {}): Promise<PipelineBoard> {
  return api.request<PipelineBoard>(apiPath('GET /api/pipeline/tracks/{trackKey}', { trackKey }), { signal });
}

/** PUT …/entries/{addressId}/mark: Signed or Passed with a note and a date, or 'derived' to take the mark back. Answers the entry. */
export function markPipelineEntry(api: ApiClient, trackKey: string, addressId: string, request: PipelineMarkRequest): Promise<PipelineEntry> {
  return api.put<PipelineEntry>(apiPath('PUT /api/pipeline/tracks/{trackKey}/entries/{addressId}/mark', { trackKey, addressId }), request);
}

/** PUT …/entries/{addressId}/todo: an Interested / Send me the WAVs answer done (or open again). */
export async function setPipelineTodoDone(api: ApiClient, trackKey: string, addressId: string, done: boolean): Promise<void> {
  await api.put(apiPath('PUT /api/pipeline/tracks/{trackKey}/entries/{addressId}/todo', { trackKey, addressId }), { done });
}

/** GET /api/pipeline/todos: the answers still to act on, for the Dashboard. */
export async function listPipelineTodos(api: ApiClient, { signal }: Signal = {}): Promise<PipelineTodo[]> {
  const result = await api.request<PipelineTodoList>(apiPath('GET /api/pipeline/todos'), { signal });
  return result.todos;
}

/** GET /api/contacts/{id}/tracks: every track pitched to the contact, with its stage (its card). */
export async function listContactTracks(api: ApiClient, contactId: string, { signal }: Signal = {}): Promise<ContactTrackList['tracks']> {
  const result = await api.request<ContactTrackList>(apiPath('GET /api/contacts/{id}/tracks', { id: contactId }), { signal });
  return result.tracks;
}
