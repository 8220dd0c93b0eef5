/**
 * The rules of adding LabelFinder directory entries to a user's contacts (spec §3, §6): which entries
 * a selection may add, which of them are duplicates, and whether the allowance takes the rest. The
 * directory store reads and writes; these decide.
 */
import { isContactEmail, type Contact } from '../../schema/api/contacts';
import type { DirectoryAllowance, DirectoryEntry } from '../../schema/api/directory';
import { contactFromDirectoryEntry } from './contacts';

/** An entry of the selection and the contact it becomes. */
export interface DirectoryCandidate {
  entry: DirectoryEntry;
  contact: Contact;
}

/** An entry skipped because its address is a contact already (or twice in the selection): not added, not counted. */
export interface DirectoryDuplicate {
  id: string;
  name: string;
}

const duplicateOf = ({ entry }: DirectoryCandidate): DirectoryDuplicate => ({ id: entry.id, name: entry.name });

/** The selected entry ids, each once, in the order first selected. */
export const selectionIds = (entryIds: readonly string[]): string[] => [...new Set(entryIds)];

/**
 * The selection's entries, or why none is added: ids that are not in the directory, else the first
 * entry without a real address (it cannot become a contact).
 */
export function checkSelection(
  ids: readonly string[],
  found: ReadonlyMap<string, DirectoryEntry>,
): { outcome: 'unknown_entries'; ids: string[] } | { outcome: 'no_email'; entry: DirectoryEntry } | { outcome: 'selected'; entries: DirectoryEntry[] } {
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length > 0) return { outcome: 'unknown_entries', ids: unknown };
  const entries = ids.flatMap((id) => found.get(id) ?? []);
  const withoutAddress = entries.find((entry) => !isContactEmail(entry.email));
  if (withoutAddress) return { outcome: 'no_email', entry: withoutAddress };
  return { outcome: 'selected', entries };
}

/**
 * The contacts the entries become, one per address: two entries with one address would be one
 * contact, so the first is a candidate and the second a duplicate.
 */
export function directoryCandidates(
  userId: string,
  entries: readonly DirectoryEntry[],
  createdAt: string,
): { candidates: DirectoryCandidate[]; duplicates: DirectoryDuplicate[] } {
  const byContact = new Map<string, DirectoryCandidate>();
  const duplicates: DirectoryDuplicate[] = [];
  for (const entry of entries) {
    const contact = contactFromDirectoryEntry(userId, entry, createdAt);
    if (byContact.has(contact.id)) duplicates.push(duplicateOf({ entry, contact }));
    else byContact.set(contact.id, { entry, contact });
  }
  return { candidates: [...byContact.values()], duplicates };
}

/** The candidates whose contact the user does not have yet (fresh), and the others (duplicates). */
export function splitExisting(
  candidates: readonly DirectoryCandidate[],
  existingIds: ReadonlySet<string>,
): { fresh: DirectoryCandidate[]; duplicates: DirectoryDuplicate[] } {
  return {
    fresh: candidates.filter((candidate) => !existingIds.has(candidate.contact.id)),
    duplicates: candidates.filter((candidate) => existingIds.has(candidate.contact.id)).map(duplicateOf),
  };
}

/** The most additions that may be used already for `count` more to stay within `limit` (the counter's condition when writing). */
export const maxUsedBeforeAdding = (limit: number, count: number): number => limit - count;

/** Whether the allowance takes `count` more additions. */
export const allowsAdding = ({ used, limit }: DirectoryAllowance, count: number): boolean => used <= maxUsedBeforeAdding(limit, count);
