/**
 * Admin-only routes (the `admins` group; others get 403 from httpApi): the beta waitlist list (paged), the
 * pending → approved | rejected decision, and internal notes. Logs name the entry id, never the email.
 */
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
import type { Clock, WaitlistStore } from '../ports';
import { compose } from '../compose';
import { HttpError, httpApi, json, lazyHandler, logger, parse } from './api';

export interface AdminDeps {
  waitlist: WaitlistStore;
  clock: Clock;
}

/** The entry id of the path; an id that cannot be a ULID cannot exist, so it is a 404 with no read. */
function entryId(params: Record<string, string>): string {
  const id = params.id ?? '';
  if (!isWaitlistEntryId(id)) throw new HttpError(404, waitlistMessages.notFound);
  return id;
}

export const makeHandler = ({ waitlist, clock }: AdminDeps) =>
  httpApi({
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
      logger.info('Waitlist entry decided', { entryId: id, status, adminId: identity!.userId });
      return json(200, result.entry satisfies WaitlistEntry);
    },

    'PUT /api/admin/waitlist/{id}/notes': async ({ params, body, identity }) => {
      const id = entryId(params);
      const { notes } = parse(waitlistNotesSchema, body);
      const updated = await waitlist.setNotes(id, normaliseNotes(notes));
      if (!updated) throw new HttpError(404, waitlistMessages.notFound);
      logger.info('Waitlist entry notes saved', { entryId: id, cleared: updated.notes === null, adminId: identity!.userId });
      return json(200, updated satisfies WaitlistEntry);
    },
  });

export const handler = lazyHandler(() => makeHandler(compose()));
