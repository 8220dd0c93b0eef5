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
  const delimiter =
    separator?.[1] ?? Papa.parse<string[]>(input, { delimitersToGuess, skipEmptyLines: 'greedy', preview: 10 }).meta.delimiter;
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
