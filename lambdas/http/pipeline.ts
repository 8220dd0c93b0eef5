/**
 * The pitch pipeline (issue 28 §1, DESIGN §16): the artist's tracks with their counts, a track's board,
 * the artist's mark on an entry (Signed, Passed, or taken back), a to-do done, the Dashboard's to-dos
 * and a contact's tracks. All of it is the user's PITCHED items (lambdas/adapters/dynamodb/pipelineStore.ts),
 * read under the caller's partition: the user id comes only from the verified token, so another user's
 * track key or address id is the same 404 as a missing one. The body schemas (zod) load with the first
 * write; the reads validate nothing but the path's ids, by their shape.
 */
import type { ContactTrackList, PipelineBoard, PipelineEntry, PipelineTodoList, PipelineTrackList } from '../../schema/api/pipeline';
import { sendingApiMessages } from '../../schema/api/sendingValues';
import { isAddressId } from '../core/addressId';
import { contactTracksOf, entryOf, isTrackKey, todosOf, tracksOf } from '../core/pipeline';
import type { Clock, PipelineStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { pipelineDeps } from '../composition/pipeline';
import { HttpError, httpApi, json, knownId, lazyHandler, logger, parse } from './api';

export interface PipelineDeps {
  pipeline: PipelineStore;
  clock: Clock;
}

export const pipelineApiMessages = {
  trackNotFound: 'This track was not found.',
  entryNotFound: 'This contact was not pitched this track.',
  contactNotFound: sendingApiMessages.contactNotFound,
} as const;

/** The body schemas, loaded by the first write: the reads validate no body. */
const pipelineSchemas = () => import('../../schema/api/pipeline');

/** The date a mark is given when the artist gives none: today (UTC). */
const today = (now: Date) => now.toISOString().slice(0, 10);

export const makeHandler = ({ pipeline, clock }: PipelineDeps) => {
  const entryPath = (params: { trackKey?: string; addressId?: string }) => ({
    trackKey: knownId(params.trackKey, isTrackKey, pipelineApiMessages.entryNotFound),
    addressId: knownId(params.addressId, isAddressId, pipelineApiMessages.entryNotFound),
  });

  return httpApi('pipeline', {
    'GET /api/pipeline/tracks': async ({ identity }) => json(200, { tracks: tracksOf(await pipeline.all(identity.userId)) } satisfies PipelineTrackList),

    'GET /api/pipeline/tracks/{trackKey}': async ({ identity, params }) => {
      const trackKey = knownId(params.trackKey, isTrackKey, pipelineApiMessages.trackNotFound);
      const items = await pipeline.track(identity.userId, trackKey);
      const [track] = tracksOf(items);
      if (!track) throw new HttpError(404, pipelineApiMessages.trackNotFound);
      return json(200, { track, entries: items.map(entryOf) } satisfies PipelineBoard);
    },

    'PUT /api/pipeline/tracks/{trackKey}/entries/{addressId}/mark': async ({ identity, params, body }) => {
      const { trackKey, addressId } = entryPath(params);
      const request = parse((await pipelineSchemas()).pipelineMarkRequestSchema, body);
      const now = clock.now();
      const item = await pipeline.mark(
        identity.userId,
        trackKey,
        addressId,
        { stage: request.stage, note: request.note || null, on: request.on ?? today(now) },
        now,
      );
      if (!item) throw new HttpError(404, pipelineApiMessages.entryNotFound);
      logger.info('Pipeline mark set', { trackKey, addressId, stage: request.stage });
      return json(200, entryOf(item) satisfies PipelineEntry);
    },

    'PUT /api/pipeline/tracks/{trackKey}/entries/{addressId}/todo': async ({ identity, params, body }) => {
      const { trackKey, addressId } = entryPath(params);
      const { done } = parse((await pipelineSchemas()).pipelineTodoRequestSchema, body);
      const item = await pipeline.todo(identity.userId, trackKey, addressId, done, clock.now());
      if (!item) throw new HttpError(404, pipelineApiMessages.entryNotFound);
      return json(200, entryOf(item) satisfies PipelineEntry);
    },

    'GET /api/pipeline/todos': async ({ identity }) => json(200, { todos: todosOf(await pipeline.openTodos(identity.userId)) } satisfies PipelineTodoList),

    'GET /api/contacts/{id}/tracks': async ({ identity, params }) => {
      const addressId = knownId(params.id, isAddressId, pipelineApiMessages.contactNotFound);
      const items = await pipeline.ofAddress(identity.userId, addressId);
      if (!items) throw new HttpError(404, pipelineApiMessages.contactNotFound);
      return json(200, { tracks: contactTracksOf(items) } satisfies ContactTrackList);
    },
  });
};

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(pipelineDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
