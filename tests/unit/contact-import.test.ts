/** The contacts CSV import's parse-and-map rules (schema/csv/contactImport.ts): spec §5 CSV rules and §8 CSV texts. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contactLimits, csvContactSchema, type CsvContact } from '../../schema/api/contacts';
import {
  checkCsvFile,
  columnFieldLabels,
  columnFields,
  columnHeadings,
  csvMessages,
  guessMapping,
  importStatus,
  planContactImport,
  preflightContactsCsv,
  previewRows,
  readContactsCsv,
  rowReasons,
  skippedRowsCsv,
  type ColumnField,
  type ImportPlan,
} from '../../schema/csv/contactImport';
import { decodeCsvBytes, parseCsv, type CsvTable } from '../../schema/csv/parse';

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
  if (!result.ok) throw new Error(`expected a plan, got: ${result.error}`);
  // Whatever the plan sends must pass the server's contract unchanged.
  for (const contact of result.plan.contacts) expect(csvContactSchema.safeParse(contact).success).toBe(true);
  return result.plan;
}

/** The problem of the whole file that plans nothing. */
function fileError(source: CsvTable, options: { hasHeader?: boolean; mapping?: readonly ColumnField[] } = {}): string {
  const hasHeader = options.hasHeader ?? true;
  const result = planContactImport(source, { hasHeader, removeDuplicates: true, mapping: options.mapping ?? guessMapping(source, hasHeader) });
  if (result.ok) throw new Error('expected the import to be refused');
  return result.error;
}

/** The reasons of the rows the plan skips, in file order. */
const skippedReasons = (source: CsvTable, options: { hasHeader?: boolean; mapping?: readonly ColumnField[] } = {}) =>
  plan(source, options).skipped.map((row) => row.reason);

/** A plan without the source rows of its contacts, to compare with what a test spells out. */
const withoutSources = ({ sources: _sources, ...rest }: ImportPlan) => rest;

/** The whole path a chosen file takes: text → table → guessed mapping → plan. */
const importFixture = (name: string, options: { hasHeader?: boolean; removeDuplicates?: boolean } = {}) => plan(tableOf(fixture(name)), options);

describe('texts (spec §5, §8)', () => {
  it('has the select options in order with their labels', () => {
    expect(columnFields.map((field) => columnFieldLabels[field])).toEqual([
      'Email Address *',
      'Name',
      'Label/Company',
      'Contact Type',
      'Position',
      'Genre',
      'Website',
      'Notes',
      'Time zone',
      'Add to Notes',
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
    // A header of just 'Type' says nothing about what it types (issue 25): see the cells test below.
    ['Type', 'skip'],
    ['Contact Type', 'contact_type'],
    ['contact_type', 'contact_type'],
    ['Genre', 'genre'],
    ['Music Style', 'genre'],
    ['Position', 'position'],
    ['Job Title', 'position'],
    ['Website', 'website_url'],
    ['Web Site', 'website_url'],
    ['URL', 'website_url'],
    ['Notes', 'notes'],
    ['Comments', 'notes'],
    ['Time zone', 'time_zone'],
    ['time_zone', 'time_zone'],
    ['TIMEZONE', 'time_zone'],
    ['TZ', 'time_zone'],
    ['Time zone offset', 'skip'],
    ['Country', 'add_to_notes'],
    ['City', 'add_to_notes'],
    ['Instagram', 'add_to_notes'],
    ['SoundCloud', 'add_to_notes'],
    ['SoundCloud URL', 'add_to_notes'],
    ['Spotify', 'add_to_notes'],
    ['E-mail 1 - Type', 'skip'],
    ['E-mail 1 - Value', 'email'],
    ['E-mail 1 - Label', 'skip'],
    ['Labels', 'skip'],
    ['Group Membership', 'skip'],
    ['Organization 1 - Name', 'label_name'],
    ['Organization 1 - Title', 'position'],
    ['Website 1 - Value', 'website_url'],
    ['Phone', 'skip'],
    ['', 'skip'],
  ])('%j → %s', (header, field) => {
    expect(guessMapping(table([[header], ['x']]), true)).toEqual([field]);
  });

  it('gives each field to the first matching column only', () => {
    const headers = ['First Name', 'Email', 'Last Name', 'Email Type', 'Genre', 'Style'];
    expect(guessMapping(table([headers]), true)).toEqual(['name', 'email', 'skip', 'skip', 'genre', 'skip']);
  });

  it("prefers 'Name' or 'Full Name' to 'First Name', and 'First Name' to 'Last Name', wherever they stand", () => {
    expect(guessMapping(table([['Last Name', 'First Name', 'Email', 'Full Name']]), true)).toEqual(['skip', 'skip', 'email', 'name']);
    expect(guessMapping(table([['Nickname', 'Last Name', 'First Name']]), true)).toEqual(['skip', 'skip', 'name']);
  });

  it("never takes Google's kind column ('E-mail 1 - Type') for the email, whichever comes first", () => {
    expect(
      guessMapping(
        table([
          ['E-mail 1 - Type', 'E-mail 1 - Value'],
          ['* Work', 'a@x.com'],
        ]),
        true,
      ),
    ).toEqual(['skip', 'email']);
    expect(
      guessMapping(
        table([
          ['E-mail 1 - Label', 'E-mail 1 - Value'],
          ['Work', 'a@x.com'],
        ]),
        true,
      ),
    ).toEqual(['skip', 'email']);
  });

  it('guesses the contact type from cells that are all DJ, Label or Fan, never from a header named Type alone', () => {
    const typed = table([
      ['Email', 'Type', 'Kind'],
      ['a@x.com', 'dj', 'Release'],
      ['b@x.com', 'Label', 'EP'],
      ['c@x.com', '', 'Single'],
    ]);
    expect(guessMapping(typed, true)).toEqual(['email', 'contact_type', 'skip']);
    const releaseTypes = table([
      ['Email', 'Type'],
      ['a@x.com', 'Work'],
    ]);
    expect(guessMapping(releaseTypes, true)).toEqual(['email', 'skip']);
    expect(guessMapping(table([['Email', 'Type']]), true)).toEqual(['email', 'skip']);
  });

  it('adds every notes-worthy column to the notes, not only the first', () => {
    expect(guessMapping(table([['Email', 'Country', 'Instagram', 'SoundCloud']]), true)).toEqual(['email', 'add_to_notes', 'add_to_notes', 'add_to_notes']);
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

describe('columnHeadings, previewRows, importStatus', () => {
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

  const status = (rows: string[][], mapping: ColumnField[]) =>
    importStatus(planContactImport(table(rows), { hasHeader: true, removeDuplicates: true, mapping }));

  it('is ready once a column is mapped to email and every row can be imported', () => {
    expect(status([['Email'], ['a@x.com']], ['email'])).toEqual({ type: 'success', message: 'Ready to import', canImport: true });
    expect(status([['Name'], ['Ann']], ['name'])).toEqual({ type: 'warning', message: 'Please map at least one column to "Email Address"', canImport: false });
    expect(status([['Name']], [])).toEqual({ type: 'error', message: 'No data rows found in CSV', canImport: false });
  });

  it('never says Ready to import while a row would be skipped: "29 ready, 1 will be skipped" (issue 25)', () => {
    const rows = [['Email'], ...Array.from({ length: 30 }, (_, i) => [i === 21 ? 'not-an-email' : `p${i}@x.com`])];
    expect(status(rows, ['email'])).toEqual({ type: 'warning', message: '29 ready, 1 will be skipped', canImport: true });
    expect(status([['Email'], ['bad'], ['']], ['email'])).toEqual({ type: 'error', message: 'No contacts to import', canImport: false });
  });
});

describe('preflightContactsCsv (issue 25)', () => {
  const emails = (count: number) => [['Email'], ...Array.from({ length: count }, (_, i) => [`person${i}@example.com`])];

  it('refuses a header-only file before the mapping step', () => {
    expect(preflightContactsCsv(tableOf(fixture('header-only.csv')))).toBe('No data rows found in CSV');
  });

  it('refuses more than 5000 data rows, and accepts 5000 under a header', () => {
    expect(preflightContactsCsv(table(emails(5001)))).toBe('Too many contacts. Maximum 5000 per import allowed.');
    expect(preflightContactsCsv(table(emails(5000)))).toBeNull();
    expect(preflightContactsCsv(table(emails(1)))).toBeNull();
  });
});

describe('skippedRowsCsv (issue 25)', () => {
  it('gives the skipped rows back as the file had them, plus a Reason column, in the file delimiter', () => {
    const source = tableOf('Email;Name;Country\r\nok@x.com;Ann;DE\r\nnot-an-email;"Bob; Jr";FR\r\n;Cy\r\n');
    const { skipped } = plan(source, { mapping: ['email', 'name', 'add_to_notes'] });
    const text = skippedRowsCsv(source, true, skipped);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const reread = parseCsv(text);
    expect(reread.ok && reread.table.delimiter).toBe(';');
    expect(reread.ok && reread.table.rows).toEqual([
      ['Email', 'Name', 'Country', 'Reason'],
      ['not-an-email', 'Bob; Jr', 'FR', 'Row 3: Invalid email format: not-an-email'],
      ['', 'Cy', '', 'Row 4: Missing email address'],
    ]);
  });

  it('numbers the columns of a file without a header', () => {
    const source = table([
      ['a@x.com', 'Ann'],
      ['bad', 'Bob'],
    ]);
    const { skipped } = plan(source, { hasHeader: false, mapping: ['email', 'name'] });
    const reread = parseCsv(skippedRowsCsv(source, false, skipped));
    expect(reread.ok && reread.table.rows).toEqual([
      ['Column 1', 'Column 2', 'Reason'],
      ['bad', 'Bob', 'Row 2: Invalid email format: bad'],
    ]);
  });
});

describe('planContactImport: every contact field (issue 25)', () => {
  it('imports position, website and notes, and appends each Add to Notes column as "Header: value"', () => {
    const source = table([
      ['Email', 'Position', 'Website', 'Notes', 'Country', 'Instagram', 'SoundCloud'],
      ['a@x.com', ' A&R ', 'label.com', 'Likes vinyl', 'Germany', '@deepcurrent', ''],
      ['b@x.com', '', '', '', 'France', '', 'soundcloud.com/b'],
    ]);
    expect(plan(source).contacts).toEqual([
      { email: 'a@x.com', contact_type: 'Label', position: 'A&R', website_url: 'label.com', notes: 'Likes vinyl\nCountry: Germany\nInstagram: @deepcurrent' },
      { email: 'b@x.com', contact_type: 'Label', notes: 'Country: France\nSoundCloud: soundcloud.com/b' },
    ]);
  });

  it('skips a row whose website is not a link, or whose notes grow past the limit', () => {
    const source = table([
      ['Email', 'Website', 'Notes', 'Country'],
      ['a@x.com', 'javascript:alert(1)', '', ''],
      ['b@x.com', '', 'n'.repeat(contactLimits.notes - 5), 'Germany'],
      ['c@x.com', 'https://label.com', 'n'.repeat(contactLimits.notes), ''],
    ]);
    expect(skippedReasons(source)).toEqual([`Row 2: ${rowReasons.invalidWebsite('javascript:alert(1)')}`, 'Row 3: Notes is too long']);
    expect(plan(source).contacts.map((contact) => contact.email)).toEqual(['c@x.com']);
  });
});

describe('planContactImport: the time zone column (issue 27 §2)', () => {
  it('imports a known zone, skips a row with an unknown one with its reason, and loses no other row', () => {
    const source = table([
      ['Email', 'Name', 'Time zone'],
      ['a@x.com', 'Ann', ' Europe/Berlin '],
      ['b@x.com', 'Bob', 'Mars/Olympus'],
      ['c@x.com', 'Cy', ''],
      ['d@x.com', 'Di', 'asia/tokyo'],
    ]);
    expect(plan(source).contacts).toEqual([
      { email: 'a@x.com', name: 'Ann', contact_type: 'Label', time_zone: 'Europe/Berlin' },
      { email: 'c@x.com', name: 'Cy', contact_type: 'Label' },
      // The server stores the canonical spelling; the plan sends what the file says.
      { email: 'd@x.com', name: 'Di', contact_type: 'Label', time_zone: 'asia/tokyo' },
    ]);
    expect(skippedReasons(source)).toEqual(['Row 3: Unknown time zone: Mars/Olympus (use a name such as Europe/Berlin)']);
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
    skipped: [],
    inFileDuplicates: 3,
    rowCount: 5,
  };

  it('keeps the first row of each email (case-insensitive) and counts the rest, with remove-duplicates on', () => {
    expect(withoutSources(plan(source, { removeDuplicates: true }))).toEqual(expected);
  });

  // The server keeps one per email anyway.
  it('sends one row per email with remove-duplicates off too, and counts the repeats for the UI', () => {
    expect(withoutSources(plan(source, { removeDuplicates: false }))).toEqual(expected);
  });
});

describe('planContactImport: errors', () => {
  it('No data rows found in CSV: a header and nothing else', () => {
    expect(fileError(table([['Email', 'Name']]))).toBe('No data rows found in CSV');
    expect(fileError(table([['Email'], [' ', ''], ['']]))).toBe('No data rows found in CSV');
    expect(fileError(table([]), { hasHeader: false, mapping: [] })).toBe('No data rows found in CSV');
  });

  const emails = (count: number) => [['Email'], ...Array.from({ length: count }, (_, i) => [`person${i}@example.com`])];

  it('5000 data rows are accepted', () => {
    const result = plan(table(emails(5000)));
    expect(result.contacts).toHaveLength(5000);
    expect(result.rowCount).toBe(5000);
  });

  it('5001 data rows: Too many contacts', () => {
    expect(fileError(table(emails(5001)))).toBe('Too many contacts. Maximum 5000 per import allowed.');
  });

  it('5000 rows without a header are accepted; the header does not count as a row', () => {
    expect(plan(table(emails(5000).slice(1)), { hasHeader: false, mapping: ['email'] }).contacts).toHaveLength(5000);
    expect(plan(table(emails(5000)), { hasHeader: true, mapping: ['email'] }).contacts).toHaveLength(5000);
  });

  it('No email column mapped', () => {
    expect(fileError(table([['Name'], ['Ann']]), { mapping: ['name'] })).toBe('No email column mapped');
  });

  it('names spreadsheet rows: the header is row 1, and the blank lines the reader skips still count', () => {
    const text = 'Email\na@x.com\n\nnot-an-email\n';
    expect(skippedReasons(tableOf(text), { mapping: ['email'] })).toEqual(['Row 4: Invalid email format: not-an-email']);
    expect(skippedReasons(tableOf(text.replace('Email\n', '')), { hasHeader: false, mapping: ['email'] })).toEqual([
      'Row 3: Invalid email format: not-an-email',
    ]);
  });

  it('Row 5: Missing email address when records 3 and 4 are blank', () => {
    const source = tableOf('Email,Name\na@x.com,Ann\n\n , \n,Eve\n');
    expect(source.rows).toHaveLength(3);
    expect(skippedReasons(source)).toEqual(['Row 5: Missing email address']);
  });

  it('takes each row number from the table, not from its position among the kept rows', () => {
    const source: CsvTable = { rows: [['Email'], [' '], ['bad'], ['ok@x.com'], ['worse@']], rowNumbers: [1, 4, 9, 12, 20], delimiter: ',' };
    expect(skippedReasons(source)).toEqual(['Row 9: Invalid email format: bad', 'Row 20: Invalid email format: worse@']);
  });

  it('counts a cell with a line break as one row, and not the hidden sep= line', () => {
    const multiline = tableOf('Email,Name\r\nann@x.com,"Ann\nSmith"\r\n\r\nbad,Bob\r\n');
    expect(skippedReasons(multiline)).toEqual(['Row 4: Invalid email format: bad']);
    const excel = tableOf('\uFEFFsep=;\r\nEmail;Name\r\n\r\n;Bob\r\n');
    expect(skippedReasons(excel)).toEqual(['Row 3: Missing email address']);
  });

  it('Missing email address for a row with other cells but no email', () => {
    const source = table([
      ['Email', 'Name'],
      ['a@x.com', 'Ann'],
      ['  ', 'Bob'],
    ]);
    expect(skippedReasons(source)).toEqual(['Row 3: Missing email address']);
  });

  it.each(['bob', 'bob@x', '@x.com', 'bob@.com', 'bob x@y.com', 'a@b@c.com', 'bob@x.'])('Invalid email format: %s', (email) => {
    expect(skippedReasons(table([['Email'], [email]]))).toEqual([`Row 2: Invalid email format: ${email}`]);
  });

  it('shows the trimmed value in the invalid-email error', () => {
    expect(skippedReasons(table([['Email'], ['  bob@x  ']]))).toEqual(['Row 2: Invalid email format: bob@x']);
  });

  it('refuses values longer than the contract allows', () => {
    const source = table([
      ['Email', 'Name', 'Label', 'Genre'],
      [`${'a'.repeat(250)}@x.com`, 'Ann', '', ''],
      ['b@x.com', 'n'.repeat(201), 'l'.repeat(201), 'g'.repeat(301)],
      ['c@x.com', 'n'.repeat(200), 'l'.repeat(200), 'g'.repeat(300)],
    ]);
    expect(skippedReasons(source)).toEqual(['Row 2: Email is too long', 'Row 3: Name is too long; Label/Company is too long; Genre is too long']);
    expect(plan(source).contacts.map((contact) => contact.email)).toEqual(['c@x.com']);
  });

  it('skips each row with a problem, with its cells and reason, and plans the good rows (issue 25)', () => {
    const source = table([
      ['Email', 'Name'],
      ['ok@x.com', 'A'],
      ['', 'B'],
      ['bad', 'C'],
      ['ok2@x.com', 'D'],
      [' worse@ ', 'E'],
      ['', 'F'],
    ]);
    const result = plan(source);
    expect(result.contacts).toEqual([
      { email: 'ok@x.com', name: 'A', contact_type: 'Label' },
      { email: 'ok2@x.com', name: 'D', contact_type: 'Label' },
    ]);
    expect(result.sources).toEqual([
      { rowNumber: 2, cells: ['ok@x.com', 'A'] },
      { rowNumber: 5, cells: ['ok2@x.com', 'D'] },
    ]);
    expect(result.skipped).toEqual([
      { rowNumber: 3, cells: ['', 'B'], reason: 'Row 3: Missing email address' },
      { rowNumber: 4, cells: ['bad', 'C'], reason: 'Row 4: Invalid email format: bad' },
      // The cells as the file had them, untrimmed: the download gives them back unchanged.
      { rowNumber: 6, cells: [' worse@ ', 'E'], reason: 'Row 6: Invalid email format: worse@' },
      { rowNumber: 7, cells: ['', 'F'], reason: 'Row 7: Missing email address' },
    ]);
    expect(result.rowCount).toBe(6);
  });

  it('29 good rows and one bad: 29 planned, Row 23 skipped', () => {
    const rows = Array.from({ length: 30 }, (_, i) => [i === 21 ? 'not-an-email' : `p${i}@x.com`]);
    const result = plan(table([['Email'], ...rows]));
    expect(result.contacts).toHaveLength(29);
    expect(result.skipped.map((row) => row.reason)).toEqual(['Row 23: Invalid email format: not-an-email']);
  });

  it('a row with no cell filled in is not a missing email', () => {
    const source = table([['Email'], ['ok@x.com'], [''], ['bad']]);
    expect(skippedReasons(source)).toEqual(['Row 4: Invalid email format: bad']);
  });
});

describe('real exports, end to end (tests/fixtures/csv)', () => {
  it('Excel "CSV UTF-8" (BOM, CRLF, quoted cells)', () => {
    const source = tableOf(fixture('excel-csv-utf8.csv'));
    expect(guessMapping(source, true)).toEqual(['name', 'email', 'label_name', 'contact_type', 'genre', 'notes']);
    expect(withoutSources(plan(source))).toEqual<Omit<ImportPlan, 'sources'>>({
      contacts: [
        { email: 'anna@nightshift-records.com', name: 'Anna Berg', label_name: 'Nightshift Records', contact_type: 'Label', genre: 'Techno, Minimal' },
        { email: 'kappa@djmail.net', name: 'DJ Kappa', contact_type: 'DJ', genre: 'House', notes: 'Plays "Fabric" on Fridays' },
        {
          email: 'jonas@lowfreq.co.uk',
          name: 'Berg, Jonas',
          label_name: 'Low Frequency',
          contact_type: 'Fan',
          genre: 'Drum & Bass',
          notes: 'Met at ADE\nfollow up in May',
        },
        { email: 'LENA@Ortiz-Music.com', name: 'Lena Ortiz', label_name: 'Ortiz Music', contact_type: 'Label', genre: 'Disco' },
      ],
      skipped: [],
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
    expect(withoutSources(importFixture('google-sheets.csv'))).toEqual<Omit<ImportPlan, 'sources'>>({
      contacts: [
        { email: 'sam@sunsetlabel.com', name: 'Sam Lee', label_name: 'Sunset Label', contact_type: 'Label', genre: 'Chillout, Downtempo' },
        { email: 'ravi@bassline.in', name: 'Ravi Kumar', contact_type: 'DJ', genre: 'Bass' },
        { email: 'noor@echoes.ae', name: 'Noor', label_name: 'Echoes', contact_type: 'Fan' },
      ],
      skipped: [],
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

  it('Mailchimp export: Email Address, First Name, TIMEZONE and NOTES mapped, the 19 other columns skipped, a repeated address dropped', () => {
    const source = tableOf(fixture('mailchimp-export.csv'));
    const mapping = guessMapping(source, true);
    expect(mapping.slice(0, 3)).toEqual(['email', 'name', 'skip']);
    // Mailchimp's TIMEZONE column holds IANA names (issue 27 §2).
    expect(mapping.filter((field) => field !== 'skip')).toEqual(['email', 'name', 'time_zone', 'notes']);
    expect(withoutSources(plan(source, { mapping }))).toEqual<Omit<ImportPlan, 'sources'>>({
      contacts: [
        { email: 'oscar@deepgroove.com', name: 'Oscar', contact_type: 'Label', time_zone: 'America/Chicago' },
        { email: 'priya@mumbaibeats.in', name: 'Priya', contact_type: 'Label', notes: 'Prefers WAV' },
      ],
      skipped: [],
      inFileDuplicates: 1,
      rowCount: 3,
    });
  });

  it('Google Contacts export: "E-mail 1 - Value" is the email (never "E-mail 1 - Type"), with organization, title, website and notes (issue 25)', () => {
    const source = tableOf(fixture('google-contacts.csv'));
    const headings = columnHeadings(source, true);
    const mapping = guessMapping(source, true);
    const mapped = Object.fromEntries(headings.flatMap((heading, column) => (mapping[column] === 'skip' ? [] : [[heading, mapping[column]]])));
    expect(mapped).toEqual({
      Name: 'name',
      Location: 'add_to_notes',
      Notes: 'notes',
      'E-mail 1 - Value': 'email',
      'Organization 1 - Name': 'label_name',
      'Organization 1 - Title': 'position',
      'Organization 1 - Location': 'add_to_notes',
      'Website 1 - Value': 'website_url',
    });
    const result = plan(source, { mapping });
    expect(result.contacts).toEqual<CsvContact[]>([
      {
        email: 'karl@deepcurrent.example',
        name: 'Karl Becker',
        label_name: 'Deep Current Records',
        position: 'A&R Manager',
        website_url: 'https://deepcurrent.example',
        notes: 'Prefers private SoundCloud links',
        contact_type: 'Label',
      },
      { email: 'lina@nightfall.example', name: 'Lina Ortiz', label_name: 'Nightfall, Ltd.', website_url: 'nightfall.example/lina', contact_type: 'Label' },
    ]);
    expect(result.skipped.map((row) => row.reason)).toEqual(['Row 4: Invalid email format: tom@']);
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
    expect(fileError(source)).toBe('No data rows found in CSV');
  });

  it.each(['empty.csv', 'whitespace-only.csv'])('%s: CSV file is empty', (name) => {
    expect(readContactsCsv(fixture(name))).toEqual({ ok: false, error: 'CSV file is empty' });
  });
});
