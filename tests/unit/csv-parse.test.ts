/** The CSV reader (schema/csv/parse.ts) shared by the contacts import and the admin directory import. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCsvBytes, parseCsv } from '../../schema/csv/parse';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/csv/${name}`, import.meta.url), 'utf8');
const fixtureBytes = (name: string) => readFileSync(new URL(`../fixtures/csv/${name}`, import.meta.url));

function rowsOf(text: string) {
  const result = parseCsv(text);
  if (!result.ok) throw new Error(`expected a table, got: ${result.error}`);
  return result.table;
}

describe('parseCsv: delimiters', () => {
  it.each([
    ['comma', 'email,name\na@x.com,Ann\n', ','],
    ['semicolon', 'email;name\na@x.com;Ann\n', ';'],
    ['tab', 'email\tname\na@x.com\tAnn\n', '\t'],
  ])('detects the %s delimiter', (_, text, delimiter) => {
    expect(rowsOf(text)).toEqual({
      rows: [
        ['email', 'name'],
        ['a@x.com', 'Ann'],
      ],
      rowNumbers: [1, 2],
      delimiter,
    });
  });

  it('prefers the delimiter with a steady column count over one inside the cells (decimal commas, genre lists)', () => {
    const table = rowsOf('email;genre;rating\na@x.com;House, Disco;4,5\nb@x.com;Techno;3,0\n');
    expect(table.delimiter).toBe(';');
    expect(table.rows[1]).toEqual(['a@x.com', 'House, Disco', '4,5']);
  });

  it('detects the delimiter however many blank lines the file has: they are not rows of one column', () => {
    expect(rowsOf('email;name\n\n\na@x.com;Ann\n\n')).toEqual({
      rows: [
        ['email', 'name'],
        ['a@x.com', 'Ann'],
      ],
      rowNumbers: [1, 4],
      delimiter: ';',
    });
    expect(rowsOf('email\tname\r\na@x.com\tAnn\r\n\r\n\r\n').delimiter).toBe('\t');
    const table = rowsOf('email;genre;rating\n\n\n\na@x.com;House, Disco;4,5\n');
    expect(table).toMatchObject({ delimiter: ';', rowNumbers: [1, 5] });
    expect(table.rows[1]).toEqual(['a@x.com', 'House, Disco', '4,5']);
  });

  it('reads a one-column file (nothing to detect) as one cell per row, not as an error', () => {
    expect(rowsOf('email\na@x.com\nb@x.com')).toEqual({ rows: [['email'], ['a@x.com'], ['b@x.com']], rowNumbers: [1, 2, 3], delimiter: ',' });
  });

  it("takes the delimiter from Excel's 'sep=' first line and drops that line", () => {
    expect(rowsOf('sep=;\r\nemail;name\r\na@x.com;Smith, Ann\r\n')).toEqual({
      rows: [
        ['email', 'name'],
        ['a@x.com', 'Smith, Ann'],
      ],
      rowNumbers: [1, 2],
      delimiter: ';',
    });
    expect(rowsOf('\uFEFFsep=\t\nemail\tname\na@x.com\tAnn').rows).toEqual([
      ['email', 'name'],
      ['a@x.com', 'Ann'],
    ]);
  });
});

describe('parseCsv: quoting, line ends, blank lines', () => {
  it('keeps delimiters, doubled quotes and line breaks inside quoted cells', () => {
    const table = rowsOf('email,notes\na@x.com,"Says ""hi"", then\nleaves"\nb@x.com,plain\n');
    expect(table.rows).toEqual([
      ['email', 'notes'],
      ['a@x.com', 'Says "hi", then\nleaves'],
      ['b@x.com', 'plain'],
    ]);
  });

  it.each([
    ['CRLF', '\r\n'],
    ['LF', '\n'],
    ['CR (old Mac)', '\r'],
  ])('splits rows on %s', (_, newline) => {
    expect(rowsOf(['email,name', 'a@x.com,Ann', 'b@x.com,Bob'].join(newline)).rows).toEqual([
      ['email', 'name'],
      ['a@x.com', 'Ann'],
      ['b@x.com', 'Bob'],
    ]);
  });

  it('keeps a bare LF inside a quoted cell of a CRLF file (Excel Alt+Enter)', () => {
    expect(rowsOf('email,name\r\na@x.com,"Ann\nSmith"\r\nb@x.com,Bob\r\n').rows).toEqual([
      ['email', 'name'],
      ['a@x.com', 'Ann\nSmith'],
      ['b@x.com', 'Bob'],
    ]);
  });

  it('strips a UTF-8 byte order mark so the first header is clean', () => {
    expect(rowsOf('\uFEFFEmail,Name\na@x.com,Ann').rows[0]).toEqual(['Email', 'Name']);
  });

  it('skips blank lines and lines of only delimiters and spaces, anywhere in the file', () => {
    expect(rowsOf('email,name\n\na@x.com,Ann\n , \n,,\nb@x.com,Bob\n\n\n')).toEqual({
      rows: [
        ['email', 'name'],
        ['a@x.com', 'Ann'],
        ['b@x.com', 'Bob'],
      ],
      rowNumbers: [1, 3, 6],
      delimiter: ',',
    });
  });

  it('trims nothing: callers decide', () => {
    expect(rowsOf('email,name\n a@x.com , Ann \n').rows[1]).toEqual([' a@x.com ', ' Ann ']);
  });

  it('returns no rows for empty text', () => {
    expect(rowsOf('')).toMatchObject({ rows: [], rowNumbers: [] });
  });
});

describe('parseCsv: row numbers (what a spreadsheet shows, so errors can name the row)', () => {
  const numbersOf = (text: string) => rowsOf(text).rowNumbers;

  it('numbers records from 1, counting the blank ones it skips', () => {
    expect(numbersOf('email\na@x.com\n\n\nb@x.com\n \nc@x.com')).toEqual([1, 2, 5, 7]);
    expect(numbersOf('\n\nemail\na@x.com')).toEqual([3, 4]);
  });

  it('gives a record of only delimiters and spaces a number too, but no row', () => {
    const table = rowsOf('email,name\n,,\n , \na@x.com,Ann\n');
    expect(table.rows).toEqual([
      ['email', 'name'],
      ['a@x.com', 'Ann'],
    ]);
    expect(table.rowNumbers).toEqual([1, 4]);
  });

  it('counts a quoted cell with line breaks as one record: one number', () => {
    const table = rowsOf('email,notes\na@x.com,"line one\nline two\nline three"\n\nb@x.com,plain\n');
    expect(table.rows).toEqual([
      ['email', 'notes'],
      ['a@x.com', 'line one\nline two\nline three'],
      ['b@x.com', 'plain'],
    ]);
    expect(table.rowNumbers).toEqual([1, 2, 4]);
  });

  it('gives trailing blank lines no number and no row', () => {
    for (const text of ['email\na@x.com\n\n\n', 'email\r\na@x.com\r\n\r\n\r\n', 'email\na@x.com\n  \n\t\n']) {
      expect(rowsOf(text), JSON.stringify(text)).toMatchObject({ rows: [['email'], ['a@x.com']], rowNumbers: [1, 2] });
    }
  });

  it.each([
    ['CRLF', '\r\n'],
    ['LF', '\n'],
    ['CR (old Mac)', '\r'],
  ])('counts blank lines the same with %s line ends', (_, newline) => {
    expect(numbersOf(['email,name', '', 'a@x.com,Ann', '', '', 'b@x.com,Bob'].join(newline))).toEqual([1, 3, 6]);
  });

  it("does not count Excel's 'sep=' line (Excel hides it): the header is row 1", () => {
    const table = rowsOf('sep=;\r\nemail;name\r\n\r\na@x.com;Ann\r\n');
    expect(table).toEqual({
      rows: [
        ['email', 'name'],
        ['a@x.com', 'Ann'],
      ],
      rowNumbers: [1, 3],
      delimiter: ';',
    });
  });

  it('is not moved by a byte order mark, with or without a sep= line', () => {
    expect(numbersOf('\uFEFFemail,name\n\na@x.com,Ann')).toEqual([1, 3]);
    expect(numbersOf('\uFEFFsep=,\nemail,name\n\na@x.com,Ann')).toEqual([1, 3]);
  });

  it('names the same row number in a quote error, blank lines included', () => {
    expect(parseCsv('email,name\n\na@x.com,"Ann\nb@x.com,Bob\n')).toEqual({ ok: false, error: 'Quoted field unterminated (row 3)' });
  });
});

describe('parseCsv: unreadable input', () => {
  it('fails on an unterminated quote instead of swallowing the rest of the file into one cell', () => {
    const result = parseCsv('email,name\na@x.com,"Ann\nb@x.com,Bob\n');
    expect(result).toEqual({ ok: false, error: 'Quoted field unterminated (row 2)' });
  });

  it('fails on a malformed closing quote', () => {
    expect(parseCsv('email,name\na@x.com,"Ann" Smith\nb@x.com,Bob\n').ok).toBe(false);
  });

  it('fails on binary content (a spreadsheet or UTF-16 file named .csv)', () => {
    const utf16ReadAsUtf8 = 'e\u0000m\u0000a\u0000i\u0000l\u0000\n\u0000';
    expect(parseCsv(utf16ReadAsUtf8)).toEqual({ ok: false, error: 'The file contains binary data, not text.' });
    expect(parseCsv('PK\u0003\u0004\u0014\u0000\u0006\u0000[Content_Types].xml').ok).toBe(false);
  });

  it('reads quotes inside an unquoted cell literally', () => {
    expect(rowsOf('email,name\na@x.com,Ann "DJ A" Smith\n').rows[1]).toEqual(['a@x.com', 'Ann "DJ A" Smith']);
  });
});

describe('parseCsv: real exports (tests/fixtures/csv)', () => {
  it('Excel "CSV UTF-8": BOM, CRLF, quoted cells with commas, quotes and an Alt+Enter line break', () => {
    const text = fixture('excel-csv-utf8.csv');
    expect(text.startsWith('\uFEFF') && text.includes('\r\n')).toBe(true);
    expect(rowsOf(text)).toEqual({
      delimiter: ',',
      rows: [
        ['Name', 'Email', 'Label', 'Type', 'Genre', 'Notes'],
        ['Anna Berg', 'anna@nightshift-records.com', 'Nightshift Records', 'Label', 'Techno, Minimal', ''],
        ['DJ Kappa', 'kappa@djmail.net', '', 'dj', 'House', 'Plays "Fabric" on Fridays'],
        ['Berg, Jonas', 'jonas@lowfreq.co.uk', 'Low Frequency', 'FAN', 'Drum & Bass', 'Met at ADE\nfollow up in May'],
        [' Lena Ortiz ', '  LENA@Ortiz-Music.com ', 'Ortiz Music', 'Promoter', 'Disco', ''],
      ],
      // The Alt+Enter cell spans two lines of the file but is one spreadsheet row.
      rowNumbers: [1, 2, 3, 4, 5],
    });
  });

  it('Excel in a European locale: semicolons, decimal commas left unquoted', () => {
    expect(rowsOf(fixture('excel-european-semicolon.csv'))).toEqual({
      delimiter: ';',
      rows: [
        ['E-mail', 'Contact Name', 'Company', 'Type', 'Music Style', 'Rating'],
        ['marie@labelbleu.fr', 'Marie Dubois', 'Label Bleu', 'Label', 'Deep House, Afro House', '4,5'],
        ['k.schmidt@tresor-berlin.de', 'Klaus Schmidt', 'Tresor', 'DJ', 'Techno', '3,0'],
        ['piet@rotterdam-beats.nl', 'Piet de Vries', '', 'Fan', '', '2,5'],
      ],
      rowNumbers: [1, 2, 3, 4],
    });
  });

  it("Google Sheets: LF, quotes only where needed, the sheet's empty rows and trailing blank lines dropped", () => {
    const text = fixture('google-sheets.csv');
    expect(text.includes('\r')).toBe(false);
    expect(rowsOf(text)).toEqual({
      delimiter: ',',
      rows: [
        ['Email', 'Name', 'Label Name', 'Contact Type', 'Genre'],
        ['sam@sunsetlabel.com', 'Sam Lee', 'Sunset Label', 'Label', 'Chillout, Downtempo'],
        ['ravi@bassline.in', 'Ravi Kumar', '', 'DJ', 'Bass'],
        ['noor@echoes.ae', 'Noor', 'Echoes', 'fan', ''],
      ],
      rowNumbers: [1, 2, 3, 4],
    });
  });

  it('tab-separated: commas in cells are plain text', () => {
    expect(rowsOf(fixture('tab-separated.csv'))).toEqual({
      delimiter: '\t',
      rows: [
        ['email', 'name', 'label', 'genre'],
        ['mo@warpwave.com', 'Mo Ali', 'Warp Wave', 'IDM, Electronica'],
        ['jude@soulcellar.com', 'Jude Park', 'Soul Cellar', 'Soul'],
      ],
      rowNumbers: [1, 2, 3],
    });
  });

  it('a quoted cell holding a comma and a line break stays one cell', () => {
    expect(rowsOf(fixture('quoted-comma-newline.csv')).rows).toEqual([
      ['Email', 'Name', 'Label/Company', 'Genre'],
      ['ella@northern.fm', 'Ella North', 'Northern Lights, Ltd.\nSub-label: Aurora', 'Ambient'],
      ['finn@coast.fm', 'Finn', 'Coast FM', 'Indie'],
    ]);
  });

  it('UTF-8 accents come through unchanged', () => {
    expect(rowsOf(fixture('accents-utf8.csv')).rows[1]).toEqual(['contact@cafe-records.fr', 'Zoë Lefèvre', 'Café Records', 'Électronique']);
  });

  it('a Mailchimp export keeps all 23 columns on every row', () => {
    const { rows } = rowsOf(fixture('mailchimp-export.csv'));
    expect(rows.map((row) => row.length)).toEqual([23, 23, 23, 23]);
    expect(rows[1]?.[22]).toBe('DJ,Techno');
  });

  it.each([
    ['header-only.csv', [['Email', 'Name', 'Label']]],
    ['empty.csv', []],
    ['whitespace-only.csv', []],
  ])('%s', (name, rows) => {
    expect(rowsOf(fixture(name)).rows).toEqual(rows);
  });
});

describe('decodeCsvBytes: the text of a file as it was saved', () => {
  const windows1252Rows = [
    ['Email', 'Name', 'Label', 'Genre'],
    ['contact@cafe-records.fr', 'Zoë Lefèvre', 'Café Records', 'Électronique'],
    ['jose@senorcoconut.cl', 'José Núñez', 'Señor Coconut', 'Cumbia'],
    ['bjorn@angstrom.se', 'Björn Ångström', 'Ångström Ljud', 'Ambient'],
    ['renee@euro-beats.example', 'Renée O\u2019Brien', 'Euro Beats, \u20AC5 Ltd.', 'House'],
  ];

  it('reads Excel\'s Windows "CSV (Comma delimited)" (Windows-1252) with its accents, curly quote and euro sign', () => {
    const bytes = fixtureBytes('excel-windows-1252.csv');
    // The fixture really is not UTF-8: read as UTF-8 its accents become replacement characters.
    expect(bytes.toString('utf8')).toContain('Zo\uFFFD Lef\uFFFDvre');
    const text = decodeCsvBytes(bytes);
    expect(text).not.toContain('\uFFFD');
    expect(rowsOf(text).rows).toEqual(windows1252Rows);
  });

  it('reads UTF-8 as UTF-8, from an ArrayBuffer or a Uint8Array: the same accents are two bytes each there', () => {
    const bytes = fixtureBytes('accents-utf8.csv');
    const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    expect(decodeCsvBytes(arrayBuffer)).toBe(fixture('accents-utf8.csv'));
    expect(decodeCsvBytes(new Uint8Array(bytes))).toBe(fixture('accents-utf8.csv'));
    expect(rowsOf(decodeCsvBytes(bytes)).rows[1]).toEqual(windows1252Rows[1]);
  });

  it('removes a UTF-8 byte order mark (Excel\'s "CSV UTF-8"), and one before bytes that are not UTF-8 too', () => {
    const excel = decodeCsvBytes(fixtureBytes('excel-csv-utf8.csv'));
    expect(excel.startsWith('\uFEFF')).toBe(false);
    expect(excel).toBe(fixture('excel-csv-utf8.csv').slice(1));
    const bomThenLatin1 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('email,name\r\nzoe@x.com,Zo\u00EB\r\n', 'latin1')]);
    expect(decodeCsvBytes(bomThenLatin1)).toBe('email,name\r\nzoe@x.com,Zo\u00EB\r\n');
  });

  it('maps the bytes 0x80-0x9F as Windows-1252 does (smart quotes, dashes, €), the five undefined ones to themselves', () => {
    const bytes = Uint8Array.from([0x80, 0x82, 0x8a, 0x91, 0x92, 0x93, 0x94, 0x96, 0x97, 0x99, 0x9f, 0x81, 0x8d, 0x8f, 0x90, 0x9d]);
    expect(decodeCsvBytes(bytes)).toBe('\u20AC\u201A\u0160\u2018\u2019\u201C\u201D\u2013\u2014\u2122\u0178\u0081\u008D\u008F\u0090\u009D');
  });

  it('gives plain ASCII and an empty file unchanged', () => {
    expect(decodeCsvBytes(Buffer.from('email\na@x.com\n', 'latin1'))).toBe('email\na@x.com\n');
    expect(decodeCsvBytes(new Uint8Array(0))).toBe('');
  });

  it('leaves a UTF-16 or binary file for parseCsv to refuse as binary (its NUL bytes survive decoding)', () => {
    const utf16 = Buffer.from('\uFEFFemail\na@x.com\n', 'utf16le');
    expect(parseCsv(decodeCsvBytes(utf16))).toEqual({ ok: false, error: 'The file contains binary data, not text.' });
  });
});
