import { characterMessages, characterReasons, hasNulOrLoneSurrogate } from '../api/characters';
import { contactEmailError, contactLimits, CONTACT_EMAIL_PATTERN, normaliseEmail, type CsvContact } from '../api/contacts';
import type { ContactType } from '../api/options';
import { parseCsv, type CsvTable } from './parse';

/**
 * The contacts CSV import between reading the file and sending the rows (spec §5 CSV rules, §8 CSV texts):
 * file checks, the column guess, the preview and the mapping of rows to contacts. Pure: no DOM, no I/O.
 */

/** What one CSV column becomes in the import (the mapping select of spec §2). */
export type ColumnField = 'email' | 'name' | 'label_name' | 'contact_type' | 'genre' | 'skip';

/** The mapping select's options, in order. */
export const columnFields: readonly ColumnField[] = ['email', 'name', 'label_name', 'contact_type', 'genre', 'skip'];

export const columnFieldLabels: Record<ColumnField, string> = {
  email: 'Email Address *',
  name: 'Name',
  label_name: 'Label/Company',
  contact_type: 'Contact Type',
  genre: 'Genre',
  skip: 'Skip This Column',
};

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
  missingEmail: (row: number) => `Row ${row}: Missing email address`,
  invalidEmail: (row: number, value: string) => `Row ${row}: Invalid email format: ${value}`,
  /** Not in the spec: an address that looks right but holds a character Gmail refuses (the value is not shown: it would look fine). */
  invisibleInEmail: (row: number) => `Row ${row}: ${characterReasons.invisibleInEmail}`,
  cannotStore: (row: number, field: string) => `Row ${row}: ${characterReasons.cannotStore(field)}`,
  tooLong: (row: number, field: string) => `Row ${row}: ${field} is too long`,
  issuesTitle: 'Import Issues',
  importFailed: 'Import failed: Failed to import contacts from CSV.',
  ready: 'Ready to import',
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

/** Spec §5: the field a header cell suggests. */
function fieldFromHeader(header: string): ColumnField {
  const text = header.trim().toLowerCase();
  if (text.includes('email') || text.includes('e-mail')) return 'email';
  const isLabel = text.includes('label') || text.includes('company');
  if (text.includes('name') && !isLabel) return 'name';
  if (isLabel) return 'label_name';
  if (text.includes('type')) return 'contact_type';
  if (text.includes('genre') || text.includes('style')) return 'genre';
  return 'skip';
}

/**
 * Spec §5 automatic guess. With a header row: from the header cells (contains email/e-mail → email; name but
 * not label/company → name; label or company → label_name; type → contact_type; genre/style → genre; else skip).
 * Without one: the first column whose non-blank cells in the first 6 rows all look like emails → email.
 * At most one column gets each field: the first match wins, later matches are skipped.
 */
export function guessMapping(table: CsvTable, hasHeader: boolean): ColumnField[] {
  const width = columnCount(table);
  const cell = (row: string[] | undefined, column: number) => (row?.[column] ?? '').trim();
  const suggested: ColumnField[] = Array.from({ length: width }, (_, column) => {
    if (hasHeader) return fieldFromHeader(cell(table.rows[0], column));
    const cells = table.rows
      .slice(0, guessRows)
      .map((row) => cell(row, column))
      .filter((value) => value !== '');
    return cells.length > 0 && cells.every((value) => CONTACT_EMAIL_PATTERN.test(value)) ? 'email' : 'skip';
  });
  const taken = new Set<ColumnField>();
  return suggested.map((field) => {
    if (field === 'skip' || taken.has(field)) return 'skip';
    taken.add(field);
    return field;
  });
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

/** Only the email mapping is required (spec §5). */
export function mappingStatus(mapping: readonly ColumnField[]): { ready: boolean; message: string } {
  const ready = mapping.includes('email');
  return { ready, message: ready ? csvMessages.ready : csvMessages.mapEmail };
}

export interface ImportPlan {
  /** The rows to send, in file order, one per email. */
  contacts: CsvContact[];
  /** Later rows that repeated an email (case-insensitive) and were dropped. */
  inFileDuplicates: number;
  /** The non-blank data rows of the file. */
  rowCount: number;
}

const contactTypeByText: Record<string, ContactType> = { dj: 'DJ', label: 'Label', fan: 'Fan' };

/** Spec §5: case-insensitive DJ, Label or Fan; anything else (or blank) is Label. */
function contactTypeOf(text: string): ContactType {
  return contactTypeByText[text.toLowerCase()] ?? 'Label';
}

/** The optional text fields: their contract limits and the words errors name them by. */
const optionalFields = [
  { field: 'name', limit: contactLimits.name, label: 'Name' },
  { field: 'label_name', limit: contactLimits.labelName, label: 'Label/Company' },
  { field: 'genre', limit: contactLimits.genre, label: 'Genre' },
] as const;

/** Spec §5: the toast shows the first 3 errors joined with commas, and '...' when there are more. */
const maxErrorsShown = 3;
function errorMessage(errors: readonly string[]): string {
  return errors.slice(0, maxErrorsShown).join(', ') + (errors.length > maxErrorsShown ? '...' : '');
}

const failure = (errors: string[]) => ({ ok: false as const, errors, message: errorMessage(errors) });

/**
 * Builds the rows to send: cells trimmed; contact type mapped case-insensitively to DJ, Label or Fan (anything
 * else or blank: Label); blank name, label and genre left out; blank rows ignored. Row N in errors is the
 * spreadsheet row (the header is row 1). Any error aborts the import.
 * Later rows repeating an email (case-insensitive) are always dropped, since the server keeps one contact per
 * email; `removeDuplicates` does not change the plan, it tells the caller whether to report them
 * (off: they count as 'duplicates skipped'; on: they go silently).
 */
export function planContactImport(
  table: CsvTable,
  options: { hasHeader: boolean; removeDuplicates: boolean; mapping: readonly ColumnField[] },
): { ok: true; plan: ImportPlan } | { ok: false; errors: string[]; message: string } {
  const first = options.hasHeader ? 1 : 0;
  const dataRows = table.rows
    .map((cells, index) => ({ cells: cells.map((cell) => cell.trim()), rowNumber: table.rowNumbers[index] ?? index + 1 }))
    .slice(first)
    .filter((row) => row.cells.some((cell) => cell !== ''));
  if (dataRows.length === 0) return failure([csvMessages.noRows]);
  if (dataRows.length > contactLimits.csvMaxRows) return failure([csvMessages.tooMany]);

  const columnOf = (field: ColumnField) => options.mapping.indexOf(field);
  const emailColumn = columnOf('email');
  if (emailColumn < 0) return failure([csvMessages.noEmailColumn]);
  const typeColumn = columnOf('contact_type');

  const errors: string[] = [];
  const contacts: CsvContact[] = [];
  const seen = new Set<string>();
  let inFileDuplicates = 0;
  for (const { cells, rowNumber } of dataRows) {
    const cell = (column: number) => (column < 0 ? '' : (cells[column] ?? ''));
    const email = cell(emailColumn);
    if (email === '') {
      errors.push(csvMessages.missingEmail(rowNumber));
      continue;
    }
    const emailError = contactEmailError(email);
    if (emailError !== null) {
      errors.push(emailError === characterMessages.invisibleInEmail ? csvMessages.invisibleInEmail(rowNumber) : csvMessages.invalidEmail(rowNumber, email));
      continue;
    }
    if (email.length > contactLimits.email) {
      errors.push(csvMessages.tooLong(rowNumber, 'Email'));
      continue;
    }
    const contact: CsvContact = { email, contact_type: contactTypeOf(cell(typeColumn)) };
    for (const { field, limit, label } of optionalFields) {
      const value = cell(columnOf(field));
      if (value.length > limit) errors.push(csvMessages.tooLong(rowNumber, label));
      else if (hasNulOrLoneSurrogate(value)) errors.push(csvMessages.cannotStore(rowNumber, label));
      else if (value !== '') contact[field] = value;
    }
    const key = normaliseEmail(email);
    if (seen.has(key)) {
      inFileDuplicates += 1;
      continue;
    }
    seen.add(key);
    contacts.push(contact);
  }
  if (errors.length > 0) return failure(errors);
  return { ok: true, plan: { contacts, inFileDuplicates, rowCount: dataRows.length } };
}
