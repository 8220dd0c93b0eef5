/**
 * Contact rules shared by every path that creates a contact (form, CSV import, LabelFinder): the id
 * that makes one contact per email per user, and the contact a CSV row or a directory entry becomes
 * (spec §3).
 */
import type { z } from 'zod';
import type { Contact, csvContactSchema, RejectedImportRow } from '../../schema/api/contacts';
import type { DirectoryAllowance, DirectoryEntry } from '../../schema/api/directory';
import { normaliseWebsite } from '../../schema/api/links';
import { genreLabels } from '../../schema/api/options';
import { describeIssue } from '../../schema/api/issues';
import type { Tier } from '../../schema/api/profile';
import { guessTimeZoneOfPlace } from '../../schema/timeZones';
import { addressId } from './addressId';
import { directoryAdditionsOf } from './plans';

// The address id lives in a module without schemas (the tracking Lambda needs it, and no zod).
export { addressId, isAddressId } from './addressId';

/**
 * The contact a validated CSV import row becomes (spec §3 "CSV import contact"): a row without a name
 * is named after its address's local part; the fields an import does not map stay empty. Every field
 * is set, so it is a NewContact that only lacks its id and creation time.
 */
export function contactFromCsvRow(row: z.output<typeof csvContactSchema>): Omit<Contact, 'id' | 'created_at'> {
  return {
    name: row.name ?? row.email.slice(0, row.email.indexOf('@')),
    email: row.email,
    label_name: row.label_name,
    contact_type: row.contact_type,
    position: row.position,
    genre: row.genre,
    website_url: row.website_url,
    notes: row.notes,
    genre_focus: null,
    time_zone: row.time_zone,
  };
}

/**
 * An import batch's rows checked one by one: the contacts the good rows become, and the others with
 * their position in the batch (from 1) and every problem found, so one bad row never costs the rest.
 * The row schema comes from the caller: the core loads no zod of its own, and the functions that import
 * it for other rules (campaigns, sending, the sender) load none at start.
 */
export function contactsFromImportRows(
  rows: readonly unknown[],
  rowSchema: typeof csvContactSchema,
): { contacts: Omit<Contact, 'id' | 'created_at'>[]; rejected: RejectedImportRow[] } {
  const contacts: Omit<Contact, 'id' | 'created_at'>[] = [];
  const rejected: RejectedImportRow[] = [];
  rows.forEach((row, index) => {
    const result = rowSchema.safeParse(row, { reportInput: true });
    if (result.success) contacts.push(contactFromCsvRow(result.data));
    else rejected.push({ row: index + 1, reason: result.error.issues.map((issue) => describeIssue(issue, 'A row')).join('; ') });
  });
  return { contacts, rejected };
}

/** The user's LabelFinder allowance: additions so far (kept on the profile) and their plan's limit (core/plans.ts). */
export function directoryAllowance(profile: { tier: Tier; labelfinder_additions_count: number }): DirectoryAllowance {
  return { used: profile.labelfinder_additions_count, limit: directoryAdditionsOf(profile.tier) };
}

/** Spec §3: position 'DJ' for a DJ entry, else 'A&R Manager'. */
export function directoryPosition(entry: Pick<DirectoryEntry, 'contact_type'>): string {
  return entry.contact_type === 'DJ' ? 'DJ' : 'A&R Manager';
}

/**
 * The user contact a directory entry becomes (spec §3 "User contact created from the directory"):
 * the entry's name as label name, the position by type, its genres as genre (as people read them,
 * 'Drum & Bass', like a typed genre) and as genre_focus (the option-list slugs, 'drum-bass'), its
 * website as a link, its description and submission guidelines as notes, and the time zone its
 * location's country suggests (issue 27 §2), its demo policy when it has one and its label size (issue 28).
 */
export function contactFromDirectoryEntry(userId: string, entry: DirectoryEntry, createdAt: string): Contact {
  const genres = entry.genres.map((genre) => genreLabels[genre]).join(', ');
  const slugs = entry.genres.join(', ');
  return {
    id: addressId(userId, entry.email),
    name: entry.name,
    email: entry.email.trim(),
    label_name: entry.name,
    contact_type: entry.contact_type,
    position: directoryPosition(entry),
    genre: genres === '' ? null : genres,
    website_url: normaliseWebsite(entry.website_url),
    notes: `${entry.description}\n\nSubmission guidelines: ${entry.submission_guidelines}`,
    genre_focus: slugs === '' ? null : slugs,
    // Issue 27 §2: the entry's country ('Berlin, Germany') suggests the zone when it has only one.
    time_zone: guessTimeZoneOfPlace(entry.location),
    created_at: createdAt,
    ...(entry.demo_policy ? { demo_policy: entry.demo_policy } : {}),
    label_size: entry.label_size,
  };
}
