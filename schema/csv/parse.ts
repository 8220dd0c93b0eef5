import Papa from 'papaparse';

/**
 * The one CSV reader of the app (the contacts import in the browser, the admin directory import on the server).
 * Free of DOM APIs: it runs in the browser and in Node.
 */

/** A parsed CSV file: its non-blank rows of raw (untrimmed) cells, and the delimiter that was used. */
export interface CsvTable {
  rows: string[][];
  /**
   * Each row's record number in the file, from 1, blank records included: the row number a spreadsheet
   * shows, so an error can say 'Row 7' even when blank lines came before it.
   */
  rowNumbers: number[];
  delimiter: string;
}

/** Windows-1252 bytes 0x80-0x9F (the five it leaves undefined stay as they are). */
const windows1252Upper =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/**
 * The text of a CSV file's bytes. UTF-8 when the bytes are valid UTF-8 (Excel's "CSV UTF-8", Google
 * Sheets, Numbers, most tools); otherwise Windows-1252, the encoding of Excel's default "CSV (Comma
 * delimited)" on Windows in Western locales, whose accented letters are not valid UTF-8 ('Zoë' would
 * read as 'Zo\uFFFD'). A UTF-8 byte order mark is removed here (by either decoding), so the text never
 * starts with one; parseCsv still drops a BOM for callers that pass text they decoded themselves.
 */
export function decodeCsvBytes(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  try {
    // 'fatal' makes invalid UTF-8 throw instead of becoming U+FFFD; the default ignoreBOM: false drops a BOM.
    return new TextDecoder('utf-8', { fatal: true }).decode(view);
  } catch {
    const hasUtf8Bom = view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf;
    const text = new TextDecoder('windows-1252').decode(hasUtf8Bom ? view.subarray(3) : view);
    // Node 20's decoder reads bytes 0x80-0x9F as Latin-1 control characters instead of '€', '’', 'Š'…
    // (nodejs/node#56542). A correct decoder gives a control character there only for the five bytes
    // Windows-1252 leaves undefined, which the table maps to themselves: the same text either way.
    return text.replace(/[\u0080-\u009f]/g, (c) => windows1252Upper[c.charCodeAt(0) - 0x80] ?? c);
  }
}

/** A record of nothing but spaces (papaparse's 'greedy' blank: also a line of only delimiters). */
const isBlankRecord = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

const delimitersToGuess = [',', ';', '\t'];

/** Excel honours a first line 'sep=;' naming the delimiter; it is an instruction, not a row. */
const excelSeparatorLine = /^sep=([,;\t])\r?\n?/i;

/**
 * Parses CSV text: strips a UTF-8 BOM, detects the delimiter among ',' ';' '\t' (or takes it from an Excel
 * 'sep=' line), handles quoted fields containing delimiters, quotes and newlines, CRLF/LF/CR line ends, skips
 * blank lines (also lines of only delimiters and spaces) and trims nothing (callers trim cells).
 * Fails on unbalanced quotes (the rest of the file would silently become one cell) and on binary content
 * (a spreadsheet or UTF-16 file saved under a .csv name). A file of one column has no delimiter to detect;
 * it reads as ',' and is not an error.
 */
export function parseCsv(text: string): { ok: true; table: CsvTable } | { ok: false; error: string } {
  if (text.includes('\u0000')) return { ok: false, error: 'The file contains binary data, not text.' };
  // papaparse drops a BOM too, but only after the 'sep=' line has been looked for here.
  let input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const separator = excelSeparatorLine.exec(input);
  if (separator) input = input.slice(separator[0].length);

  // papaparse's guess compares column counts across records; blank records (one empty cell each, a trailing
  // newline included) must not take part, or a two-column ';' file reads as one ',' column. So guess with them
  // skipped, then parse with them kept: dropped below, so each kept row keeps its record number.
  const delimiter = separator?.[1] ?? Papa.parse<string[]>(input, { delimitersToGuess, skipEmptyLines: 'greedy', preview: 10 }).meta.delimiter;
  const result = Papa.parse<string[]>(input, { delimiter, skipEmptyLines: false });
  const quoteError = result.errors.find((error) => error.type === 'Quotes');
  if (quoteError) {
    // papaparse counts records from 0; people count rows from 1.
    const row = quoteError.row === undefined ? '' : ` (row ${quoteError.row + 1})`;
    return { ok: false, error: `${quoteError.message}${row}` };
  }
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  result.data.forEach((cells, index) => {
    if (isBlankRecord(cells)) return;
    rows.push(cells);
    rowNumbers.push(index + 1);
  });
  return { ok: true, table: { rows, rowNumbers, delimiter: result.meta.delimiter } };
}

/** CSV text of rows (quoted where a cell needs it, CRLF line ends), the inverse of parseCsv. */
export function formatCsv(rows: readonly (readonly string[])[], delimiter = ','): string {
  return Papa.unparse(rows as string[][], { delimiter, newline: '\r\n' });
}
