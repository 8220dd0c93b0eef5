import { characterMessages, characterReasons, hasNulOrLoneSurrogate } from '../api/characters';
import { contactEmailError, contactLimits, CONTACT_EMAIL_PATTERN, normaliseEmail, type CsvContact } from '../api/contacts';
import { normaliseWebsite } from '../api/links';
import { contactInputFields, type ContactInputField } from '../api/recordFields';
import { canonicalTimeZone } from '../timeZones';
import type { ContactType } from '../api/options';
import { formatCsv, parseCsv, type CsvTable } from './parse';

/**
 * The contacts CSV import between reading the file and sending the rows (spec §5 CSV rules, §8 CSV texts):
 * file checks, the column guess, the preview and the mapping of rows to contacts. Pure: no DOM, no I/O.
 */

/**
 * What one CSV column becomes in the import (the mapping select of spec §2): every field a contact has,
 * 'add_to_notes' for a column the contact has no field for (Country, Instagram, SoundCloud…), whose
 * cells are kept in the notes as 'Header: value' rather than lost, or 'skip'.
 */
export type ColumnField = ContactInputField | 'add_to_notes' | 'skip';

/** The mapping select's options, in order: the one required field first, then the contact's others as the form has them. */
export const columnFields: readonly ColumnField[] = ['email', ...contactInputFields.filter((field) => field !== 'email'), 'add_to_notes', 'skip'];

/** The contact form's words for each field (ContactForm), so the import and the form name them alike. */
export const columnFieldLabels: Record<ColumnField, string> = {
  email: 'Email Address *',
  name: 'Name',
  label_name: 'Label/Company',
  contact_type: 'Contact Type',
  position: 'Position',
  genre: 'Genre',
  website_url: 'Website',
  notes: 'Notes',
  time_zone: 'Time zone',
  add_to_notes: 'Add to Notes',
  skip: 'Skip This Column',
};

/** Why a row is skipped (after 'Row N: '); the spec's words where it has them (§5). */
export const rowReasons = {
  missingEmail: 'Missing email address',
  invalidEmail: (value: string) => `Invalid email format: ${value}`,
  /** Not in the spec: an address that looks right but holds a character Gmail refuses (the value is not shown: it would look fine). */
  invisibleInEmail: characterReasons.invisibleInEmail,
  invalidWebsite: (value: string) => `Invalid website: ${value}`,
  /** Issue 27 §2: a time zone is an IANA name such as Europe/Berlin. */
  invalidTimeZone: (value: string) => `Unknown time zone: ${value} (use a name such as Europe/Berlin)`,
  tooLong: (field: string) => `${field} is too long`,
} as const;

/** Every CSV text of spec §5 and §8; the web shows them and tests find them by these words. */
export const csvMessages = {
  fileLabel: 'CSV File (Max 5MB, 5000 contacts)',
  /** Title of the wrong-type toast; the spec gives only its description. */
  notCsvTitle: 'Error',
  notCsv: 'Please select a CSV file.',
  tooLargeTitle: 'File too large',
  tooLarge: 'Maximum file size is 5MB.',
  parseErrorTitle: 'CSV Parse Error',
  parseError: "File format issue. Make sure it's a valid CSV file.",
  readFailed: 'Failed to read CSV file.',
  empty: 'CSV file is empty',
  noRows: 'No data rows found in CSV',
  tooMany: 'Too many contacts. Maximum 5000 per import allowed.',
  noEmailColumn: 'No email column mapped',
  rowIssue: (row: number, reasons: readonly string[]) => `Row ${row}: ${reasons.join('; ')}`,
  missingEmail: (row: number) => `Row ${row}: ${rowReasons.missingEmail}`,
  invalidEmail: (row: number, value: string) => `Row ${row}: ${rowReasons.invalidEmail(value)}`,
  invisibleInEmail: (row: number) => `Row ${row}: ${rowReasons.invisibleInEmail}`,
  cannotStore: (row: number, field: string) => `Row ${row}: ${characterReasons.cannotStore(field)}`,
  tooLong: (row: number, field: string) => `Row ${row}: ${rowReasons.tooLong(field)}`,
  issuesTitle: 'Import Issues',
  importFailed: 'Import failed: Failed to import contacts from CSV.',
  ready: 'Ready to import',
  /** The mapping step's status when some rows have a problem: never 'Ready to import' then. */
  readyAndSkipped: (ready: number, skipped: number) => `${ready} ready, ${skipped} will be skipped`,
  /** Under 'Import Issues' after the import: the rows left out stay listed until the panel is closed. */
  notImported: (skipped: number) => `${skipped} ${skipped === 1 ? 'row was' : 'rows were'} not imported.`,
  downloadSkipped: 'Download skipped rows (CSV)',
  skippedFileName: (fileName: string) => `${fileName.replace(/\.csv$/i, '')}-skipped-rows.csv`,
  reasonColumn: 'Reason',
  mapEmail: 'Please map at least one column to "Email Address"',
  noNew: 'No new contacts',
  noNewDetail: 'All contacts in the CSV already exist.',
  nothingToImport: 'No contacts to import',
  success: (imported: number, duplicates: number) => `Import successful! Imported ${imported} contacts successfully. ${duplicates} duplicates skipped.`,
  progress: (done: number, total: number) => `Importing contacts... ${done} of ${total}`,
} as const;

/** Spec §9: the column guess reads the first 6 rows; the preview shows 5 data rows. */
const guessRows = 6;
const previewSize = 5;

/** Type and size check of a chosen file (name ending .csv case-insensitive or type text/csv; at most 5 MB). */
export function checkCsvFile(file: { name: string; type: string; size: number }): null | { title: string; message: string } {
  // Windows reports .csv as application/vnd.ms-excel when Excel is installed, so the name alone is enough.
  if (!file.name.toLowerCase().endsWith('.csv') && file.type !== 'text/csv') {
    return { title: csvMessages.notCsvTitle, message: csvMessages.notCsv };
  }
  if (file.size > contactLimits.csvMaxBytes) return { title: csvMessages.tooLargeTitle, message: csvMessages.tooLarge };
  return null;
}

/**
 * The text → table step with the spec's errors: blank or whitespace-only text (or only empty cells) →
 * csvMessages.empty; a parse failure → csvMessages.parseError.
 */
export function readContactsCsv(text: string): { ok: true; table: CsvTable } | { ok: false; error: string } {
  if (text.replace(/^\uFEFF/, '').trim() === '') return { ok: false, error: csvMessages.empty };
  const parsed = parseCsv(text);
  if (!parsed.ok) return { ok: false, error: csvMessages.parseError };
  if (parsed.table.rows.length === 0) return { ok: false, error: csvMessages.empty };
  return parsed;
}

/** The number of columns: the widest row, so every cell of the file can be mapped. */
function columnCount(table: CsvTable): number {
  return table.rows.reduce((widest, row) => Math.max(widest, row.length), 0);
}

/** Columns the contact has no field for but an artist's list often holds: guessed as 'add_to_notes'. */
const notesWorthyHeader =
  /\b(country|city|location|instagram|soundcloud|spotify|bandcamp|beatport|mixcloud|facebook|twitter|tiktok|youtube|resident advisor)\b/;

/**
 * The field a header cell suggests, and how surely (0 surest): for each field the surest column wins.
 * Spec §5's guess, refined for real exports:
 * - Google Contacts pairs each value with a column saying what kind it is ('E-mail 1 - Type' = '* Work'
 *   beside 'E-mail 1 - Value'); those kind columns are never data. Its 'Labels'/'Group Membership'
 *   columns are its own groups, not record labels.
 * - A header of just 'Type' says nothing about what it types (Google's kinds, a release type…): the
 *   contact type is guessed from a 'Contact Type' header or from cells that are DJ, Label or Fan.
 */
function fieldFromHeader(header: string): { field: ColumnField; rank: number } {
  const text = header.trim().toLowerCase();
  const skip = { field: 'skip' as const, rank: 0 };
  if (/\s-\s*(type|label)$/.test(text) || text === 'labels' || text === 'group membership') return skip;
  if (text.includes('email') || text.includes('e-mail')) return { field: 'email', rank: 0 };
  if (/contact[\s_-]*type/.test(text)) return { field: 'contact_type', rank: 0 };
  if (/^(time[\s_-]*zone|tz)$/.test(text)) return { field: 'time_zone', rank: 0 };
  if (notesWorthyHeader.test(text)) return { field: 'add_to_notes', rank: 0 };
  if (/\b(position|title|job|role)\b/.test(text)) return { field: 'position', rank: 0 };
  const isLabel = /label|company|organi[sz]ation/.test(text);
  if (text.includes('name') && !isLabel) {
    // 'Name' or 'Full Name' over 'First Name' over 'Last Name', 'Nickname'…
    if (/^(full |display |contact )?name$/.test(text)) return { field: 'name', rank: 0 };
    return { field: 'name', rank: /^(first|given) name$/.test(text) ? 1 : 2 };
  }
  if (isLabel) return { field: 'label_name', rank: 0 };
  if (text.includes('genre') || text.includes('style')) return { field: 'genre', rank: 0 };
  if (/web\s?site|homepage|\burl\b/.test(text)) return { field: 'website_url', rank: 0 };
  if (/^(notes?|comments?)$/.test(text)) return { field: 'notes', rank: 0 };
  return skip;
}

const contactTypeByText: Record<string, ContactType> = { dj: 'DJ', label: 'Label', fan: 'Fan' };

/** Most of the cells name a contact type: a 'Promoter' among DJs and labels still reads as Label (spec §5). */
function mostlyContactTypes(cells: readonly string[]): boolean {
  const typed = cells.filter((value) => Object.hasOwn(contactTypeByText, value.toLowerCase())).length;
  return typed * 2 > cells.length;
}

/**
 * Spec §5 automatic guess, from the header cells when the file has a header row (fieldFromHeader), else
 * the first column whose non-blank cells in the first 6 rows all look like emails → email. Either way, a
 * column left unguessed whose non-blank cells in the first 6 data rows are mostly DJ, Label or Fan → contact
 * type. Each field goes to one column, the surest (the first among equals); any number of columns may be
 * added to the notes.
 */
export function guessMapping(table: CsvTable, hasHeader: boolean): ColumnField[] {
  const width = columnCount(table);
  const cell = (row: string[] | undefined, column: number) => (row?.[column] ?? '').trim();
  const sample = table.rows.slice(hasHeader ? 1 : 0, (hasHeader ? 1 : 0) + guessRows);
  const cellsOf = (column: number) => sample.map((row) => cell(row, column)).filter((value) => value !== '');
  const allMatch = (column: number, test: (value: string) => boolean) => {
    const cells = cellsOf(column);
    return cells.length > 0 && cells.every(test);
  };
  const suggested = Array.from({ length: width }, (_, column) => {
    const guess = hasHeader
      ? fieldFromHeader(cell(table.rows[0], column))
      : { field: allMatch(column, (value) => CONTACT_EMAIL_PATTERN.test(value)) ? ('email' as const) : ('skip' as const), rank: 0 };
    if (guess.field === 'skip' && mostlyContactTypes(cellsOf(column))) return { field: 'contact_type' as const, rank: 1 };
    return guess;
  });
  const chosen = new Map<ColumnField, { column: number; rank: number }>();
  suggested.forEach(({ field, rank }, column) => {
    const best = chosen.get(field);
    if (best === undefined || rank < best.rank) chosen.set(field, { column, rank });
  });
  return suggested.map(({ field }, column) => (field === 'add_to_notes' || chosen.get(field)?.column === column ? field : 'skip'));
}

/** Pads a row with blank cells to the table's width, so every preview row has a cell per column. */
function padded(row: string[], width: number): string[] {
  return row.length >= width ? row : [...row, ...Array<string>(width - row.length).fill('')];
}

/** Up to 5 data rows for the preview (after the header when hasHeader), one cell per column. */
export function previewRows(table: CsvTable, hasHeader: boolean): string[][] {
  const width = columnCount(table);
  const first = hasHeader ? 1 : 0;
  return table.rows.slice(first, first + previewSize).map((row) => padded(row, width));
}

/** The column headings to show: the header cells (trimmed; 'Column N' when blank) when hasHeader, else 'Column 1'... */
export function columnHeadings(table: CsvTable, hasHeader: boolean): string[] {
  return Array.from({ length: columnCount(table) }, (_, column) => {
    const header = hasHeader ? (table.rows[0]?.[column] ?? '').trim() : '';
    return header === '' ? `Column ${column + 1}` : header;
  });
}

/** Spec §5 and §9: a file with no data row under its header, or more than 5000, is refused before the mapping step. */
export function preflightContactsCsv(table: CsvTable): string | null {
  // The mapping starts with 'First row contains headers' checked, so the first row is not counted.
  const dataRows = table.rows.length - 1;
  if (dataRows <= 0) return csvMessages.noRows;
  if (dataRows > contactLimits.csvMaxRows) return csvMessages.tooMany;
  return null;
}

/** A data row of the file as it was (cells untrimmed) and its spreadsheet row number. */
export interface SourceRow {
  rowNumber: number;
  cells: string[];
}

/** A row the import leaves out, and why: 'Row 23: Invalid email format: not-an-email'. */
export interface SkippedRow extends SourceRow {
  reason: string;
}

export interface ImportPlan {
  /** The rows to send, in file order, one per email. */
  contacts: CsvContact[];
  /** The row each contact came from (same order), so a row the server turns down can be named and downloaded. */
  sources: SourceRow[];
  /** Rows with a problem, in file order: the rest is imported without them. */
  skipped: SkippedRow[];
  /** Later rows that repeated an email (case-insensitive) and were dropped. */
  inFileDuplicates: number;
  /** The non-blank data rows of the file. */
  rowCount: number;
}

/** Spec §5: case-insensitive DJ, Label or Fan; anything else (or blank) is Label. */
function contactTypeOf(text: string): ContactType {
  const key = text.toLowerCase();
  // Own keys only: 'constructor' is no contact type.
  return (Object.hasOwn(contactTypeByText, key) ? contactTypeByText[key] : undefined) ?? 'Label';
}

/** The optional text fields: their contract limits and the words problems name them by. */
const optionalFields = [
  { field: 'name', limit: contactLimits.name },
  { field: 'label_name', limit: contactLimits.labelName },
  { field: 'position', limit: contactLimits.position },
  { field: 'genre', limit: contactLimits.genre },
  { field: 'website_url', limit: Number.POSITIVE_INFINITY },
  { field: 'notes', limit: contactLimits.notes },
  { field: 'time_zone', limit: Number.POSITIVE_INFINITY },
] as const;

/** Why a website cell cannot be stored, or null; the limit applies to the link as stored ('label.com' is 'https://label.com'), as on the server. */
function websiteProblem(value: string): string | null {
  const link = normaliseWebsite(value);
  if (link === null) return rowReasons.invalidWebsite(value);
  return link.length > contactLimits.websiteUrl ? rowReasons.tooLong(columnFieldLabels.website_url) : null;
}

export type PlanResult = { ok: true; plan: ImportPlan } | { ok: false; error: string };

/**
 * Builds the rows to send: cells trimmed; contact type mapped case-insensitively to DJ, Label or Fan
 * (anything else or blank: Label); blank optional fields left out; each 'Add to Notes' column appended
 * to the notes as 'Header: value'; blank rows ignored. A row with a problem (no email, a bad email, a
 * value too long…) is skipped with its reason and the others are imported; Row N is the spreadsheet row
 * (the header is row 1). Only a problem of the whole file (no data rows, too many, no email column)
 * plans nothing.
 * Later rows repeating an email (case-insensitive) are always dropped, since the server keeps one contact per
 * email; `removeDuplicates` does not change the plan, it tells the caller whether to report them
 * (off: they count as 'duplicates skipped'; on: they go silently).
 */
export function planContactImport(table: CsvTable, options: { hasHeader: boolean; removeDuplicates: boolean; mapping: readonly ColumnField[] }): PlanResult {
  const first = options.hasHeader ? 1 : 0;
  const dataRows = table.rows
    .map((cells, index) => ({ cells, rowNumber: table.rowNumbers[index] ?? index + 1 }))
    .slice(first)
    .filter((row) => row.cells.some((cell) => cell.trim() !== ''));
  if (dataRows.length === 0) return { ok: false, error: csvMessages.noRows };
  if (dataRows.length > contactLimits.csvMaxRows) return { ok: false, error: csvMessages.tooMany };

  const columnOf = (field: ColumnField) => options.mapping.indexOf(field);
  const emailColumn = columnOf('email');
  if (emailColumn < 0) return { ok: false, error: csvMessages.noEmailColumn };
  const typeColumn = columnOf('contact_type');
  const headings = columnHeadings(table, options.hasHeader);
  const notesColumns = options.mapping.flatMap((field, column) => (field === 'add_to_notes' ? [column] : []));

  const plan: ImportPlan = { contacts: [], sources: [], skipped: [], inFileDuplicates: 0, rowCount: dataRows.length };
  const seen = new Set<string>();
  for (const source of dataRows) {
    const cell = (column: number) => (column < 0 ? '' : (source.cells[column] ?? '').trim());
    const skip = (reasons: readonly string[]) => plan.skipped.push({ ...source, reason: csvMessages.rowIssue(source.rowNumber, reasons) });
    const email = cell(emailColumn);
    const emailError = email === '' ? rowReasons.missingEmail : contactEmailError(email);
    if (emailError !== null) {
      skip([
        emailError === rowReasons.missingEmail
          ? rowReasons.missingEmail
          : emailError === characterMessages.invisibleInEmail
            ? rowReasons.invisibleInEmail
            : rowReasons.invalidEmail(email),
      ]);
      continue;
    }
    if (email.length > contactLimits.email) {
      skip([rowReasons.tooLong('Email')]);
      continue;
    }
    const extraNotes = notesColumns.flatMap((column) => (cell(column) === '' ? [] : [`${headings[column]}: ${cell(column)}`]));
    const values: Record<(typeof optionalFields)[number]['field'], string> = {
      name: cell(columnOf('name')),
      label_name: cell(columnOf('label_name')),
      position: cell(columnOf('position')),
      genre: cell(columnOf('genre')),
      website_url: cell(columnOf('website_url')),
      notes: [cell(columnOf('notes')), ...extraNotes].filter((line) => line !== '').join('\n'),
      time_zone: cell(columnOf('time_zone')),
    };
    const contact: CsvContact = { email, contact_type: contactTypeOf(cell(typeColumn)) };
    const reasons: string[] = [];
    for (const { field, limit } of optionalFields) {
      const value = values[field];
      const label = columnFieldLabels[field];
      if (value === '') continue;
      const problem =
        value.length > limit
          ? rowReasons.tooLong(label)
          : hasNulOrLoneSurrogate(value)
            ? characterReasons.cannotStore(label)
            : field === 'website_url'
              ? websiteProblem(value)
              : field === 'time_zone' && canonicalTimeZone(value) === null
                ? rowReasons.invalidTimeZone(value)
                : null;
      if (problem === null) contact[field] = value;
      else reasons.push(problem);
    }
    if (reasons.length > 0) {
      skip(reasons);
      continue;
    }
    const key = normaliseEmail(email);
    if (seen.has(key)) {
      plan.inFileDuplicates += 1;
      continue;
    }
    seen.add(key);
    plan.contacts.push(contact);
    plan.sources.push(source);
  }
  return { ok: true, plan };
}

/**
 * What the mapping step says under the columns: what is missing, or how many rows will be imported and
 * how many skipped. It never says 'Ready to import' while a row would be skipped.
 */
export function importStatus(planned: PlanResult): { type: 'success' | 'warning' | 'error'; message: string; canImport: boolean } {
  if (!planned.ok) {
    const message = planned.error === csvMessages.noEmailColumn ? csvMessages.mapEmail : planned.error;
    return { type: planned.error === csvMessages.noEmailColumn ? 'warning' : 'error', message, canImport: false };
  }
  const { contacts, skipped } = planned.plan;
  if (contacts.length === 0) return { type: 'error', message: csvMessages.nothingToImport, canImport: false };
  if (skipped.length === 0) return { type: 'success', message: csvMessages.ready, canImport: true };
  return { type: 'warning', message: csvMessages.readyAndSkipped(contacts.length, skipped.length), canImport: true };
}

/**
 * The skipped rows as a CSV file to fix and import again: the file's header (or 'Column N' headings) and
 * each row's cells as they were, plus a 'Reason' column; written with the file's own delimiter, with a
 * byte order mark so Excel reads accents as UTF-8.
 */
export function skippedRowsCsv(table: CsvTable, hasHeader: boolean, skipped: readonly SkippedRow[]): string {
  const width = columnCount(table);
  const header = hasHeader ? padded(table.rows[0] ?? [], width) : columnHeadings(table, false);
  const rows = skipped.map((row) => [...padded(row.cells, width), row.reason]);
  return `\uFEFF${formatCsv([[...header, csvMessages.reasonColumn], ...rows], table.delimiter)}`;
}
