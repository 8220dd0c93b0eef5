/**
 * Admin-only routes (the `admins` group; others get 403 from httpApi): the beta waitlist list (paged), the
 * pending → approved | rejected decision, and internal notes; the LabelFinder directory import. Logs name
 * ids and counts, never emails.
 */
import { DIRECTORY_MAX_ENTRIES, directoryImportSchema, directoryTooLarge, type DirectoryImportResult } from '../../schema/api/directory';
import {
  INVALID_CURSOR,
  waitlistListQuerySchema,
  waitlistMessages,
  waitlistNotesSchema,
  waitlistStatusChangeSchema,
  type WaitlistEntry,
  type WaitlistListPage,
} from '../../schema/api/waitlist';
import { DECIDABLE_STATUS, decisionUpdate, isWaitlistEntryId, normaliseNotes } from '../core/waitlist';
import { directoryImportMessages, parseDirectoryImport } from '../core/directoryImport';
import type { Clock, DirectoryStore, WaitlistStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { adminDeps } from '../composition/admin';
import { HttpError, httpApi, json, knownId, lazyHandler, logger, parse } from './api';

export interface AdminDeps {
  waitlist: WaitlistStore;
  directory: DirectoryStore;
  clock: Clock;
}

/** The entry id of the path. */
const entryId = (params: Record<string, string>) => knownId(params.id, isWaitlistEntryId, waitlistMessages.notFound);

export const makeHandler = ({ waitlist, directory, clock }: AdminDeps) =>
  httpApi('admin', {
    // One page per request (a whole 5,000-entry list can exceed Lambda's 6 MB response limit).
    'GET /api/admin/waitlist': async ({ query }) => {
      const { limit, cursor } = parse(waitlistListQuerySchema, query);
      const page = await waitlist.list({ limit, cursor });
      if (page.outcome === 'invalid_cursor') throw new HttpError(400, INVALID_CURSOR);
      const body: WaitlistListPage = { entries: page.entries };
      if (page.nextCursor !== undefined) body.next_cursor = page.nextCursor;
      return json(200, body);
    },

    'PATCH /api/admin/waitlist/{id}': async ({ params, body, identity }) => {
      const id = entryId(params);
      const { status } = parse(waitlistStatusChangeSchema, body);
      const result = await waitlist.changeStatus(id, DECIDABLE_STATUS, decisionUpdate(status, clock.now()));
      if (result.outcome === 'not_found') throw new HttpError(404, waitlistMessages.notFound);
      if (result.outcome === 'conflict') throw new HttpError(409, waitlistMessages.notPending);
      logger.info('Waitlist entry decided', { entryId: id, status, adminId: identity.userId });
      return json(200, result.entry satisfies WaitlistEntry);
    },

    'PUT /api/admin/waitlist/{id}/notes': async ({ params, body, identity }) => {
      const id = entryId(params);
      const { notes } = parse(waitlistNotesSchema, body);
      const updated = await waitlist.setNotes(id, normaliseNotes(notes));
      if (!updated) throw new HttpError(404, waitlistMessages.notFound);
      logger.info('Waitlist entry notes saved', { entryId: id, cleared: updated.notes === null, adminId: identity.userId });
      return json(200, updated satisfies WaitlistEntry);
    },

    /**
     * A whole CSV or JSON file: valid records are upserted by email, the others reported with their rows
     * and reasons. A file with nothing valid is a 400 naming the first rejections; nothing is written.
     */
    'POST /api/admin/directory': async ({ body, identity }) => {
      const { format, content } = parse(directoryImportSchema, body);
      const parsed = parseDirectoryImport(format, content);
      if (!parsed.ok) throw new HttpError(400, parsed.error);
      const { entries, rejected } = parsed.plan;
      if (entries.length === 0) throw new HttpError(400, directoryImportMessages.nothingValid(rejected));
      const result = await directory.upsertByEmail(entries, { maxEntries: DIRECTORY_MAX_ENTRIES });
      if (result.outcome === 'too_many') throw new HttpError(400, directoryTooLarge(result.total));
      const { created, updated } = result;
      logger.info('Directory imported', { format, created, updated, rejected: rejected.length, adminId: identity.userId });
      return json(200, { created, updated, rejected } satisfies DirectoryImportResult);
    },
  });

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(adminDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
