import {
  directoryAddResultSchema,
  directoryListSchema,
  type DirectoryAddResult,
  type DirectoryAllowance,
  type DirectoryList,
} from '../../../schema/api/directory';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/** The LabelFinder directory API for signed-in users. Contract: schema/api/directory.ts. */

/** Ids per POST /api/directory/contacts from the bulk add, so its progress bar moves as requests return. */
export const DIRECTORY_ADD_CHUNK = 25;

/** GET /api/directory: every directory entry and the caller's allowance. */
export function listDirectory(api: ApiClient, { signal }: { signal?: AbortSignal } = {}): Promise<DirectoryList> {
  return api.request(apiPath('GET /api/directory'), { parse: (data) => directoryListSchema.parse(data), signal });
}

/**
 * POST /api/directory/contacts. Throws ApiError: 409 when a single entry is already a contact, 403 with
 * code DIRECTORY_LIMIT_CODE over the allowance, 404 for unknown entries, 400 for an entry without email.
 */
export function addDirectoryContacts(api: ApiClient, entryIds: readonly string[]): Promise<DirectoryAddResult> {
  return api.post(apiPath('POST /api/directory/contacts'), { entry_ids: entryIds }, (data) => directoryAddResultSchema.parse(data));
}

export interface BulkAddProgress {
  /** Entries sent and answered so far (the first `done` of the ids given). */
  done: number;
  total: number;
  /** The allowance the latest answer reported. */
  allowance: DirectoryAllowance;
}

export interface BulkAddOutcome {
  added: DirectoryAddResult['added'];
  duplicates: DirectoryAddResult['duplicates'];
  /** The allowance after the last answered request; null when none was answered. */
  allowance: DirectoryAllowance | null;
}

/** Thrown by addDirectoryContactsInChunks: the failure and what the requests before it had already done. */
export class BulkAddError extends Error {
  /** What the failing request threw (an ApiError for an answer from the server). */
  readonly failure: unknown;
  readonly partial: BulkAddOutcome;

  constructor(failure: unknown, partial: BulkAddOutcome) {
    super(failure instanceof Error ? failure.message : 'Bulk add failed');
    this.name = 'BulkAddError';
    this.failure = failure;
    this.partial = partial;
  }
}

/**
 * Adds the entries DIRECTORY_ADD_CHUNK at a time, one request after the other (each moves the
 * allowance the next is checked against), reporting progress after each answer. Stops at the first
 * failure and throws a BulkAddError carrying what had been added by then.
 */
export async function addDirectoryContactsInChunks(
  api: ApiClient,
  entryIds: readonly string[],
  onProgress?: (progress: BulkAddProgress) => void,
): Promise<BulkAddOutcome> {
  const outcome: BulkAddOutcome = { added: [], duplicates: [], allowance: null };
  for (let start = 0; start < entryIds.length; start += DIRECTORY_ADD_CHUNK) {
    const chunk = entryIds.slice(start, start + DIRECTORY_ADD_CHUNK);
    let result: DirectoryAddResult;
    try {
      result = await addDirectoryContacts(api, chunk);
    } catch (error) {
      throw new BulkAddError(error, outcome);
    }
    outcome.added.push(...result.added);
    outcome.duplicates.push(...result.duplicates);
    outcome.allowance = result.allowance;
    onProgress?.({ done: start + chunk.length, total: entryIds.length, allowance: result.allowance });
  }
  return outcome;
}
