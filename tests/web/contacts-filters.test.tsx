import { describe, expect, it } from 'vitest';
import {
  allContactTypes,
  countByType,
  defaultContactFilters,
  filterContacts,
  genreOptions,
  matchesSearch,
  splitGenres,
  type ContactFilters,
  type FilterableContact,
} from '../../web/src/pages/contacts/filters';
import { timeAgo } from '../../web/src/pages/contacts/timeAgo';

function row(name: string, overrides: Partial<FilterableContact> = {}): FilterableContact {
  return { name, email: `${name.toLowerCase()}@x.com`, label_name: null, contact_type: 'Label', genre: null, position: null, ...overrides };
}

const names = (list: readonly FilterableContact[]) => list.map((c) => c.name);
const filters = (overrides: Partial<ContactFilters>): ContactFilters => ({ ...defaultContactFilters, ...overrides });

describe('contact filters', () => {
  const list = [
    row('Ana', { contact_type: 'Label', genre: 'House, Deep House' }),
    row('Ben', { contact_type: 'DJ', genre: 'techno' }),
    row('Cleo', { contact_type: 'Fan', genre: null }),
    row('Dev', { contact_type: 'DJ', genre: ' HOUSE ,  , Trance ' }),
  ];

  it('keeps everything by default', () => {
    expect(names(filterContacts(list, defaultContactFilters))).toEqual(['Ana', 'Ben', 'Cleo', 'Dev']);
  });

  it('keeps contacts whose type is selected; none selected keeps none', () => {
    expect(names(filterContacts(list, filters({ types: new Set(['DJ']) })))).toEqual(['Ben', 'Dev']);
    expect(names(filterContacts(list, filters({ types: new Set(['Label', 'Fan']) })))).toEqual(['Ana', 'Cleo']);
    expect(filterContacts(list, filters({ types: new Set() }))).toEqual([]);
  });

  it('keeps contacts having any selected genre, compared trimmed and without case', () => {
    expect(names(filterContacts(list, filters({ genres: new Set(['house']) })))).toEqual(['Ana', 'Dev']);
    expect(names(filterContacts(list, filters({ genres: new Set(['deep house', 'techno']) })))).toEqual(['Ana', 'Ben']);
    // 'Deep House' is its own genre, not 'house'.
    expect(names(filterContacts([row('Eve', { genre: 'Deep House' })], filters({ genres: new Set(['house']) })))).toEqual([]);
  });

  it('combines type, genre and search', () => {
    expect(names(filterContacts(list, { types: new Set(['DJ']), genres: new Set(['house']), search: '' }))).toEqual(['Dev']);
    expect(names(filterContacts(list, { types: allContactTypes, genres: new Set(['house']), search: 'ana' }))).toEqual(['Ana']);
  });

  it('searches name, email, label, position and genre as a case-insensitive substring', () => {
    const c = row('Zoe Quill', { email: 'Bookings@NightOwl.fm', label_name: 'Drumcode', position: 'Head of A&R', genre: 'Minimal' });
    for (const text of ['zoe q', 'nightowl.FM', 'DRUMCODE', 'of a&r', 'minim', '  zoe  ']) expect(matchesSearch(c, text), text).toBe(true);
    expect(matchesSearch(c, '')).toBe(true);
    expect(matchesSearch(c, 'techno')).toBe(false);
    // A match must not span two fields.
    expect(matchesSearch(c, 'quillbookings')).toBe(false);
  });

  it('reads a changed contact afresh (an edit is a new object)', () => {
    const before = row('Old');
    expect(matchesSearch(before, 'new')).toBe(false);
    expect(matchesSearch({ ...before, name: 'New' }, 'new')).toBe(true);
  });

  it('counts types over the whole list', () => {
    expect(countByType(list)).toEqual({ Label: 1, DJ: 2, Fan: 1 });
    expect(countByType([])).toEqual({ Label: 0, DJ: 0, Fan: 0 });
  });

  it('lists genres once each with how many contacts have them, alphabetically, by their most used spelling', () => {
    const options = genreOptions([...list, row('Fay', { genre: 'house, House' }), row('Gus', { genre: 'House' })]);
    expect(options).toEqual([
      { key: 'deep house', label: 'Deep House', count: 1 },
      { key: 'house', label: 'House', count: 4 },
      { key: 'techno', label: 'techno', count: 1 },
      { key: 'trance', label: 'Trance', count: 1 },
    ]);
  });

  it('splits comma-separated genres, trimmed, without blanks', () => {
    expect(splitGenres(' House ,, Techno ,')).toEqual(['House', 'Techno']);
    expect(splitGenres(null)).toEqual([]);
    expect(splitGenres('')).toEqual([]);
  });

  it('filters 10,000 contacts', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      row(`P${i}`, { contact_type: (['Label', 'DJ', 'Fan'] as const)[i % 3]!, genre: i % 2 ? 'House' : 'Techno' }),
    );
    expect(filterContacts(many, filters({ types: new Set(['DJ']), genres: new Set(['house']) }))).toHaveLength(1667);
    expect(filterContacts(many, filters({ search: 'p999' }))).toHaveLength(11);
    expect(genreOptions(many).map((g) => g.count)).toEqual([5000, 5000]);
  });
});

describe('timeAgo', () => {
  const now = Date.UTC(2025, 5, 15, 12, 0, 0);
  const ago = (ms: number) => timeAgo(new Date(now - ms).toISOString(), now);
  const MIN = 60_000;
  const HOUR = 60 * MIN;
  const DAY = 24 * HOUR;

  it('says how long ago in whole units', () => {
    expect(ago(0)).toBe('less than a minute');
    expect(ago(59_000)).toBe('less than a minute');
    expect(ago(MIN)).toBe('1 minute');
    expect(ago(45 * MIN)).toBe('45 minutes');
    expect(ago(HOUR)).toBe('1 hour');
    expect(ago(23 * HOUR + 59 * MIN)).toBe('23 hours');
    expect(ago(DAY)).toBe('1 day');
    expect(ago(3 * DAY + 5 * HOUR)).toBe('3 days');
    expect(ago(29 * DAY)).toBe('29 days');
    expect(ago(30 * DAY)).toBe('1 month');
    expect(ago(200 * DAY)).toBe('6 months');
    expect(ago(365 * DAY)).toBe('1 year');
    expect(ago(3 * 365 * DAY)).toBe('3 years');
  });

  it('treats a time ahead of the clock as just now, and survives a bad date', () => {
    expect(ago(-5 * MIN)).toBe('less than a minute');
    expect(timeAgo('not a date', now)).toBe('some time');
  });
});
