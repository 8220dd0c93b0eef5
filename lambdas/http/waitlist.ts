/**
 * The public beta waitlist: POST /api/waitlist (join) and GET /api/waitlist/spots (spots left).
 * Both routes are throttled per route (schema/routes.ts), in API Gateway and in the local server, and a
 * join also takes a place in its client's own hourly allowance (clientLimit.ts): one client cannot fill the list.
 * Logs name the entry id, never the email.
 */
import { waitlistJoinSchema, waitlistMessages, type WaitlistEntry, type WaitlistSpots } from '../../schema/api/waitlist';
import { newWaitlistEntry, waitlistSpots, type ValidWaitlistJoin } from '../core/waitlist';
import type { Clock, IdGenerator, WaitlistStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { waitlistDeps } from '../composition/waitlist';
import { HttpError, httpApi, json, lazyHandler, logger, parse } from './api';
import type { ClientLimit } from './clientLimit';

export interface WaitlistDeps {
  waitlist: WaitlistStore;
  clock: Clock;
  ids: IdGenerator;
  clientLimit: ClientLimit;
}

const REQUIRED_FIELDS = new Set(['email', 'artist_name', 'music_style']);

/**
 * The join form's rules, checked again on the server. A required field that is missing, null or
 * blank gives the spec's one message (§5), whatever else is wrong; other problems name the field.
 */
export function parseJoin(body: unknown): ValidWaitlistJoin {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const result = waitlistJoinSchema.safeParse(body, { reportInput: true });
    const missingRequired = result.error?.issues.some((issue) => {
      const field = issue.path.length === 1 ? String(issue.path[0]) : '';
      if (!REQUIRED_FIELDS.has(field)) return false;
      if (issue.code === 'invalid_type') return !('input' in issue) || issue.input === undefined || issue.input === null;
      return issue.message === waitlistMessages.required;
    });
    if (missingRequired) throw new HttpError(400, waitlistMessages.required);
  }
  return parse(waitlistJoinSchema, body);
}

export const makeHandler = ({ waitlist, clock, ids, clientLimit }: WaitlistDeps) =>
  httpApi('waitlist', {
    'POST /api/waitlist': async ({ event, body }) => {
      const join = parseJoin(body);
      const now = clock.now();
      // Counted before the add, duplicates too: a client cannot probe which emails are on the list.
      await clientLimit('waitlist_join', event, now);
      const entry = newWaitlistEntry(join, now, ids.next(now));
      const result = await waitlist.add(entry);
      if (result.outcome === 'duplicate') {
        logger.info('Waitlist join refused: the email is already on the list');
        throw new HttpError(409, waitlistMessages.duplicate);
      }
      logger.info('Waitlist entry added', { entryId: entry.id, musicStyle: entry.music_style });
      return json(201, result.entry satisfies WaitlistEntry);
    },
    'GET /api/waitlist/spots': async () => json(200, waitlistSpots(await waitlist.count()) satisfies WaitlistSpots),
  });

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(waitlistDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
