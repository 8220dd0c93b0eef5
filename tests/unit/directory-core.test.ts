/** The rules of adding directory entries to contacts (lambdas/core/directory.ts): selection, duplicates, allowance. */
import { describe, expect, it } from 'vitest';
import { addressId } from '../../lambdas/core/contacts';
import { allowsAdding, checkSelection, directoryCandidates, maxUsedBeforeAdding, selectionIds, splitExisting } from '../../lambdas/core/directory';
import type { DirectoryEntry } from '../../schema/api/directory';

const ALICE = '8f1c2d3e-0000-4000-8000-000000000001';
const createdAt = '2026-11-21T10:00:00.000Z';

const entry = (id: string, email: string, name = `Label ${id}`): DirectoryEntry => ({
  id,
  name,
  email,
  genres: ['techno'],
  location: 'Berlin, Germany',
  label_size: 'Boutique',
  description: 'Techno.',
  website_url: null,
  submission_guidelines: 'Links only.',
  is_featured: false,
  contact_type: 'Label',
  demo_policy: null,
});

const directory = (...entries: DirectoryEntry[]) => new Map(entries.map((e) => [e.id, e]));

describe('selectionIds', () => {
  it('keeps each selected id once, in the order first selected', () => {
    expect(selectionIds(['b', 'a', 'b', 'c', 'a'])).toEqual(['b', 'a', 'c']);
  });
});

describe('checkSelection', () => {
  const a = entry('a', 'a@label.example');
  const b = entry('b', 'b@label.example');
  const noEmail = entry('n', 'No email');

  it('returns the entries in selection order when every id is in the directory with an address', () => {
    expect(checkSelection(['b', 'a'], directory(a, b))).toEqual({ outcome: 'selected', entries: [b, a] });
  });

  it('names every id that is not in the directory, before any other refusal', () => {
    expect(checkSelection(['x', 'a', 'n', 'y'], directory(a, noEmail))).toEqual({ outcome: 'unknown_entries', ids: ['x', 'y'] });
  });

  it('refuses a selection holding an entry without a real address, naming the first one', () => {
    const alsoNoEmail = entry('m', 'No email');
    expect(checkSelection(['a', 'n', 'm'], directory(a, noEmail, alsoNoEmail))).toEqual({ outcome: 'no_email', entry: noEmail });
  });
});

describe('directoryCandidates', () => {
  it('makes each entry the contact of its address', () => {
    const { candidates, duplicates } = directoryCandidates(ALICE, [entry('a', 'a@label.example'), entry('b', 'b@label.example')], createdAt);
    expect(candidates.map(({ entry, contact }) => [entry.id, contact.id, contact.created_at])).toEqual([
      ['a', addressId(ALICE, 'a@label.example'), createdAt],
      ['b', addressId(ALICE, 'b@label.example'), createdAt],
    ]);
    expect(duplicates).toEqual([]);
  });

  it('adds the first of two entries with one address (any case) and counts the second as a duplicate', () => {
    const first = entry('a', 'demos@label.example', 'First');
    const second = entry('b', 'Demos@Label.example', 'Second');
    const { candidates, duplicates } = directoryCandidates(ALICE, [first, second, entry('c', 'c@label.example')], createdAt);
    expect(candidates.map((candidate) => candidate.entry.id)).toEqual(['a', 'c']);
    expect(duplicates).toEqual([{ id: 'b', name: 'Second' }]);
  });
});

describe('splitExisting', () => {
  it('keeps the candidates whose contact the user lacks, in order, and makes the others duplicates', () => {
    const { candidates } = directoryCandidates(ALICE, [entry('a', 'a@x.example'), entry('b', 'b@x.example', 'Bee'), entry('c', 'c@x.example')], createdAt);
    const { fresh, duplicates } = splitExisting(candidates, new Set([addressId(ALICE, 'b@x.example')]));
    expect(fresh.map((candidate) => candidate.entry.id)).toEqual(['a', 'c']);
    expect(duplicates).toEqual([{ id: 'b', name: 'Bee' }]);
  });

  it('makes nothing a duplicate when the user has none of the contacts', () => {
    const { candidates } = directoryCandidates(ALICE, [entry('a', 'a@x.example')], createdAt);
    expect(splitExisting(candidates, new Set(['someone-else']))).toEqual({ fresh: candidates, duplicates: [] });
  });
});

describe('the allowance (spec §6: 5 additions in total on the free tier)', () => {
  it('takes additions up to the limit and not one more', () => {
    expect(allowsAdding({ used: 3, limit: 5 }, 2)).toBe(true);
    expect(allowsAdding({ used: 3, limit: 5 }, 3)).toBe(false);
    expect(allowsAdding({ used: 0, limit: 5 }, 5)).toBe(true);
    expect(allowsAdding({ used: 0, limit: 5 }, 6)).toBe(false);
    expect(allowsAdding({ used: 5, limit: 5 }, 1)).toBe(false);
  });

  it('lets a transaction of n additions pass only while at most limit − n are used', () => {
    expect(maxUsedBeforeAdding(5, 2)).toBe(3);
    expect(maxUsedBeforeAdding(1000, 99)).toBe(901);
  });
});
