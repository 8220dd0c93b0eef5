import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { WaitlistEntry } from '../../schema/api/waitlist';
import { csvCell, csvDocument, csvLines, formatCsvDateTime, formatDateStamp, neutraliseFormula, toCsv } from '../../web/src/lib/csv';
import { waitlistCsv, waitlistCsvColumns, waitlistCsvFilename } from '../../web/src/pages/admin/waitlistCsv';

/** An ISO timestamp for a local wall-clock time, so the expected yyyy-MM-dd HH:mm holds in any time zone. */
const withoutBom = (csv: string) => csv.replace(/^\uFEFF/, '');

const localIso = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo - 1, d, h, mi, 37).toISOString();

describe('csv cells (RFC 4180)', () => {
  it('leaves plain text alone and writes empty fields for null and undefined', () => {
    expect(csvCell('Robin')).toBe('Robin');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('quotes commas, quotes, CR and LF, doubling inner quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvCell('line 1\r\nline 2')).toBe('"line 1\r\nline 2"');
  });

  it.each(['=SUM(A1:A2)', '+1', '-2+3', '@cmd', '\tindent', '\rreturn', '＝SUM(A1:A2)', '＋1', '－2＋3', '＠cmd'])(
    'neutralises the formula-like cell %j',
    (value) => {
      expect(neutraliseFormula(value)).toBe(`'${value}`);
      expect(csvCell(value).replace(/^"/, '').startsWith("'")).toBe(true);
    },
  );

  it('quotes a neutralised cell that also needs quoting', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('\rboom')).toBe(`"'\rboom"`);
  });

  it('does not touch a formula character in the middle, nor numbers', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('x@example.com')).toBe('x@example.com');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(3.5)).toBe('3.5');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(true)).toBe('true');
  });

  it('joins records with CRLF and reads back with a standard parser', () => {
    const csv = toCsv(
      [
        { header: 'A', value: (r: [string, string | null]) => r[0] },
        { header: 'B', value: (r: [string, string | null]) => r[1] },
      ],
      [
        ['1, 2', 'x"y'],
        ['multi\nline', null],
      ],
    );
    expect(csv).toBe('\uFEFFA,B\r\n"1, 2","x""y"\r\n"multi\nline",');
    expect(Papa.parse<string[]>(withoutBom(csv)).data).toEqual([
      ['A', 'B'],
      ['1, 2', 'x"y'],
      ['multi\nline', ''],
    ]);
  });

  it('builds from column definitions', () => {
    const csv = toCsv([{ header: 'Name', value: (r: { n: string }) => r.n }], [{ n: 'a' }, { n: '=b' }]);
    expect(csv).toBe("\uFEFFName\r\na\r\n'=b");
  });

  it('writes several tables as one document: one BOM, an empty line between tables, each neutralised', () => {
    const days = csvLines(
      [
        { header: 'Day', value: (r: { d: string; n: number }) => r.d },
        { header: 'Sent', value: (r) => r.n },
      ],
      [{ d: '2026-11-26', n: -3 }],
    );
    const people = csvLines([{ header: 'Name', value: (r: { n: string }) => r.n }], [{ n: '@Robin' }, { n: 'a,b' }]);
    const csv = csvDocument(days, people);
    expect(csv).toBe(`\uFEFFDay,Sent\r\n2026-11-26,-3\r\n\r\nName\r\n'@Robin\r\n"a,b"`);
    expect(csv.indexOf('\uFEFF', 1)).toBe(-1);
    expect(
      withoutBom(csv)
        .split('\r\n\r\n')
        .map((table) => Papa.parse<string[]>(table).data),
    ).toEqual([
      [
        ['Day', 'Sent'],
        ['2026-11-26', '-3'],
      ],
      [['Name'], ["'@Robin"], ['a,b']],
    ]);
  });

  it('starts with a UTF-8 BOM (Excel then reads accents as UTF-8) and keeps accents as they are', () => {
    const csv = toCsv([{ header: 'Artist', value: (r: { n: string }) => r.n }], [{ n: 'Beyoncé Ñandú' }]);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.indexOf('\uFEFF', 1)).toBe(-1);
    expect([...new TextEncoder().encode(csv).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(Papa.parse<string[]>(withoutBom(csv)).data).toEqual([['Artist'], ['Beyoncé Ñandú']]);
  });

  it('leaves fullwidth formula characters in the middle alone', () => {
    expect(csvCell('a＝b')).toBe('a＝b');
    expect(csvCell('x＠example.com')).toBe('x＠example.com');
  });
});

describe('csv dates', () => {
  it('formats yyyy-MM-dd HH:mm in local time, and empty for missing values', () => {
    expect(formatCsvDateTime(localIso(2025, 3, 7, 9, 5))).toBe('2025-03-07 09:05');
    expect(formatCsvDateTime(localIso(2024, 12, 31, 23, 59))).toBe('2024-12-31 23:59');
    expect(formatCsvDateTime(null)).toBe('');
    expect(formatCsvDateTime(undefined)).toBe('');
    expect(formatCsvDateTime('not a date')).toBe('not a date');
  });

  it('stamps file names with the local date', () => {
    expect(formatDateStamp(new Date(2025, 0, 2, 0, 30))).toBe('2025-01-02');
    expect(waitlistCsvFilename(new Date(2025, 10, 9, 23, 59))).toBe('beta-waitlist-2025-11-09.csv');
  });
});

describe('waitlist export', () => {
  const entries: WaitlistEntry[] = [
    {
      id: '2',
      email: 'dj@example.com',
      artist_name: 'DJ "Quote", Jr.',
      music_style: 'Drum & Bass',
      soundcloud_spotify_url: 'https://soundcloud.com/dj',
      why_interested: 'Line one\nline two',
      status: 'approved',
      submitted_at: localIso(2025, 5, 1, 14, 3),
      approved_at: localIso(2025, 5, 2, 8, 0),
      notes: '=cmd|"/c calc"!A1',
    },
    {
      id: '1',
      email: 'a@example.com',
      artist_name: '@evil',
      music_style: 'Techno',
      soundcloud_spotify_url: null,
      why_interested: null,
      status: 'pending',
      submitted_at: localIso(2025, 4, 30, 7, 45),
      approved_at: null,
      notes: null,
    },
  ];

  it('has the spec columns in order', () => {
    expect(waitlistCsvColumns.map((c) => c.header)).toEqual([
      'Email',
      'Artist Name',
      'Music Style',
      'URL',
      'Why Interested',
      'Status',
      'Submitted Date',
      'Approved Date',
      'Notes',
    ]);
  });

  it('writes every entry, quoted and neutralised, that a parser reads back exactly', () => {
    const csv = waitlistCsv(entries);
    expect(csv.split('\r\n')[0]).toBe('\uFEFFEmail,Artist Name,Music Style,URL,Why Interested,Status,Submitted Date,Approved Date,Notes');
    const rows = Papa.parse<string[]>(withoutBom(csv)).data;
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual([
      'dj@example.com',
      'DJ "Quote", Jr.',
      'Drum & Bass',
      'https://soundcloud.com/dj',
      'Line one\nline two',
      'approved',
      '2025-05-01 14:03',
      '2025-05-02 08:00',
      `'=cmd|"/c calc"!A1`,
    ]);
    expect(rows[2]).toEqual(['a@example.com', "'@evil", 'Techno', '', '', 'pending', '2025-04-30 07:45', '', '']);
  });
});
