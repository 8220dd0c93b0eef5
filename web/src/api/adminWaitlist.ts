import { WAITLIST_PAGE_DEFAULT, waitlistEntrySchema, waitlistListSchema, type WaitlistEntry } from '../../../schema/api/waitlist';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/** The admin waitlist API (admins only; everyone else gets 403). Contract: schema/api/waitlist.ts. */

export type WaitlistDecision = 'approved' | 'rejected';

/** Entries per GET /api/admin/waitlist page (the server's default and a tenth of its maximum). */
export const WAITLIST_LOAD_PAGE_SIZE = WAITLIST_PAGE_DEFAULT;

/**
 * Every entry, newest first: GET /api/admin/waitlist page after page (each `next_cursor` asks for
 * the next) until the last. `onProgress` gets the number loaded so far after each page that has more
 * to follow, so the page can say 'Loaded N entries…'.
 */
export async function listWaitlistEntries(
  api: ApiClient,
  { signal, onProgress }: { signal?: AbortSignal; onProgress?: (loaded: number) => void } = {},
): Promise<WaitlistEntry[]> {
  const entries: WaitlistEntry[] = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: String(WAITLIST_LOAD_PAGE_SIZE) });
    if (cursor !== undefined) query.set('cursor', cursor);
    const page = await api.request(`${apiPath('GET /api/admin/waitlist')}?${query}`, { parse: (data) => waitlistListSchema.parse(data), signal });
    for (const entry of page.entries) entries.push(entry);
    cursor = page.next_cursor;
    if (cursor !== undefined) onProgress?.(entries.length);
  } while (cursor !== undefined);
  return entries;
}

/** PATCH /api/admin/waitlist/{id}: pending → approved | rejected. 409 when the entry is no longer pending. */
export function setWaitlistStatus(api: ApiClient, id: string, status: WaitlistDecision): Promise<WaitlistEntry> {
  return api.patch(apiPath('PATCH /api/admin/waitlist/{id}', { id }), { status }, (data) => waitlistEntrySchema.parse(data));
}

/** PUT /api/admin/waitlist/{id}/notes: replaces the internal notes. */
export function saveWaitlistNotes(api: ApiClient, id: string, notes: string): Promise<WaitlistEntry> {
  return api.put(apiPath('PUT /api/admin/waitlist/{id}/notes', { id }), { notes }, (data) => waitlistEntrySchema.parse(data));
}
