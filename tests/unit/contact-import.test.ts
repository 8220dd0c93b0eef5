/** The contacts CSV import's parse-and-map rules (schema/csv/contactImport.ts): spec §5 CSV rules and §8 CSV texts. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csvContactSchema, type CsvContact } from '../../schema/api/contacts';
import {
  checkCsvFile,
  columnFieldLabels,
  columnFields,
  columnHeadings,
  csvMessages,
  guessMapping,
  mappingStatus,
  planContactImport,
  previewRows,
  readContactsCsv,
  type ColumnField,
  type ImportPlan,
} from '../../schema/csv/contactImport';
import { decodeCsvBytes, type CsvTable } from '../../schema/csv/parse';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/csv/${name}`, import.meta.url), 'utf8');

function tableOf(text: string): CsvTable {
  const result = readContactsCsv(text);
  if (!result.ok) throw new Error(`expected a table, got: ${result.error}`);
  return result.table;
}

const table = (rows: string[][]): CsvTable => ({ rows, rowNumbers: rows.map((_, index) => index + 1), delimiter: ',' });

function plan(source: CsvTable, options: { hasHeader?: boolean; removeDuplicates?: boolean; mapping?: readonly ColumnField[] } = {}): ImportPlan {
  const hasHeader = options.hasHeader ?? true;
  const result = planContactImport(source, {
    hasHeader,
    removeDuplicates: options.removeDuplicates ?? true,
    mapping: options.mapping ?? guessMapping(source, hasHeader),
  });
  if (!result.ok) throw new Error(`expected a plan, got: ${result.message}`);
  // Whatever the plan sends must pass the server's contract unchanged.
  for (const contact of result.plan.contacts) expect(csvContactSchema.safeParse(contact).success).toBe(true);
  return result.plan;
}

function planErrors(source: CsvTable, options: { hasHeader?: boolean; mapping?: readonly ColumnField[] } = {}) {
  const hasHeader = options.hasHeader ?? true;
  const result = planContactImport(source, { hasHeader, removeDuplicates: true, mapping: options.mapping ?? guessMapping(source, hasHeader) });
  if (result.ok) throw new Error('expected the import to be refused');
  return { errors: result.errors, message: result.message };
}

/** The whole path a chosen file takes: text → table → guessed mapping → plan. */
const importFixture = (name: string, options: { hasHeader?: boolean; removeDuplicates?: boolean } = {}) => plan(tableOf(fixture(name)), options);

describe('texts (spec §5, §8)', () => {
  it('has the select options in order with their labels', () => {
    expect(columnFields.map((field) => columnFieldLabels[field])).toEqual([
      'Email Address *',
      'Name',
      'Label/Company',
      'Contact Type',
      'Genre',
      'Skip This Column',
    ]);
  });

  it('spells every CSV message as the spec does', () => {
    expect(csvMessages).toMatchObject({
      fileLabel: 'CSV File (Max 5MB, 5000 contacts)',
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
      issuesTitle: 'Import Issues',
      importFailed: 'Import failed: Failed to import contacts from CSV.',
      ready: 'Ready to import',
      mapEmail: 'Please map at least one column to "Email Address"',
      noNew: 'No new contacts',
      noNewDetail: 'All contacts in the CSV already exist.',
      nothingToImport: 'No contacts to import',
    });
    expect(csvMessages.missingEmail(7)).toBe('Row 7: Missing email address');
    expect(csvMessages.invalidEmail(3, 'bob@x')).toBe('Row 3: Invalid email format: bob@x');
    expect(csvMessages.success(12, 3)).toBe('Import successful! Imported 12 contacts successfully. 3 duplicates skipped.');
    expect(csvMessages.progress(100, 250)).toBe('Importing contacts... 100 of 250');
  });
});

describe('checkCsvFile', () => {
  const MB = 1024 * 1024;

  it.each([
    { name: 'contacts.csv', type: 'text/csv' },
    { name: 'CONTACTS.CSV', type: '' },
    { name: 'export.csv', type: 'application/vnd.ms-excel' },
    { name: 'export', type: 'text/csv' },
  ])('accepts $name ($type)', (file) => {
    expect(checkCsvFile({ ...file, size: 1000 })).toBeNull();
  });

  it.each([
    { name: 'contacts.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    { name: 'contacts.txt', type: 'text/plain' },
    { name: 'contacts.csv.pdf', type: 'application/pdf' },
  ])('refuses $name: Please select a CSV file.', (file) => {
    expect(checkCsvFile({ ...file, size: 1000 })).toEqual({ title: csvMessages.notCsvTitle, message: 'Please select a CSV file.' });
  });

  it('accepts exactly 5 MB and refuses one byte more: File too large', () => {
    expect(checkCsvFile({ name: 'a.csv', type: 'text/csv', size: 5 * MB })).toBeNull();
    expect(checkCsvFile({ name: 'a.csv', type: 'text/csv', size: 5 * MB + 1 })).toEqual({
      title: 'File too large',
      message: 'Maximum file size is 5MB.',
    });
  });
});

describe('readContactsCsv', () => {
  it.each([
    ['empty text', ''],
    ['whitespace only', ' \r\n\t\n  \n'],
    ['a BOM only', '\uFEFF'],
    ['only empty cells', ',,,\n,,\n'],
  ])('%s: CSV file is empty', (_, text) => {
    expect(readContactsCsv(text)).toEqual({ ok: false, error: 'CSV file is empty' });
  });

  it('an unparseable file: the format message', () => {
    expect(readContactsCsv('email,name\na@x.com,"Ann\n')).toEqual({ ok: false, error: "File format issue. Make sure it's a valid CSV file." });
    expect(readContactsCsv('PK\u0003\u0004\u0000\u0000')).toEqual({ ok: false, error: "File format issue. Make sure it's a valid CSV file." });
  });

  it('a readable file: its table', () => {
    expect(readContactsCsv('email\na@x.com')).toEqual({ ok: true, table: { rows: [['email'], ['a@x.com']], rowNumbers: [1, 2], delimiter: ',' } });
  });
});

describe('guessMapping from the header', () => {
  it.each<[string, ColumnField]>([
    ['Email', 'email'],
    ['E-mail', 'email'],
    ['Email Address', 'email'],
    ['  EMAIL  ', 'email'],
    ['Name', 'name'],
    ['Contact Name', 'name'],
    ['Label Name', 'label_name'],
    ['Company', 'label_name'],
    ['Company Name', 'label_name'],
    ['Label/Company', 'label_name'],
    ['Type', 'contact_type'],
    ['Contact Type', 'contact_type'],
    ['Genre', 'genre'],
    ['Music Style', 'genre'],
    ['Phone', 'skip'],
    ['Website', 'skip'],
    ['', 'skip'],
  ])('%j → %s', (header, field) => {
    expect(guessMapping(table([[header], ['x']]), true)).toEqual([field]);
  });

  it('gives each field to the first matching column only', () => {
    const headers = ['First Name', 'Email', 'Last Name', 'Email Type', 'Genre', 'Style'];
    expect(guessMapping(table([headers]), true)).toEqual(['name', 'email', 'skip', 'skip', 'genre', 'skip']);
  });

  it('reads the header, not the content, when the file has one', () => {
    expect(
      guessMapping(
        table([
          ['Contact', 'Who'],
          ['a@x.com', 'Ann'],
        ]),
        true,
      ),
    ).toEqual(['skip', 'skip']);
  });
});

describe('guessMapping without a header', () => {
  it('maps the first column whose non-blank cells all look like emails', () => {
    const rows = [
      ['Ann', 'not an email', 'a@x.com', 'z@x.com'],
      ['Bob', 'b@x.com', ' b@x.com ', 'y@x.com'],
      ['Cy', 'c@x.com', '', 'x@x.com'],
    ];
    expect(guessMapping(table(rows), false)).toEqual(['skip', 'skip', 'email', 'skip']);
  });

  it('reads only the first 6 rows', () => {
    const rows = [...Array.from({ length: 6 }, (_, i) => [`p${i}@x.com`]), ['not an email']];
    expect(guessMapping(table(rows), false)).toEqual(['email']);
    expect(guessMapping(table([['not an email'], ...rows]), false)).toEqual(['skip']);
  });

  it('maps nothing when no column holds emails, or a column is blank', () => {
    expect(
      guessMapping(
        table([
          ['Ann', ''],
          ['Bob', ''],
        ]),
        false,
      ),
    ).toEqual(['skip', 'skip']);
  });
});

describe('columnHeadings, previewRows, mappingStatus', () => {
  const source = table([
    ['Email', '', 'Name'],
    ['a@x.com', '1', 'Ann'],
    ['b@x.com', '2'],
    ['c@x.com', '3', 'Cy'],
    ['d@x.com', '4', 'Di'],
    ['e@x.com', '5', 'Ed'],
    ['f@x.com', '6', 'Flo'],
  ]);

  it('headings: header cells (blank ones numbered), or Column 1...', () => {
    expect(columnHeadings(source, true)).toEqual(['Email', 'Column 2', 'Name']);
    expect(columnHeadings(source, false)).toEqual(['Column 1', 'Column 2', 'Column 3']);
  });

  it('has a column for the widest row', () => {
    const ragged = table([['Email'], ['a@x.com', 'extra']]);
    expect(columnHeadings(ragged, true)).toEqual(['Email', 'Column 2']);
    expect(guessMapping(ragged, true)).toEqual(['email', 'skip']);
  });

  it('previews 5 data rows after the header, each a cell per column', () => {
    expect(previewRows(source, true)).toEqual([
      ['a@x.com', '1', 'Ann'],
      ['b@x.com', '2', ''],
      ['c@x.com', '3', 'Cy'],
      ['d@x.com', '4', 'Di'],
      ['e@x.com', '5', 'Ed'],
    ]);
    expect(previewRows(source, false)[0]).toEqual(['Email', '', 'Name']);
    expect(previewRows(source, false)).toHaveLength(5);
    expect(previewRows(table([['Email'], ['a@x.com']]), true)).toEqual([['a@x.com']]);
  });

  it('is ready once a column is mapped to email', () => {
    expect(mappingStatus(['skip', 'email'])).toEqual({ ready: true, message: 'Ready to import' });
    expect(mappingStatus(['name', 'skip'])).toEqual({ ready: false, message: 'Please map at least one column to "Email Address"' });
    expect(mappingStatus([])).toEqual({ ready: false, message: 'Please map at least one column to "Email Address"' });
  });
});

describe('planContactImport: rows to contacts', () => {
  const mapping: ColumnField[] = ['email', 'name', 'label_name', 'contact_type', 'genre'];

  it('trims every cell and leaves out blank optional fields', () => {
    const source = table([
      ['Email', 'Name', 'Label', 'Type', 'Genre'],
      ['  ann@x.com ', ' Ann ', '   ', ' dj ', '\tHouse '],
    ]);
    expect(plan(source, { mapping }).contacts).toEqual([{ email: 'ann@x.com', name: 'Ann', contact_type: 'DJ', genre: 'House' }]);
  });

  it.each([
    ['dj', 'DJ'],
    ['DJ', 'DJ'],
    ['Dj', 'DJ'],
    ['label', 'Label'],
    ['LABEL', 'Label'],
    ['fan', 'Fan'],
    ['Fan', 'Fan'],
    ['Promoter', 'Label'],
    ['', 'Label'],
  ])('maps contact type %j to %s', (text, type) => {
    const source = table([
      ['Email', 'Type'],
      ['a@x.com', text],
    ]);
    expect(plan(source, { mapping: ['email', 'contact_type'] }).contacts[0]?.contact_type).toBe(type);
  });

  it('defaults the type to Label when no column is mapped to it, and imports only the mapped columns', () => {
    const source = table([
      ['Email', 'Name', 'Notes'],
      ['a@x.com', 'Ann', 'ignored'],
    ]);
    expect(plan(source, { mapping: ['email', 'skip', 'skip'] }).contacts).toEqual([{ email: 'a@x.com', contact_type: 'Label' }]);
  });

  it('reads a row shorter than the header as blanks', () => {
    const source = table([['Email', 'Name', 'Genre'], ['a@x.com']]);
    expect(plan(source, { mapping: ['email', 'name', 'genre'] }).contacts).toEqual([{ email: 'a@x.com', contact_type: 'Label' }]);
  });

  it('without a header the first row is data', () => {
    const source = table([
      ['a@x.com', 'Ann'],
      ['b@x.com', 'Bob'],
    ]);
    expect(plan(source, { hasHeader: false }).contacts).toEqual([
      { email: 'a@x.com', contact_type: 'Label' },
      { email: 'b@x.com', contact_type: 'Label' },
    ]);
    expect(plan(source, { hasHeader: false, mapping: ['email', 'name'] }).rowCount).toBe(2);
  });

  it('ignores rows whose cells are all blank', () => {
    const source = table([
      ['Email', 'Name'],
      ['a@x.com', 'Ann'],
      [' ', '  '],
      ['', ''],
      ['b@x.com', 'Bob'],
    ]);
    const result = plan(source, { mapping: ['email', 'name'] });
    expect(result.contacts.map((contact) => contact.email)).toEqual(['a@x.com', 'b@x.com']);
    expect(result.rowCount).toBe(2);
  });
});

describe('planContactImport: duplicate emails in the file', () => {
  const source = table([
    ['Email', 'Name'],
    ['ann@x.com', 'Ann'],
    ['bob@x.com', 'Bob'],
    [' ANN@X.com ', 'Ann again'],
    ['Bob@X.COM', 'Bob again'],
    ['ann@x.com', 'Ann third'],
  ]);
  const expected = {
    contacts: [
      { email: 'ann@x.com', name: 'Ann', contact_type: 'Label' },
      { email: 'bob@x.com', name: 'Bob', contact_type: 'Label' },
    ],
    inFileDuplicates: 3,
    rowCount: 5,
  };

  it('keeps the first row of each email (case-insensitive) and counts the rest, with remove-duplicates on', () => {
    expect(plan(source, { removeDuplicates: true })).toEqual(expected);
  });

  // The server keeps one per email anyway.
  it('sends one row per email with remove-duplicates off too, and counts the repeats for the UI', () => {
    expect(plan(source, { removeDuplicates: false })).toEqual(expected);
  });
});

describe('planContactImport: errors', () => {
  it('No data rows found in CSV: a header and nothing else', () => {
    expect(planErrors(table([['Email', 'Name']]))).toEqual({ errors: ['No data rows found in CSV'], message: 'No data rows found in CSV' });
    expect(planErrors(table([['Email'], [' ', ''], ['']]))).toEqual({ errors: ['No data rows found in CSV'], message: 'No data rows found in CSV' });
    expect(planErrors(table([]), { hasHeader: false, mapping: [] }).errors).toEqual(['No data rows found in CSV']);
  });

  const emails = (count: number) => [['Email'], ...Array.from({ length: count }, (_, i) => [`person${i}@example.com`])];

  it('5000 data rows are accepted', () => {
    const result = plan(table(emails(5000)));
    expect(result.contacts).toHaveLength(5000);
    expect(result.rowCount).toBe(5000);
  });

  it('5001 data rows: Too many contacts', () => {
    expect(planErrors(table(emails(5001)))).toEqual({
      errors: ['Too many contacts. Maximum 5000 per import allowed.'],
      message: 'Too many contacts. Maximum 5000 per import allowed.',
    });
  });

  it('5000 rows without a header are accepted; the header does not count as a row', () => {
    expect(plan(table(emails(5000).slice(1)), { hasHeader: false, mapping: ['email'] }).contacts).toHaveLength(5000);
    expect(plan(table(emails(5000)), { hasHeader: true, mapping: ['email'] }).contacts).toHaveLength(5000);
  });

  it('No email column mapped', () => {
    expect(planErrors(table([['Name'], ['Ann']]), { mapping: ['name'] })).toEqual({
      errors: ['No email column mapped'],
      message: 'No email column mapped',
    });
  });

  it('names spreadsheet rows: the header is row 1, and the blank lines the reader skips still count', () => {
    const text = 'Email\na@x.com\n\nnot-an-email\n';
    expect(planErrors(tableOf(text), { mapping: ['email'] }).errors).toEqual(['Row 4: Invalid email format: not-an-email']);
    expect(planErrors(tableOf(text.replace('Email\n', '')), { hasHeader: false, mapping: ['email'] }).errors).toEqual([
      'Row 3: Invalid email format: not-an-email',
    ]);
  });

  it('Row 5: Missing email address when records 3 and 4 are blank', () => {
    const source = tableOf('Email,Name\na@x.com,Ann\n\n , \n,Eve\n');
    expect(source.rows).toHaveLength(3);
    expect(planErrors(source)).toEqual({ errors: ['Row 5: Missing email address'], message: 'Row 5: Missing email address' });
  });

  it('takes each row number from the table, not from its position among the kept rows', () => {
    const source: CsvTable = { rows: [['Email'], [' '], ['bad'], ['ok@x.com'], ['worse@']], rowNumbers: [1, 4, 9, 12, 20], delimiter: ',' };
    expect(planErrors(source).errors).toEqual(['Row 9: Invalid email format: bad', 'Row 20: Invalid email format: worse@']);
  });

  it('counts a cell with a line break as one row, and not the hidden sep= line', () => {
    const multiline = tableOf('Email,Name\r\nann@x.com,"Ann\nSmith"\r\n\r\nbad,Bob\r\n');
    expect(planErrors(multiline).errors).toEqual(['Row 4: Invalid email format: bad']);
    const excel = tableOf('\uFEFFsep=;\r\nEmail;Name\r\n\r\n;Bob\r\n');
    expect(planErrors(excel).errors).toEqual(['Row 3: Missing email address']);
  });

  it('Missing email address for a row with other cells but no email', () => {
    const source = table([
      ['Email', 'Name'],
      ['a@x.com', 'Ann'],
      ['  ', 'Bob'],
    ]);
    expect(planErrors(source).errors).toEqual(['Row 3: Missing email address']);
  });

  it.each(['bob', 'bob@x', '@x.com', 'bob@.com', 'bob x@y.com', 'a@b@c.com', 'bob@x.'])('Invalid email format: %s', (email) => {
    expect(planErrors(table([['Email'], [email]])).errors).toEqual([`Row 2: Invalid email format: ${email}`]);
  });

  it('shows the trimmed value in the invalid-email error', () => {
    expect(planErrors(table([['Email'], ['  bob@x  ']])).errors).toEqual(['Row 2: Invalid email format: bob@x']);
  });

  it('refuses values longer than the contract allows', () => {
    const source = table([
      ['Email', 'Name', 'Label', 'Genre'],
      [`${'a'.repeat(250)}@x.com`, 'Ann', '', ''],
      ['b@x.com', 'n'.repeat(201), 'l'.repeat(201), 'g'.repeat(301)],
      ['c@x.com', 'n'.repeat(200), 'l'.repeat(200), 'g'.repeat(300)],
    ]);
    expect(planErrors(source).errors).toEqual([
      'Row 2: Email is too long',
      'Row 3: Name is too long',
      'Row 3: Label/Company is too long',
      'Row 3: Genre is too long',
    ]);
  });

  it('any error aborts: nothing is planned, every error listed, the first 3 shown followed by "..."', () => {
    const source = table([
      ['Email', 'Name'],
      ['ok@x.com', 'A'],
      ['', 'B'],
      ['bad', 'C'],
      ['ok2@x.com', 'D'],
      ['worse@', 'E'],
      ['', 'F'],
    ]);
    expect(planErrors(source)).toEqual({
      errors: ['Row 3: Missing email address', 'Row 4: Invalid email format: bad', 'Row 6: Invalid email format: worse@', 'Row 7: Missing email address'],
      message: 'Row 3: Missing email address, Row 4: Invalid email format: bad, Row 6: Invalid email format: worse@...',
    });
  });

  it('a row with no cell filled in is not a missing email', () => {
    const source = table([['Email'], ['ok@x.com'], [''], ['bad']]);
    expect(planErrors(source).errors).toEqual(['Row 4: Invalid email format: bad']);
  });

  it('exactly 3 errors: no "..."', () => {
    const source = table([['Email'], ['a'], ['b'], ['c']]);
    expect(planErrors(source).message).toBe('Row 2: Invalid email format: a, Row 3: Invalid email format: b, Row 4: Invalid email format: c');
  });
});

describe('real exports, end to end (tests/fixtures/csv)', () => {
  it('Excel "CSV UTF-8" (BOM, CRLF, quoted cells)', () => {
    const source = tableOf(fixture('excel-csv-utf8.csv'));
    expect(guessMapping(source, true)).toEqual(['name', 'email', 'label_name', 'contact_type', 'genre', 'skip']);
    expect(plan(source)).toEqual<ImportPlan>({
      contacts: [
        { email: 'anna@nightshift-records.com', name: 'Anna Berg', label_name: 'Nightshift Records', contact_type: 'Label', genre: 'Techno, Minimal' },
        { email: 'kappa@djmail.net', name: 'DJ Kappa', contact_type: 'DJ', genre: 'House' },
        { email: 'jonas@lowfreq.co.uk', name: 'Berg, Jonas', label_name: 'Low Frequency', contact_type: 'Fan', genre: 'Drum & Bass' },
        { email: 'LENA@Ortiz-Music.com', name: 'Lena Ortiz', label_name: 'Ortiz Music', contact_type: 'Label', genre: 'Disco' },
      ],
      inFileDuplicates: 0,
      rowCount: 4,
    });
  });

  it('Excel European locale (semicolons)', () => {
    const source = tableOf(fixture('excel-european-semicolon.csv'));
    expect(guessMapping(source, true)).toEqual(['email', 'name', 'label_name', 'contact_type', 'genre', 'skip']);
    expect(plan(source).contacts).toEqual<CsvContact[]>([
      { email: 'marie@labelbleu.fr', name: 'Marie Dubois', label_name: 'Label Bleu', contact_type: 'Label', genre: 'Deep House, Afro House' },
      { email: 'k.schmidt@tresor-berlin.de', name: 'Klaus Schmidt', label_name: 'Tresor', contact_type: 'DJ', genre: 'Techno' },
      { email: 'piet@rotterdam-beats.nl', name: 'Piet de Vries', contact_type: 'Fan' },
    ]);
  });

  it('Google Sheets (LF, minimal quoting, empty rows at the end)', () => {
    expect(importFixture('google-sheets.csv')).toEqual<ImportPlan>({
      contacts: [
        { email: 'sam@sunsetlabel.com', name: 'Sam Lee', label_name: 'Sunset Label', contact_type: 'Label', genre: 'Chillout, Downtempo' },
        { email: 'ravi@bassline.in', name: 'Ravi Kumar', contact_type: 'DJ', genre: 'Bass' },
        { email: 'noor@echoes.ae', name: 'Noor', label_name: 'Echoes', contact_type: 'Fan' },
      ],
      inFileDuplicates: 0,
      rowCount: 3,
    });
  });

  it('tab-separated', () => {
    expect(importFixture('tab-separated.csv').contacts).toEqual<CsvContact[]>([
      { email: 'mo@warpwave.com', name: 'Mo Ali', label_name: 'Warp Wave', contact_type: 'Label', genre: 'IDM, Electronica' },
      { email: 'jude@soulcellar.com', name: 'Jude Park', label_name: 'Soul Cellar', contact_type: 'Label', genre: 'Soul' },
    ]);
  });

  it('a quoted cell with a comma and a line break', () => {
    expect(importFixture('quoted-comma-newline.csv').contacts).toEqual<CsvContact[]>([
      { email: 'ella@northern.fm', name: 'Ella North', label_name: 'Northern Lights, Ltd.\nSub-label: Aurora', contact_type: 'Label', genre: 'Ambient' },
      { email: 'finn@coast.fm', name: 'Finn', label_name: 'Coast FM', contact_type: 'Label', genre: 'Indie' },
    ]);
  });

  it('Mailchimp export: Email Address and First Name mapped, the 21 other columns skipped, a repeated address dropped', () => {
    const source = tableOf(fixture('mailchimp-export.csv'));
    const mapping = guessMapping(source, true);
    expect(mapping.slice(0, 3)).toEqual(['email', 'name', 'skip']);
    expect(mapping.filter((field) => field !== 'skip')).toEqual(['email', 'name']);
    expect(plan(source, { mapping })).toEqual<ImportPlan>({
      contacts: [
        { email: 'oscar@deepgroove.com', name: 'Oscar', contact_type: 'Label' },
        { email: 'priya@mumbaibeats.in', name: 'Priya', contact_type: 'Label' },
      ],
      inFileDuplicates: 1,
      rowCount: 3,
    });
  });

  it('UTF-8 accents (Café Records)', () => {
    expect(importFixture('accents-utf8.csv').contacts).toEqual<CsvContact[]>([
      { email: 'contact@cafe-records.fr', name: 'Zoë Lefèvre', label_name: 'Café Records', contact_type: 'Label', genre: 'Électronique' },
      { email: 'jose@senorcoconut.cl', name: 'José Núñez', label_name: 'Señor Coconut', contact_type: 'Label', genre: 'Cumbia' },
      { email: 'bjorn@angstrom.se', name: 'Björn Ångström', label_name: 'Ångström Ljud', contact_type: 'Label', genre: 'Ambient' },
    ]);
  });

  it('Excel "CSV (Comma delimited)" on Windows (Windows-1252 bytes), read as the import panel reads a file', () => {
    const bytes = readFileSync(new URL('../fixtures/csv/excel-windows-1252.csv', import.meta.url));
    expect(plan(tableOf(decodeCsvBytes(bytes))).contacts).toEqual<CsvContact[]>([
      { email: 'contact@cafe-records.fr', name: 'Zoë Lefèvre', label_name: 'Café Records', contact_type: 'Label', genre: 'Électronique' },
      { email: 'jose@senorcoconut.cl', name: 'José Núñez', label_name: 'Señor Coconut', contact_type: 'Label', genre: 'Cumbia' },
      { email: 'bjorn@angstrom.se', name: 'Björn Ångström', label_name: 'Ångström Ljud', contact_type: 'Label', genre: 'Ambient' },
      { email: 'renee@euro-beats.example', name: 'Renée O\u2019Brien', label_name: 'Euro Beats, \u20AC5 Ltd.', contact_type: 'Label', genre: 'House' },
    ]);
  });

  it('only a header: No data rows found in CSV', () => {
    const source = tableOf(fixture('header-only.csv'));
    expect(columnHeadings(source, true)).toEqual(['Email', 'Name', 'Label']);
    expect(previewRows(source, true)).toEqual([]);
    expect(planErrors(source).errors).toEqual(['No data rows found in CSV']);
  });

  it.each(['empty.csv', 'whitespace-only.csv'])('%s: CSV file is empty', (name) => {
    expect(readContactsCsv(fixture(name))).toEqual({ ok: false, error: 'CSV file is empty' });
  });
});
