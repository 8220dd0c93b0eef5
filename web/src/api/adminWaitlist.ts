import {
  waitlistEntrySchema,
  waitlistListSchema,
  type WaitlistEntry,
} from '../../../schema/api/waitlist';
import type { ApiClient } from './client';

/** The admin waitlist API (admins only; everyone else gets 403). Contract: schema/api/waitlist.ts. */

export type WaitlistDecision = 'approved' | 'rejected';

/** GET /api/admin/waitlist: every entry, newest first. */
export async function listWaitlistEntries(api: ApiClient, signal?: AbortSignal): Promise<WaitlistEntry[]> {
  const { entries } = await api.request('/api/admin/waitlist', { parse: (data) => waitlistListSchema.parse(data), signal });
  return entries;
}

/** PATCH /api/admin/waitlist/{id}: pending → approved | rejected. 409 when the entry is no longer pending. */
export function setWaitlistStatus(api: ApiClient, id: string, status: WaitlistDecision): Promise<WaitlistEntry> {
  return api.patch(`/api/admin/waitlist/${encodeURIComponent(id)}`, { status }, (data) => waitlistEntrySchema.parse(data));
}

/** PUT /api/admin/waitlist/{id}/notes: replaces the internal notes. */
export function saveWaitlistNotes(api: ApiClient, id: string, notes: string): Promise<WaitlistEntry> {
  return api.put(`/api/admin/waitlist/${encodeURIComponent(id)}/notes`, { notes }, (data) => waitlistEntrySchema.parse(data));
}
