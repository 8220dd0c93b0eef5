import * as z from 'zod';
import { hasInvisibleOrControl } from './characters';
import { contactSchema } from './contacts';
import { demoPolicySchema, type DemoPolicy } from './demoPolicy';
import { directoryAdditionsLimits } from './directoryValues';
import { genres, isGenre, type Genre } from './options';

/** Directory entries are labels or DJs only (spec §3 labelfinder_contacts); Fan is a user-contact type. */
export const directoryContactTypes = ['Label', 'DJ'] as const;
export type DirectoryContactType = (typeof directoryContactTypes)[number];

/** Suggested label sizes. Stored as free text: imported data may carry other values. */
export const labelSizes = ['Independent', 'Boutique', 'Mid-size', 'Major subsidiary'] as const;
export type LabelSize = (typeof labelSizes)[number];

/** Spec §3: what a directory entry shows when a field is missing. */
export const directoryDefaults = {
  name: 'Unnamed Contact',
  email: 'No email',
  location: 'Unknown Location',
  label_size: 'Independent',
  description: 'No description available',
  submission_guidelines: 'No guidelines provided',
  contact_type: 'Label',
} as const satisfies Record<string, string>;

/** A LabelFinder directory entry as stored and as the API returns it. */
export const directoryEntrySchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  /** A real address, or the 'No email' default for an entry that has none (such an entry cannot be added to contacts). */
  email: z.string().min(1),
  genres: z.array(z.enum(genres)),
  location: z.string(),
  label_size: z.string().min(1),
  description: z.string(),
  website_url: z.string().nullable(),
  submission_guidelines: z.string(),
  is_featured: z.boolean(),
  contact_type: z.enum(directoryContactTypes),
  /** The structured demo policy beside the free-text guidelines (issue 28 §2); null when not known. */
  demo_policy: demoPolicySchema.nullable(),
});
export type DirectoryEntry = z.infer<typeof directoryEntrySchema>;

/** Loose input (an import row, a hand-written record): every field but the id may be missing or blank. */
export interface RawDirectoryEntry {
  id: string;
  name?: string | null;
  email?: string | null;
  /** An array or a comma-separated string (spec §3), in any common spelling. */
  genres?: readonly string[] | string | null;
  location?: string | null;
  label_size?: string | null;
  description?: string | null;
  website_url?: string | null;
  submission_guidelines?: string | null;
  is_featured?: boolean | string | null;
  contact_type?: string | null;
  /** Already checked (the import reads a policy's columns itself). */
  demo_policy?: DemoPolicy | null;
}

const genreAliases: Record<string, Genre> = {
  'drum & bass': 'drum-bass',
  'drum and bass': 'drum-bass',
  'drum n bass': 'drum-bass',
  "drum 'n' bass": 'drum-bass',
  'drum&bass': 'drum-bass',
  'd&b': 'drum-bass',
  dnb: 'drum-bass',
  'progressive house': 'progressive',
  'progressive trance': 'progressive',
  breakbeat: 'breaks',
  'uk bass': 'bass',
};

/**
 * Maps a genre as written anywhere ('Deep House', 'Drum & Bass', 'tech_house') to the option list;
 * unknown non-blank values become 'other', blank ones null.
 */
export function normalizeGenre(value: string): Genre | null {
  const lower = value.trim().toLowerCase().replace(/\s+/g, ' ');
  if (lower === '') return null;
  const alias = genreAliases[lower];
  if (alias) return alias;
  const slug = lower.replace(/[\s_]+/g, '-');
  return isGenre(slug) ? slug : 'other';
}

/** Normalised, de-duplicated genres in first-seen order. */
export function normalizeGenres(value: readonly string[] | string | null | undefined): Genre[] {
  const parts = typeof value === 'string' ? value.split(',') : (value ?? []);
  const out: Genre[] = [];
  for (const part of parts) {
    const genre = normalizeGenre(part);
    if (genre && !out.includes(genre)) out.push(genre);
  }
  return out;
}

function text(value: string | null | undefined, fallback: string): string {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? fallback : trimmed;
}

function flag(value: boolean | string | null | undefined): boolean {
  if (typeof value === 'boolean') return value;
  return ['true', 'yes', 'y', '1'].includes((value ?? '').trim().toLowerCase());
}

/**
 * Fills the spec's defaults for missing or blank fields and normalises the rest: genres to the option
 * list, contact type case-insensitively to DJ (else Label), featured flags from 'true'/'yes'/'1'.
 */
export function applyDirectoryDefaults(raw: RawDirectoryEntry): DirectoryEntry {
  const website = (raw.website_url ?? '').trim();
  return {
    id: raw.id,
    name: text(raw.name, directoryDefaults.name),
    email: text(raw.email, directoryDefaults.email),
    genres: normalizeGenres(raw.genres),
    location: text(raw.location, directoryDefaults.location),
    label_size: text(raw.label_size, directoryDefaults.label_size),
    description: text(raw.description, directoryDefaults.description),
    website_url: website === '' ? null : website,
    submission_guidelines: text(raw.submission_guidelines, directoryDefaults.submission_guidelines),
    is_featured: flag(raw.is_featured),
    contact_type: (raw.contact_type ?? '').trim().toLowerCase() === 'dj' ? 'DJ' : 'Label',
    demo_policy: raw.demo_policy ?? null,
  };
}

/**
 * The LabelFinder "only contacts with location info" filter (spec §5): false for a blank location,
 * 'unknown', and the 'Unknown Location' default.
 */
export function hasKnownLocation(location: string | null | undefined): boolean {
  const lower = (location ?? '').trim().toLowerCase();
  return lower !== '' && lower !== 'unknown' && lower !== directoryDefaults.location.toLowerCase();
}

// ---------------------------------------------------------------------------------------------------
// API contract: GET /api/directory, POST /api/directory/contacts (signed-in users), POST /api/admin/directory

export { directoryAdditionsLimits } from './directoryValues';

/** The user's LabelFinder allowance: additions so far (kept on the profile) and the tier's limit. */
export const directoryAllowanceSchema = z.object({ used: z.number().int(), limit: z.number().int() });
export type DirectoryAllowance = z.infer<typeof directoryAllowanceSchema>;

/** Additions the allowance still permits (never below 0). */
export const remainingAdditions = ({ used, limit }: DirectoryAllowance) => Math.max(0, limit - used);

/**
 * Whether an allowance is the free tier's: the server sends the limit with every allowance, and a limit
 * no higher than the free one is the free tier (its refusals offer the upgrade).
 */
export const isFreeAllowance = ({ limit }: DirectoryAllowance) => limit <= directoryAdditionsLimits.free;

/**
 * GET /api/directory: every entry (read by partition, never scanned), the caller's allowance, and the ids
 * of the entries whose email is already one of the caller's contacts (shown as added).
 */
export const directoryListSchema = z.object({
  entries: z.array(directoryEntrySchema),
  allowance: directoryAllowanceSchema,
  in_contacts: z.array(z.string()),
});
export type DirectoryList = z.infer<typeof directoryListSchema>;

/** POST /api/directory/contacts: add directory entries to the caller's contacts. */
export const directoryAddSchema = z
  .object({
    entry_ids: z
      .array(z.string().min(1).max(100))
      .min(1, 'Select at least one contact.')
      .max(directoryAdditionsLimits.paid, `At most ${directoryAdditionsLimits.paid} contacts at once.`),
  })
  .strict();

/** The API's error `code` for a refusal the web answers with an Upgrade action. */
export const DIRECTORY_LIMIT_CODE = 'directory_limit';

/** Spec §8 LabelFinder texts (and the server's refusals). */
export const directoryMessages = {
  loadFailed: 'Failed to load contacts. Please try again.',
  loginRequired: 'Please log in to add contacts.',
  alreadyInContacts: (name: string) => `${name} is already in your contacts.`,
  addFailed: 'Failed to add contact. Please try again.',
  addManyFailed: 'Failed to add contacts. Please try again.',
  freeLimitReached: "You've reached the free limit (5 contacts). Upgrade to Premium to access all 743+ industry contacts!",
  paidLimitReached: (limit: number) => `You've reached your LabelFinder limit (${limit} contacts).`,
  onlyNMore: (n: number) => `You can only add ${n} more contacts. Please select fewer contacts or upgrade to Premium.`,
  noEmail: (name: string) => `${name} has no email address, so it cannot be added to your contacts.`,
  /** An entry stored before imports refused such addresses (the email rule of schema/api/characters.ts). */
  invisibleInEmail: (name: string) => `The email address of ${name} contains an invisible or control character, so it cannot be added to your contacts.`,
  unknownEntries: 'Some of the selected contacts are no longer in the directory. Reload the page and try again.',
} as const;

/** Why an entry whose email is not a contact's address (isContactEmail) cannot be added: the server's refusal and the card's disabled reason. */
export const cannotAddMessage = (entry: Pick<DirectoryEntry, 'name' | 'email'>) =>
  hasInvisibleOrControl(entry.email.trim()) ? directoryMessages.invisibleInEmail(entry.name) : directoryMessages.noEmail(entry.name);

/**
 * What a directory add did: the contacts created, the entries skipped because the caller already has a
 * contact with that email, and the allowance after the add. A single entry that is already a contact is
 * a 409 with `alreadyInContacts` instead. Refusals over the allowance are 403 with `code: DIRECTORY_LIMIT_CODE`
 * and nothing added.
 */
export const directoryAddResultSchema = z.object({
  added: z.array(contactSchema),
  duplicates: z.array(z.object({ id: z.string(), name: z.string() })),
  allowance: directoryAllowanceSchema,
});
export type DirectoryAddResult = z.infer<typeof directoryAddResultSchema>;

/**
 * The largest file one import takes, in UTF-8 bytes. Sent as a JSON string it grows (each quote, line
 * break and backslash takes two characters; a fully quoted CSV about 1.6×), and 3 MB keeps even that
 * under Lambda's 6 MB payload limit, so a large file gets this message instead of a bare 413.
 */
export const DIRECTORY_IMPORT_MAX_BYTES = 3 * 1024 * 1024;

/**
 * The most entries the directory may hold: GET /api/directory answers them all at once, and at the
 * largest entry the import accepts (its field limits add up to ~3,200 characters, ~3.5 KB as JSON) this
 * keeps that answer near 5.3 MB, under Lambda's 6 MB response limit.
 */
export const DIRECTORY_MAX_ENTRIES = 1500;

export const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/** POST /api/admin/directory: a whole file, CSV (header row required) or JSON (an array of objects). */
export const directoryImportSchema = z
  .object({
    format: z.enum(['csv', 'json']),
    content: z
      .string()
      .min(1, 'The file is empty.')
      .refine(
        (content) => utf8Length(content) <= DIRECTORY_IMPORT_MAX_BYTES,
        `The file is too large (at most ${DIRECTORY_IMPORT_MAX_BYTES / 1024 / 1024} MB): split it into smaller files.`,
      ),
  })
  .strict();

export const directoryTooLarge = (total: number) =>
  `The directory would hold ${total.toLocaleString('en-US')} entries, more than the ${DIRECTORY_MAX_ENTRIES.toLocaleString('en-US')} it may hold. Nothing was imported.`;
export type DirectoryImportRequest = z.infer<typeof directoryImportSchema>;

/**
 * What an import did. Entries are upserted by email (lower-cased): `created` new ones, `updated` ones
 * whose email was already in the directory. `rejected` lists each record that was not loaded and why;
 * `row` is the spreadsheet row for CSV (the header is row 1) and the 1-based position for JSON.
 */
export const directoryImportResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  rejected: z.array(z.object({ row: z.number().int(), email: z.string().nullable(), reasons: z.array(z.string()) })),
});
export type DirectoryImportResult = z.infer<typeof directoryImportResultSchema>;
