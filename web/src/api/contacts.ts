import {
  bulkDeleteResultSchema,
  contactImportResultSchema,
  contactLimits,
  contactListSchema,
  contactSchema,
  unsubscribeCountSchema,
  unsubscribeListSchema,
  type Contact,
  type ContactImportResult,
  type ContactInputBody,
  type CsvContact,
  type Unsubscribe,
} from '../../../schema/api/contacts';
import { chunk } from '../../../schema/chunk';
import { apiPath } from '../../../schema/routes';
import { ApiError, type ApiClient } from './client';

/** The contacts and unsubscribed-list API of the signed-in user. Contract: schema/api/contacts.ts. */

/** Contacts per GET /api/contacts page: the most the server gives, so 10,000 contacts take ten requests. */
export const CONTACTS_LOAD_PAGE_SIZE = contactLimits.pageMax;
/** The first page is small: it fills the first screen of cards at once, while the rest streams in. */
export const CONTACTS_FIRST_PAGE_SIZE = 100;

/**
 * Every contact, newest first: GET /api/contacts page after page (each `next_cursor` asks for the next)
 * until the last. `onPage` gets each page as it arrives and whether more follow, so the first page can be
 * shown at once while the rest stream in.
 */
export async function listContacts(
  api: ApiClient,
  { signal, onPage }: { signal?: AbortSignal; onPage?: (page: Contact[], more: boolean) => void } = {},
): Promise<Contact[]> {
  const contacts: Contact[] = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: String(cursor === undefined ? CONTACTS_FIRST_PAGE_SIZE : CONTACTS_LOAD_PAGE_SIZE) });
    if (cursor !== undefined) query.set('cursor', cursor);
    const page = await api.request(`${apiPath('GET /api/contacts')}?${query}`, { parse: (data) => contactListSchema.parse(data), signal });
    for (const contact of page.contacts) contacts.push(contact);
    cursor = page.next_cursor;
    onPage?.(page.contacts, cursor !== undefined);
  } while (cursor !== undefined);
  return contacts;
}

/** POST /api/contacts: 201 with the contact; 400 with the form's message; 409 when the email is already a contact. */
export function createContact(api: ApiClient, input: ContactInputBody): Promise<Contact> {
  return api.post(apiPath('POST /api/contacts'), input, (data) => contactSchema.parse(data));
}

/**
 * PUT /api/contacts/{id}: every editable field. The id is derived from the address, so when the email
 * changes the returned contact has a new id: the caller replaces the contact it had under the old one.
 */
export function updateContact(api: ApiClient, id: string, input: ContactInputBody): Promise<Contact> {
  return api.put(apiPath('PUT /api/contacts/{id}', { id }), input, (data) => contactSchema.parse(data));
}

/** DELETE /api/contacts/{id}: 204; 404 when it is not (or no longer) the caller's contact. */
export async function deleteContact(api: ApiClient, id: string): Promise<void> {
  await api.delete(apiPath('DELETE /api/contacts/{id}', { id }));
}

/** POST /api/contacts/bulk-delete with at most 100 ids: the ids that were deleted (404 when none were). */
export async function bulkDeleteContacts(api: ApiClient, ids: readonly string[]): Promise<string[]> {
  const result = await api.post(apiPath('POST /api/contacts/bulk-delete'), { ids }, (data) => bulkDeleteResultSchema.parse(data));
  return result.deleted;
}

export interface BatchDeleteOutcome {
  /** Ids that no longer exist: deleted now, or already gone (the server leaves those out of its answer). */
  removed: string[];
  /** Set when a batch failed: the batches after it were not sent and their ids still exist. */
  error?: unknown;
}

/**
 * Deletes `ids` in batches of 100, one request at a time, calling `onProgress(done, total)` after each
 * batch. A batch the server answers 404 had nothing left to delete, so its ids count as removed. The
 * first other failure stops the run: what was deleted before it stays deleted and is reported.
 */
export async function deleteContactsInBatches(
  api: ApiClient,
  ids: readonly string[],
  { onProgress }: { onProgress?: (done: number, total: number) => void } = {},
): Promise<BatchDeleteOutcome> {
  const removed: string[] = [];
  for (const batch of chunk(ids, contactLimits.bulkDeleteBatch)) {
    try {
      await bulkDeleteContacts(api, batch);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) return { removed, error };
    }
    removed.push(...batch);
    onProgress?.(removed.length, ids.length);
  }
  return { removed };
}

/** POST /api/contacts/import: one batch of CSV rows; the contacts created and how many rows were skipped as duplicates. */
export function importContactsBatch(api: ApiClient, contacts: readonly CsvContact[]): Promise<ContactImportResult> {
  return api.post(apiPath('POST /api/contacts/import'), { contacts }, (data) => contactImportResultSchema.parse(data));
}

export interface ImportOutcome {
  created: number;
  skipped: number;
  /** Rows the server turned down: their index in the rows sent (from 0) and why. */
  rejected: { index: number; reason: string }[];
  /** Set when a batch failed: no batch was started after it. */
  error?: unknown;
}

/** Import requests in flight at once: the server's writes are keyed by address, so overlapping batches cannot duplicate. */
export const IMPORT_CONCURRENCY = 2;

/**
 * Sends `contacts` in batches of 100 with at most two requests in flight. `onBatch` gets each batch's
 * answer and the number of rows answered so far, so the page can merge the created contacts and show
 * progress. The first failure stops new batches; batches already in flight finish and are reported, so
 * everything that was created is in the outcome. Running the same rows again creates only what is missing.
 */
export async function importContacts(
  api: ApiClient,
  contacts: readonly CsvContact[],
  { onBatch }: { onBatch?: (result: ContactImportResult, done: number, total: number) => void } = {},
): Promise<ImportOutcome> {
  const batches = chunk(contacts, contactLimits.importBatch);
  const outcome: ImportOutcome = { created: 0, skipped: 0, rejected: [] };
  let next = 0;
  let done = 0;
  async function worker() {
    while (outcome.error === undefined) {
      const batchIndex = next++;
      const batch = batches[batchIndex];
      if (batch === undefined) break;
      try {
        const result = await importContactsBatch(api, batch);
        outcome.created += result.created.length;
        outcome.skipped += result.skipped;
        // The server numbers a batch's rows from 1; the caller knows the rows by their index in `contacts`.
        const first = batchIndex * contactLimits.importBatch;
        outcome.rejected.push(...result.rejected.map(({ row, reason }) => ({ index: first + row - 1, reason })));
        done += batch.length;
        onBatch?.(result, done, contacts.length);
      } catch (error) {
        outcome.error ??= error;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(IMPORT_CONCURRENCY, batches.length) }, worker));
  outcome.rejected.sort((a, b) => a.index - b.index);
  return outcome;
}

/** GET /api/unsubscribes: every address that unsubscribed from the user's emails, newest first. */
export async function listUnsubscribes(api: ApiClient, { signal }: { signal?: AbortSignal } = {}): Promise<Unsubscribe[]> {
  const result = await api.request(apiPath('GET /api/unsubscribes'), { parse: (data) => unsubscribeListSchema.parse(data), signal });
  return result.unsubscribes;
}

/** GET /api/unsubscribes/count: for the tab label before the list is opened. */
export async function countUnsubscribes(api: ApiClient, { signal }: { signal?: AbortSignal } = {}): Promise<number> {
  const result = await api.request(apiPath('GET /api/unsubscribes/count'), { parse: (data) => unsubscribeCountSchema.parse(data), signal });
  return result.count;
}

/**
 * DELETE /api/unsubscribes/{id}: resubscribe (the address may be emailed again), sent only once the
 * artist confirmed the recipient asked to be added back. 204.
 */
export async function resubscribe(api: ApiClient, id: string): Promise<void> {
  await api.request(apiPath('DELETE /api/unsubscribes/{id}', { id }), { method: 'DELETE', body: { recipient_asked: true } });
}
