import { contactTypes, type ContactType } from '../../../../schema/api/options';
import type { BadgeProps } from '@cloudscape-design/components/badge';
import type { Contact } from '../../../../schema/api/contacts';

/**
 * The contact filters of spec §2 and §5, pure so they can be tested alone and reused by the Compose
 * recipient picker: the type filter keeps contacts whose type is selected; the genre filter keeps
 * contacts having any selected genre (none selected: no genre filter); the search is a case-insensitive
 * substring of name, email, label, position or genre. Genres are the comma-separated parts of a
 * contact's `genre`, trimmed, grouped case-insensitively.
 */

/** What the filters read of a contact (the Compose picker's rows have no position). */
export type FilterableContact = Pick<Contact, 'name' | 'email' | 'label_name' | 'contact_type' | 'genre'> & {
  position?: string | null;
};

export interface ContactFilters {
  types: ReadonlySet<ContactType>;
  /** Genre keys (see genreKey); empty: every genre. */
  genres: ReadonlySet<string>;
  search: string;
}

export const allContactTypes: ReadonlySet<ContactType> = new Set(contactTypes);

export const defaultContactFilters: ContactFilters = { types: allContactTypes, genres: new Set(), search: '' };

/** The key genres are grouped by: 'House', ' house ' and 'HOUSE' are one genre. */
export const genreKey = (genre: string) => genre.trim().toLowerCase();

/** A contact's genres as typed, split on commas and trimmed, blanks dropped. */
export function splitGenres(genre: string | null | undefined): string[] {
  if (!genre) return [];
  return genre
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

interface Derived {
  /** Lower-cased name, email, label, position and genre, joined by a character no one types. */
  text: string;
  genreKeys: ReadonlySet<string>;
}

// Built once per contact object: a 10,000-contact list is filtered on every keystroke, and the list
// keeps the same objects until a contact changes (an edit makes a new object, so nothing goes stale).
const derivedCache = new WeakMap<FilterableContact, Derived>();

function derived(contact: FilterableContact): Derived {
  let value = derivedCache.get(contact);
  if (!value) {
    value = {
      text: [contact.name, contact.email, contact.label_name, contact.position, contact.genre]
        .filter((part): part is string => typeof part === 'string')
        .join('\u0000')
        .toLowerCase(),
      genreKeys: new Set(splitGenres(contact.genre).map(genreKey)),
    };
    derivedCache.set(contact, value);
  }
  return value;
}

/** The contact's genre keys, each once. */
export const contactGenreKeys = (contact: FilterableContact): ReadonlySet<string> => derived(contact).genreKeys;

export function matchesSearch(contact: FilterableContact, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return needle === '' || derived(contact).text.includes(needle);
}

export function matchesFilters(contact: FilterableContact, { types, genres, search }: ContactFilters): boolean {
  if (!types.has(contact.contact_type)) return false;
  if (genres.size > 0) {
    const keys = derived(contact).genreKeys;
    let any = false;
    for (const key of genres) {
      if (keys.has(key)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return matchesSearch(contact, search);
}

export function filterContacts<T extends FilterableContact>(contacts: readonly T[], filters: ContactFilters): T[] {
  return contacts.filter((contact) => matchesFilters(contact, filters));
}

/** How many contacts have each type (over the whole list, so the counts do not jump while filtering). */
export function countByType(contacts: readonly FilterableContact[]): Record<ContactType, number> {
  const counts = Object.fromEntries(contactTypes.map((type) => [type, 0])) as Record<ContactType, number>;
  for (const contact of contacts) counts[contact.contact_type] += 1;
  return counts;
}

export interface GenreOption {
  key: string;
  /** The genre's most used spelling (the first seen, newest contact first, on a tie), e.g. 'Deep House'. */
  label: string;
  /** Contacts having this genre. */
  count: number;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Every genre of the list with how many contacts have it, alphabetically. */
export function genreOptions(contacts: readonly FilterableContact[]): GenreOption[] {
  const groups = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const contact of contacts) {
    const seen = new Set<string>();
    for (const genre of splitGenres(contact.genre)) {
      const key = genreKey(genre);
      let group = groups.get(key);
      if (!group) {
        group = { count: 0, spellings: new Map() };
        groups.set(key, group);
      }
      group.spellings.set(genre, (group.spellings.get(genre) ?? 0) + 1);
      if (!seen.has(key)) {
        seen.add(key);
        group.count += 1;
      }
    }
  }
  const options: GenreOption[] = [];
  for (const [key, { count, spellings }] of groups) {
    let label = '';
    let uses = 0;
    // Map order is insertion order, so a later spelling wins only with strictly more uses.
    for (const [spelling, n] of spellings) {
      if (n > uses) {
        label = spelling;
        uses = n;
      }
    }
    options.push({ key, label, count });
  }
  return options.sort((a, b) => collator.compare(a.label, b.label));
}

/** The badge colour of each contact type, the same on the Contacts page and in Compose's recipient list. */
export const contactTypeBadgeColors: Record<ContactType, BadgeProps['color']> = { Label: 'blue', DJ: 'green', Fan: 'grey' };
