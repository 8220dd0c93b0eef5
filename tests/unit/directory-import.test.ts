/**
 * The admin directory import's pure rules (lambdas/core/directoryImport.ts): real CSV exports and JSON
 * files become entries with the spec's defaults, and every record that cannot be loaded is reported
 * with its row and reasons.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  describeRejections,
  directoryImportLimits as limits,
  directoryImportMessages as messages,
  parseDirectoryImport,
  type DirectoryImportPlan,
} from '../../lambdas/core/directoryImport';
import { directoryItem } from '../../lambdas/adapters/dynamodb/directoryStore';
import { contactFromDirectoryEntry } from '../../lambdas/core/contacts';
import { contactInputSchema, contactLimits } from '../../schema/api/contacts';
import { applyDirectoryDefaults, directoryDefaults } from '../../schema/api/directory';
import { genres } from '../../schema/api/options';
import { decodeCsvBytes } from '../../schema/csv/parse';

function plan(format: 'csv' | 'json', content: string): DirectoryImportPlan {
  const result = parseDirectoryImport(format, content);
  if (!result.ok) throw new Error(`expected a plan, got: ${result.error}`);
  return result.plan;
}

const fileError = (format: 'csv' | 'json', content: string) => {
  const result = parseDirectoryImport(format, content);
  return result.ok ? undefined : result.error;
};

/** An entry with every default, for `toEqual` with a few fields overridden. */
const defaults = (fields: { name?: string; email: string } & Record<string, unknown>) => ({
  name: directoryDefaults.name,
  genres: [],
  location: directoryDefaults.location,
  label_size: directoryDefaults.label_size,
  description: directoryDefaults.description,
  website_url: null,
  submission_guidelines: directoryDefaults.submission_guidelines,
  is_featured: false,
  contact_type: 'Label',
  demo_policy: null,
  ...fields,
});

describe('CSV files as real exports write them', () => {
  it('reads an Excel export: UTF-8 BOM, CRLF, semicolons, quoted delimiters and newlines, trailing empty lines', () => {
    const csv =
      '\uFEFFName;E-mail;Genres;Description;Type\r\n' +
      '"Copper Owl; Records";copper@labels.example;"Techno, Deep House";"Line one\r\nline two";Label\r\n' +
      'Night Shift;night@djs.example;Drum & Bass;"She said ""send it""";dj\r\n' +
      '\r\n\r\n';
    expect(plan('csv', csv)).toEqual({
      entries: [
        defaults({
          name: 'Copper Owl; Records',
          email: 'copper@labels.example',
          genres: ['techno', 'deep-house'],
          description: 'Line one\r\nline two',
        }),
        defaults({ name: 'Night Shift', email: 'night@djs.example', genres: ['drum-bass'], description: 'She said "send it"', contact_type: 'DJ' }),
      ],
      rejected: [],
    });
  });

  it('reads an Excel "CSV (Comma delimited)" file from Windows (Windows-1252) as the import command decodes it', () => {
    const bytes = readFileSync(new URL('../fixtures/csv/excel-windows-1252.csv', import.meta.url));
    const entries = plan('csv', decodeCsvBytes(bytes)).entries;
    expect(entries.map((entry) => entry.name)).toEqual(['Zoë Lefèvre', 'José Núñez', 'Björn Ångström', 'Renée O\u2019Brien']);
    expect(entries[0]).toMatchObject({ email: 'contact@cafe-records.fr', genres: ['other'] });
  });

  it('detects comma and tab delimiters, with commas inside quotes', () => {
    const comma = 'name,email,genres\n"Salt, Slate & Co",salt@labels.example,"house, techno"\n';
    expect(plan('csv', comma).entries).toEqual([defaults({ name: 'Salt, Slate & Co', email: 'salt@labels.example', genres: ['house', 'techno'] })]);
    const tab = 'name\temail\tlocation\nTidal\ttidal@labels.example\tLisbon, Portugal\n';
    expect(plan('csv', tab).entries).toEqual([defaults({ name: 'Tidal', email: 'tidal@labels.example', location: 'Lisbon, Portugal' })]);
  });

  it('matches headers case-insensitively in their common spellings, and ignores unknown columns', () => {
    const csv =
      ' NAME ,Email Address,Styles,City,Country,Size,About,Website,Submissions,Featured,Contact Type,Notes\n' +
      'Amber Rooms,amber@labels.example,Minimal,Berlin,Germany,Boutique,Dark minimal,amber.example,Demos via link only,TRUE,Label,internal\n';
    expect(plan('csv', csv).entries).toEqual([
      {
        name: 'Amber Rooms',
        email: 'amber@labels.example',
        genres: ['minimal'],
        location: 'Berlin, Germany',
        label_size: 'Boutique',
        description: 'Dark minimal',
        website_url: 'https://amber.example',
        submission_guidelines: 'Demos via link only',
        is_featured: true,
        contact_type: 'Label',
        demo_policy: null,
      },
    ]);
    const other =
      'Label Name;e-mail;genre;location;label_size;description;url;guidelines;is_featured;type\nX;x@labels.example;;;;;https://x.example/demos;;no;DJ\n';
    expect(plan('csv', other).entries).toEqual([
      defaults({ name: 'X', email: 'x@labels.example', website_url: 'https://x.example/demos', contact_type: 'DJ' }),
    ]);
  });

  it('applies the spec defaults to blank cells and trims every value, short rows included', () => {
    const csv = 'name,email,location,label_size,description,submission_guidelines,genres\n  ,  lone@labels.example  ,  ,\n';
    expect(plan('csv', csv).entries).toEqual([defaults({ email: 'lone@labels.example' })]);
  });

  it('numbers rows as a spreadsheet does: the header is row 1, a quoted line break stays in its row, blank lines count', () => {
    const csv = 'name,email\nA,a@labels.example\nB,\n"C\nline 2",c@labels.example\nD,not-an-email\n\n,,\nE,\n';
    expect(plan('csv', csv).rejected).toEqual([
      { row: 3, email: null, reasons: [messages.missingEmail] },
      { row: 5, email: 'not-an-email', reasons: [messages.invalidEmail('not-an-email')] },
      { row: 8, email: null, reasons: [messages.missingEmail] },
    ]);
  });

  it('reports the spreadsheet row after blank lines, in the rejection, its duplicate reason and the summary', () => {
    const csv = 'name,email\n\nFirst,dup@labels.example\n\n\nSecond,dup@labels.example\n , \nThird,\n';
    const result = plan('csv', csv);
    expect(result.entries.map((e) => e.name)).toEqual(['First']);
    expect(result.rejected).toEqual([
      { row: 6, email: 'dup@labels.example', reasons: [messages.duplicate(3)] },
      { row: 8, email: null, reasons: [messages.missingEmail] },
    ]);
    expect(describeRejections(result.rejected)).toBe('Row 6: Duplicate of row 3; Row 8: Missing email address');
  });

  it("does not count an Excel 'sep=' line or a BOM: the header is row 1", () => {
    const csv = '\uFEFFsep=;\r\nname;email\r\n\r\nA;a@labels.example\r\n\r\nB;\r\n';
    expect(plan('csv', csv).rejected).toEqual([{ row: 5, email: null, reasons: [messages.missingEmail] }]);
  });

  it('refuses a file without an email column, without data rows, or empty', () => {
    expect(fileError('csv', 'name,city\nA,Berlin\n')).toBe(messages.noEmailColumn);
    expect(fileError('csv', 'name,email\n')).toBe(messages.noRecords);
    expect(fileError('csv', '\uFEFF\r\n\r\n')).toBe(messages.noRecords);
  });
});

describe('JSON files', () => {
  const record = { name: 'Glass Hour', email: 'glass@labels.example', genres: ['Techno', 'Ambient'], is_featured: true, contact_type: 'DJ' };
  const expected = defaults({ name: 'Glass Hour', email: 'glass@labels.example', genres: ['techno', 'ambient'], is_featured: true, contact_type: 'DJ' });

  it('reads an array of objects, or an object with an entries array', () => {
    expect(plan('json', JSON.stringify([record]))).toEqual({ entries: [expected], rejected: [] });
    expect(plan('json', JSON.stringify({ entries: [record] }))).toEqual({ entries: [expected], rejected: [] });
    expect(plan('json', `\uFEFF${JSON.stringify([{ ...record, genres: 'techno, ambient' }])}`).entries).toEqual([expected]);
  });

  it('matches keys in their common spellings and accepts numbers as text', () => {
    const entries = plan('json', JSON.stringify([{ 'E-mail': 'num@labels.example', Name: 1999, Featured: 1, City: 'Oslo', Size: 'Major subsidiary' }])).entries;
    expect(entries).toEqual([defaults({ email: 'num@labels.example', name: '1999', is_featured: true, location: 'Oslo', label_size: 'Major subsidiary' })]);
  });

  it('numbers records from 1 and rejects what is not an object or not text', () => {
    const result = plan(
      'json',
      JSON.stringify([
        record,
        'just a string',
        { email: 'obj@labels.example', name: { first: 'A' } },
        { email: 'g@labels.example', genres: [1, { x: 1 }] },
        null,
      ]),
    );
    expect(result.entries).toEqual([expected]);
    expect(result.rejected).toEqual([
      { row: 2, email: null, reasons: [messages.notAnObject] },
      { row: 3, email: 'obj@labels.example', reasons: [messages.notText('Name')] },
      { row: 4, email: 'g@labels.example', reasons: [messages.notText('Genres')] },
      { row: 5, email: null, reasons: [messages.notAnObject] },
    ]);
  });

  it('refuses invalid JSON, another shape, or no records', () => {
    expect(fileError('json', '[{"email": "a@labels.example",')).toMatch(/^The file is not valid JSON: /);
    expect(fileError('json', '{"items": []}')).toBe(messages.jsonShape);
    expect(fileError('json', '"entries"')).toBe(messages.jsonShape);
    expect(fileError('json', '[]')).toBe(messages.noRecords);
    expect(fileError('json', '{"entries": []}')).toBe(messages.noRecords);
  });
});

describe('validation: each reason, with its row', () => {
  const long = (n: number) => 'x'.repeat(n);
  const rows: [string, Record<string, unknown>, string[]][] = [
    ['no email', { name: 'A' }, [messages.missingEmail]],
    ['a blank email', { email: '   ' }, [messages.missingEmail]],
    ['an email without a dot', { email: 'a@labels' }, [messages.invalidEmail('a@labels')]],
    ['an email with a space', { email: 'a b@labels.example' }, [messages.invalidEmail('a b@labels.example')]],
    ['an email over 254 characters', { email: `${long(250)}@labels.example` }, [messages.tooLong('Email', 254)]],
    ['a name over 200 characters', { email: 'n@labels.example', name: long(201) }, [messages.tooLong('Name', 200)]],
    ['a location over 200 characters', { email: 'l@labels.example', location: long(201) }, [messages.tooLong('Location', 200)]],
    ['a label size over 100 characters', { email: 's@labels.example', label_size: long(101) }, [messages.tooLong('Label size', 100)]],
    ['a description over 1000 characters', { email: 'd@labels.example', description: long(1001) }, [messages.tooLong('Description', 1000)]],
    ['guidelines over 950 characters', { email: 'g@labels.example', submission_guidelines: long(951) }, [messages.tooLong('Submission guidelines', 950)]],
    ['a website over 500 characters', { email: 'w@labels.example', website_url: `https://w.example/${long(490)}` }, [messages.tooLong('Website', 500)]],
    ['a website that is not a link', { email: 'w@labels.example', website_url: 'not a site' }, [messages.invalidWebsite('not a site')]],
    ['a javascript: website', { email: 'w@labels.example', website_url: 'javascript:alert(1).com' }, [messages.invalidWebsite('javascript:alert(1).com')]],
    ['an ftp website', { email: 'w@labels.example', website_url: 'ftp://files.example.com' }, [messages.invalidWebsite('ftp://files.example.com')]],
    ['an unknown contact type', { email: 't@labels.example', contact_type: 'Fan' }, [messages.unknownContactType('Fan')]],
    ['an unknown featured value', { email: 'f@labels.example', is_featured: 'maybe' }, [messages.unknownFeatured('maybe')]],
    [
      'several problems at once',
      { email: 'bad', name: long(201), contact_type: 'Band' },
      [messages.invalidEmail('bad'), messages.tooLong('Name', 200), messages.unknownContactType('Band')],
    ],
  ];

  it.each(rows)('%s', (_name, record, reasons) => {
    const result = plan('json', JSON.stringify([{ email: 'ok@labels.example' }, record]));
    const email = typeof record.email === 'string' && record.email.trim() !== '' ? record.email.trim() : null;
    expect(result.rejected).toEqual([{ row: 2, email, reasons }]);
    expect(result.entries.map((e) => e.email)).toEqual(['ok@labels.example']);
  });

  it('accepts the edges: exactly at each limit, http and bare-domain websites', () => {
    const result = plan(
      'json',
      JSON.stringify([
        {
          email: 'edge@labels.example',
          name: long(200),
          location: long(200),
          description: long(1000),
          submission_guidelines: long(950),
          website_url: 'http://edge.example/a?b=c',
        },
        { email: 'bare@labels.example', website_url: 'www.bare.example' },
      ]),
    );
    expect(result.rejected).toEqual([]);
    expect(result.entries.map((e) => e.website_url)).toEqual(['http://edge.example/a?b=c', 'https://www.bare.example']);
  });

  it('keeps every accepted entry a valid contact once added: the longest fields pass the contact form', () => {
    const { entries, rejected } = plan(
      'json',
      JSON.stringify([
        {
          email: `${long(limits.email - '@labels.example'.length)}@labels.example`,
          name: long(limits.name),
          genres: genres.join(', '),
          description: long(limits.description),
          submission_guidelines: long(limits.submission_guidelines),
          website_url: `https://edge.example/${long(limits.website_url - 'https://edge.example/'.length)}`,
          contact_type: 'DJ',
        },
      ]),
    );
    expect(rejected).toEqual([]);
    const contact = contactFromDirectoryEntry('user-1', { ...entries[0]!, id: 'x' }, new Date().toISOString());
    // Not typed in the form: the id, the dates, and what the directory alone gives (genre focus, label size).
    const { id: _id, created_at: _created, genre_focus: _focus, label_size: _size, ...input } = contact;
    expect(contactInputSchema.safeParse(input).success).toBe(true);
    expect(contact.notes!.length).toBeLessThanOrEqual(contactLimits.notes);
  });

  it('rejects a later record with an email seen before (any case), naming the first row', () => {
    const csv = 'name,email\nFirst,dup@labels.example\nOther,other@labels.example\nSecond, DUP@Labels.Example \nThird,dup@labels.example\n';
    const result = plan('csv', csv);
    expect(result.entries.map((e) => e.name)).toEqual(['First', 'Other']);
    expect(result.rejected).toEqual([
      { row: 4, email: 'DUP@Labels.Example', reasons: [messages.duplicate(2)] },
      { row: 5, email: 'dup@labels.example', reasons: [messages.duplicate(2)] },
    ]);
  });

  it('the first record of an address wins even when it is rejected for another reason', () => {
    const result = plan('json', JSON.stringify([{ email: 'x@labels.example', contact_type: 'Fan' }, { email: 'x@labels.example' }]));
    expect(result.entries).toEqual([]);
    expect(result.rejected.map((r) => [r.row, r.reasons])).toEqual([
      [1, [messages.unknownContactType('Fan')]],
      [2, [messages.duplicate(1)]],
    ]);
  });
});

describe('helpers', () => {
  it('describes the first three rejections, with ... when there are more', () => {
    const rejected = [2, 3, 4, 5].map((row) => ({ row, email: null, reasons: [messages.missingEmail, 'Other'] }));
    expect(describeRejections(rejected.slice(0, 1))).toBe('Row 2: Missing email address, Other');
    expect(describeRejections(rejected)).toBe(
      'Row 2: Missing email address, Other; Row 3: Missing email address, Other; Row 4: Missing email address, Other...',
    );
    expect(messages.nothingValid(rejected.slice(0, 2))).toBe(
      'No entries were imported: every record was rejected. Row 2: Missing email address, Other; Row 3: Missing email address, Other',
    );
  });
});

describe('directoryItem (the stored directory entry)', () => {
  it('is findable by its lower-cased email on GSI1', () => {
    const entry = applyDirectoryDefaults({ id: '01KAKZ3R0000000000000000AA', email: ' Mixed@Labels.Example ' });
    expect(directoryItem(entry)).toEqual({
      ...entry,
      PK: 'DIRECTORY',
      SK: 'ENTRY#01KAKZ3R0000000000000000AA',
      GSI1PK: 'DIRECTORY#EMAIL',
      GSI1SK: 'mixed@labels.example',
      entity: 'directory',
    });
  });

  it('has no GSI1 attributes when the email is the default or not an address', () => {
    for (const email of [null, 'not an address', 'info@nodot']) {
      const entry = applyDirectoryDefaults({ id: 'lf-900', email });
      const item = directoryItem(entry);
      expect(item).toEqual({ ...entry, PK: 'DIRECTORY', SK: 'ENTRY#lf-900', entity: 'directory' });
      expect(item).not.toHaveProperty('GSI1PK');
    }
    expect(applyDirectoryDefaults({ id: 'lf-900', email: null }).email).toBe(directoryDefaults.email);
  });
});
