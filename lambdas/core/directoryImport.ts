/**
 * The admin directory import (POST /api/admin/directory, `npm run directory:import`): a whole CSV or
 * JSON file becomes directory entries with the spec's defaults, and every record that cannot be loaded
 * is reported with its row and reasons. Pure: no I/O; the store upserts what this returns.
 */
import { characterMessages, characterReasons, hasNulOrLoneSurrogate } from '../../schema/api/characters';
import { contactEmailError, isContactEmail } from '../../schema/api/contacts';
import { applyDirectoryDefaults, type DirectoryEntry, type DirectoryImportRequest, type DirectoryImportResult } from '../../schema/api/directory';
import { normaliseWebsite } from '../../schema/api/links';
import { parseCsv } from '../../schema/csv/parse';
import type { DirectoryImportRecord } from '../ports';
import {
  demoPolicyAliases,
  demoPolicyFieldLabels,
  demoPolicyImportMessages,
  nestedDemoPolicyAliases,
  readDemoPolicy,
  type DemoPolicyField,
} from './demoPolicyImport';

export type DirectoryImportRejection = DirectoryImportResult['rejected'][number];
export type NewDirectoryEntry = Omit<DirectoryEntry, 'id'>;

export interface DirectoryImportPlan {
  /** Valid records with the defaults applied, in file order, one per (lower-cased) email. */
  entries: NewDirectoryEntry[];
  rejected: DirectoryImportRejection[];
}

export type DirectoryImportParse = { ok: true; plan: DirectoryImportPlan } | { ok: false; error: string };

type EntryField = keyof DirectoryImportRecord;
/** An entry's own fields and its demo policy's (issue 28 §2), read from columns (CSV) or keys (JSON) alike. */
type Field = EntryField | DemoPolicyField;

/**
 * Field lengths after trimming. An entry added to contacts must be a valid contact (spec §3): name,
 * email and website fit the contact's limits, and description + guidelines fit its notes (2000).
 * They also keep GET /api/directory (every entry, one response) far below Lambda's 6 MB.
 */
export const directoryImportLimits = {
  name: 200,
  email: 254,
  location: 200,
  label_size: 100,
  description: 1000,
  website_url: 500,
  submission_guidelines: 950,
} as const satisfies Partial<Record<EntryField, number>>;

const fieldLabels: Record<Field, string> = {
  ...demoPolicyFieldLabels,
  name: 'Name',
  email: 'Email',
  genres: 'Genres',
  location: 'Location',
  label_size: 'Label size',
  description: 'Description',
  website_url: 'Website',
  submission_guidelines: 'Submission guidelines',
  is_featured: 'Featured',
  contact_type: 'Contact type',
};

export const directoryImportMessages = {
  missingEmail: 'Missing email address',
  invalidEmail: (value: string) => `Invalid email format: ${value}`,
  /** The address looks right but holds a character Gmail refuses (the row's `email` shows the value). */
  invisibleInEmail: characterReasons.invisibleInEmail,
  cannotStore: (field: string) => characterReasons.cannotStore(field),
  duplicate: (row: number) => `Duplicate of row ${row}`,
  tooLong: (field: string, max: number) => `${field} is too long (at most ${max} characters)`,
  invalidWebsite: (value: string) => `Invalid website: ${value}`,
  unknownContactType: (value: string) => `Unknown contact type: ${value} (use Label or DJ)`,
  unknownFeatured: (value: string) => `Unknown featured value: ${value} (use true or false)`,
  notText: (field: string) => `${field} must be text`,
  notAnObject: 'Not an object',
  unreadableCsv: (detail: string) => `The CSV file could not be read: ${detail}`,
  noEmailColumn: 'The header row has no email column (name one "email" or "e-mail").',
  noRecords: 'The file has no entries.',
  invalidJson: (detail: string) => `The file is not valid JSON: ${detail}`,
  jsonShape: 'A JSON file must hold an array of entries, or an object with an "entries" array.',
  nothingValid: (rejected: readonly DirectoryImportRejection[]) => `No entries were imported: every record was rejected. ${describeRejections(rejected)}`,
} as const;

/** 'Row 3: Missing email address; Row 7: …' for the first `max` rejections, '...' when there are more. */
export function describeRejections(rejected: readonly DirectoryImportRejection[], max = 3): string {
  const shown = rejected.slice(0, max).map((r) => `Row ${r.row}: ${r.reasons.join(', ')}`);
  return shown.join('; ') + (rejected.length > max ? '...' : '');
}

/** Column names as files spell them, normalised by `normaliseName`, for each field. */
const fieldAliases: Record<Field, readonly string[]> = {
  ...demoPolicyAliases,
  name: ['name', 'label_name'],
  email: ['email', 'e_mail', 'email_address', 'mail'],
  genres: ['genres', 'genre', 'styles', 'style'],
  location: ['location', 'city', 'country'],
  label_size: ['label_size', 'size'],
  description: ['description', 'about'],
  website_url: ['website_url', 'website', 'url', 'homepage'],
  submission_guidelines: ['submission_guidelines', 'guidelines', 'submissions', 'submission'],
  is_featured: ['is_featured', 'featured'],
  contact_type: ['contact_type', 'type'],
};

/** 'E-mail' → 'e_mail', ' Website URL ' → 'website_url', 'Label Size' → 'label_size'. */
const normaliseName = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

const fieldByAlias = new Map<string, Field>(
  (Object.entries(fieldAliases) as [Field, readonly string[]][]).flatMap(([field, aliases]) => aliases.map((alias) => [alias, field] as const)),
);

const fieldOf = (name: string): Field | undefined => fieldByAlias.get(normaliseName(name));

/**
 * One record's values by field, as read: CSV cells, or JSON values of any type (checked later).
 * A field given by several columns keeps every value in column order.
 */
type RawRecord = Partial<Record<Field, unknown[]>> & {
  /** A JSON record's `demo_policy` that is not an object (its fields cannot be read). */
  policyNotObject?: boolean;
};

function addValue(record: RawRecord, field: Field, value: unknown) {
  (record[field] ??= []).push(value);
}

/**
 * Parses a CSV or JSON file into entries and rejected rows. Rows: CSV records counting the header as
 * row 1 and blank lines too (the spreadsheet's row number); JSON positions from 1.
 */
export function parseDirectoryImport(format: DirectoryImportRequest['format'], content: string): DirectoryImportParse {
  const read = format === 'csv' ? readCsv(content) : readJson(content);
  if (!read.ok) return read;
  if (read.records.length === 0) return { ok: false, error: directoryImportMessages.noRecords };
  return { ok: true, plan: validateRecords(read.records) };
}

type ReadResult = { ok: true; records: { row: number; record: RawRecord | undefined }[] } | { ok: false; error: string };

function readCsv(content: string): ReadResult {
  const parsed = parseCsv(content);
  if (!parsed.ok) return { ok: false, error: directoryImportMessages.unreadableCsv(parsed.error) };
  const [header, ...rows] = parsed.table.rows;
  const rowNumbers = parsed.table.rowNumbers.slice(1);
  if (!header) return { ok: false, error: directoryImportMessages.noRecords };
  const columns = header.map(fieldOf);
  if (!columns.includes('email')) return { ok: false, error: directoryImportMessages.noEmailColumn };
  return {
    ok: true,
    records: rows.map((cells, index) => {
      const record: RawRecord = {};
      columns.forEach((field, column) => {
        if (field) addValue(record, field, cells[column] ?? '');
      });
      const row = rowNumbers[index];
      if (row === undefined) throw new Error(`No line number for record ${index + 1}`);
      return { row, record };
    }),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readJson(content: string): ReadResult {
  let data: unknown;
  try {
    data = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, error: directoryImportMessages.invalidJson((error as Error).message) };
  }
  const list = Array.isArray(data) ? data : isObject(data) && Array.isArray(data.entries) ? data.entries : undefined;
  if (!list) return { ok: false, error: directoryImportMessages.jsonShape };
  return {
    ok: true,
    records: list.map((value: unknown, index) => {
      if (!isObject(value)) return { row: index + 1, record: undefined };
      const record: RawRecord = {};
      for (const [name, fieldValue] of Object.entries(value)) {
        if (normaliseName(name) === 'demo_policy') addNestedPolicy(record, fieldValue);
        else {
          const field = fieldOf(name);
          if (field) addValue(record, field, fieldValue);
        }
      }
      return { row: index + 1, record };
    }),
  };
}

const isPolicyField = (field: Field): field is DemoPolicyField => field in demoPolicyAliases;

/** A JSON record's `demo_policy` object: its keys as the stored policy names them (or as columns would), policy fields only. */
function addNestedPolicy(record: RawRecord, value: unknown) {
  if (value === null || value === undefined) return;
  if (!isObject(value)) {
    record.policyNotObject = true;
    return;
  }
  for (const [name, fieldValue] of Object.entries(value)) {
    const field = nestedDemoPolicyAliases[normaliseName(name)] ?? fieldOf(name);
    if (field && isPolicyField(field)) addValue(record, field, fieldValue);
  }
}

/** Text of a value, '' for none, undefined when it is not text (an object, a boolean in a text field). */
function textOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

const FEATURED_VALUES = new Set(['', 'true', 'false', 'yes', 'no', 'y', 'n', '1', '0']);

type TextField = Exclude<EntryField, 'genres' | 'is_featured'>;

/** The fields stored as written; the email, website and contact type have stricter rules with reasons of their own. */
const FREE_TEXT_FIELDS: ReadonlySet<TextField> = new Set(['name', 'location', 'label_size', 'description', 'submission_guidelines']);

function validateRecords(records: { row: number; record: RawRecord | undefined }[]): DirectoryImportPlan {
  const entries: NewDirectoryEntry[] = [];
  const rejected: DirectoryImportRejection[] = [];
  const firstRowOfEmail = new Map<string, number>();

  for (const { row, record } of records) {
    if (!record) {
      rejected.push({ row, email: null, reasons: [directoryImportMessages.notAnObject] });
      continue;
    }
    const reasons: string[] = [];

    /** The field's text: location joins its columns (City, Country); others take the first non-blank. */
    const text = (field: TextField, max?: number): string => {
      const values = (record[field] ?? []).map(textOf);
      if (values.some((value) => value === undefined)) {
        reasons.push(directoryImportMessages.notText(fieldLabels[field]));
        return '';
      }
      const present = (values as string[]).filter((value) => value !== '');
      const value = field === 'location' ? present.join(', ') : (present[0] ?? '');
      if (max !== undefined && value.length > max) reasons.push(directoryImportMessages.tooLong(fieldLabels[field], max));
      else if (FREE_TEXT_FIELDS.has(field) && hasNulOrLoneSurrogate(value)) reasons.push(directoryImportMessages.cannotStore(fieldLabels[field]));
      return value;
    };

    const email = text('email');
    const emailError = email === '' ? null : contactEmailError(email);
    if (email === '') reasons.push(directoryImportMessages.missingEmail);
    else if (emailError !== null) {
      reasons.push(emailError === characterMessages.invisibleInEmail ? directoryImportMessages.invisibleInEmail : directoryImportMessages.invalidEmail(email));
    } else if (email.length > directoryImportLimits.email) reasons.push(directoryImportMessages.tooLong(fieldLabels.email, directoryImportLimits.email));

    const name = text('name', directoryImportLimits.name);
    const location = text('location', directoryImportLimits.location);
    const labelSize = text('label_size', directoryImportLimits.label_size);
    const description = text('description', directoryImportLimits.description);
    const guidelines = text('submission_guidelines', directoryImportLimits.submission_guidelines);

    const websiteText = text('website_url');
    let website: string | null = null;
    if (websiteText !== '') {
      if (websiteText.length > directoryImportLimits.website_url) {
        reasons.push(directoryImportMessages.tooLong(fieldLabels.website_url, directoryImportLimits.website_url));
      } else {
        website = normaliseWebsite(websiteText);
        if (website === null) reasons.push(directoryImportMessages.invalidWebsite(websiteText));
      }
    }

    const contactType = text('contact_type');
    if (contactType !== '' && !['label', 'dj'].includes(contactType.toLowerCase())) {
      reasons.push(directoryImportMessages.unknownContactType(contactType));
    }

    const featuredValue = (record.is_featured ?? [])[0];
    let featured: boolean | string = false;
    if (typeof featuredValue === 'boolean') featured = featuredValue;
    else {
      const featuredText = textOf(featuredValue);
      if (featuredText === undefined) reasons.push(directoryImportMessages.notText(fieldLabels.is_featured));
      else if (!FEATURED_VALUES.has(featuredText.toLowerCase())) reasons.push(directoryImportMessages.unknownFeatured(featuredText));
      else featured = featuredText;
    }

    const genreValues = record.genres ?? [];
    const genres: string[] = [];
    for (const value of genreValues) {
      const parts = Array.isArray(value) ? value : [value];
      const texts = parts.map(textOf);
      if (texts.some((part) => part === undefined)) {
        reasons.push(directoryImportMessages.notText(fieldLabels.genres));
        break;
      }
      genres.push(...(texts as string[]).flatMap((part) => part.split(',')));
    }

    const demoPolicy = policyOf(record, reasons);

    // Only a well-formed address can repeat an earlier one; the first record of an address wins.
    if (isContactEmail(email)) {
      const lower = email.toLowerCase();
      const first = firstRowOfEmail.get(lower);
      if (first !== undefined) reasons.push(directoryImportMessages.duplicate(first));
      else firstRowOfEmail.set(lower, row);
    }

    if (reasons.length > 0) {
      rejected.push({ row, email: email === '' ? null : email, reasons });
      continue;
    }
    const entry: NewDirectoryEntry & { id?: string } = applyDirectoryDefaults({
      id: '',
      name,
      email,
      genres,
      location,
      label_size: labelSize,
      description,
      website_url: website,
      submission_guidelines: guidelines,
      is_featured: featured,
      contact_type: contactType,
      demo_policy: demoPolicy,
    });
    delete entry.id; // the store gives each entry its id
    entries.push(entry);
  }
  return { entries, rejected };
}

const POLICY_FLAGS = ['private_streaming_only', 'download_wanted', 'attachments_refused', 'unreleased_only'] as const;
/** The policy fields a JSON list may give (each item one value). */
const POLICY_LISTS: ReadonlySet<DemoPolicyField> = new Set(['demo_accepts', 'accepted_genres']);

/** The record's demo policy (null: none given), its bad values added to `reasons`. */
function policyOf(record: RawRecord, reasons: string[]) {
  if (record.policyNotObject) {
    reasons.push(demoPolicyImportMessages.notAnObject);
    return null;
  }
  const texts: Partial<Record<DemoPolicyField, string[]>> = {};
  const booleans: Partial<Record<(typeof POLICY_FLAGS)[number], boolean>> = {};
  for (const field of Object.keys(demoPolicyAliases) as DemoPolicyField[]) {
    const out: string[] = [];
    for (const value of record[field] ?? []) {
      const flag = POLICY_FLAGS.find((name) => name === field);
      if (flag && typeof value === 'boolean') {
        booleans[flag] = (booleans[flag] ?? false) || value;
        continue;
      }
      const parts = POLICY_LISTS.has(field) && Array.isArray(value) ? (value as unknown[]) : [value];
      const partTexts = parts.map(textOf);
      if (partTexts.some((part) => part === undefined)) {
        reasons.push(directoryImportMessages.notText(fieldLabels[field]));
        return null;
      }
      out.push((partTexts as string[]).join(', '));
    }
    texts[field] = out;
  }
  return readDemoPolicy(texts, booleans, reasons);
}
