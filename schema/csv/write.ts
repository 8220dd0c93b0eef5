/**
 * CSV building (the web app's exports and the server's data export share it; no imports: both bundle it).
 *
 * - A document starts with a UTF-8 byte order mark, so Excel reads accents and other non-ASCII text
 *   as UTF-8 (other spreadsheet apps and CSV parsers skip it).
 * - RFC 4180: fields separated by commas, records by CRLF; a field containing a comma, a double quote,
 *   CR or LF is wrapped in double quotes, with inner quotes doubled.
 * - Formula neutralisation (DESIGN.md §5, OWASP "CSV injection"): a text cell starting with =, +, -, @
 *   or their fullwidth forms ＝ ＋ － ＠ (some spreadsheet apps read those as operators too), tab or CR
 *   gets a leading apostrophe so spreadsheet apps show it as text instead of running it. Numbers are
 *   written as numbers (a negative number is data, not a formula).
 */

export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const BOM = '\uFEFF';
const NEEDS_QUOTES = /[",\r\n]/;

/** Prefixes a formula-like text value with an apostrophe. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One cell as CSV text: neutralised, then quoted when needed. null/undefined become an empty field. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = neutraliseFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Describes one CSV column: its header and how to read the cell from a row object. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvCell;
}

/** A header line, then one line per row: one table of a CSV document. */
export function csvLines<T>(columns: readonly CsvColumn<T>[], rows: Iterable<T>): string[] {
  const lines = [columns.map((column) => csvCell(column.header)).join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvCell(column.value(row))).join(','));
  return lines;
}

/**
 * A CSV document of one or more tables (from csvLines): the BOM, then each table's lines, CRLF-separated,
 * with one empty line between tables (no trailing newline).
 */
export function csvDocument(...tables: readonly (readonly string[])[]): string {
  return BOM + tables.map((lines) => lines.join('\r\n')).join('\r\n\r\n');
}

/**
 * A whole CSV document from objects and column definitions: the BOM, the header line, then one line
 * per row, CRLF-separated (no trailing newline).
 */
export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: Iterable<T>): string {
  return csvDocument(csvLines(columns, rows));
}
