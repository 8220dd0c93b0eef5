import { directoryContactTypes, hasKnownLocation, type DirectoryContactType, type DirectoryEntry } from '../../../../schema/api/directory';
import { acceptsEmailDemos } from '../../../../schema/api/demoPolicyValues';
import { genres as genreOptions, type Genre } from '../../../../schema/api/options';

/** LabelFinder filter rules (spec §5), pure so they can be tested without the page. */

export interface DirectoryFilters {
  /** Case-insensitive substring of the name, email or description; blank matches everything. */
  search: string;
  /** Entries whose type is among these; none selected matches nothing. */
  types: readonly DirectoryContactType[];
  /** Entries having any of these genres; none selected matches everything. */
  genres: readonly Genre[];
  /** Only entries with a real location (not blank, 'unknown' or the 'Unknown Location' default). */
  withLocationOnly: boolean;
  /** Only entries whose demo policy says they take demos by email (issue 28 §2; no policy: not known to). */
  emailDemosOnly: boolean;
}

export const defaultFilters: DirectoryFilters = { search: '', types: directoryContactTypes, genres: [], withLocationOnly: false, emailDemosOnly: false };

export function matchesSearch(entry: DirectoryEntry, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  return [entry.name, entry.email, entry.description].some((field) => field.toLowerCase().includes(needle));
}

const matchesType = (entry: DirectoryEntry, types: readonly DirectoryContactType[]) => types.includes(entry.contact_type);

const matchesGenres = (entry: DirectoryEntry, genres: readonly Genre[]) => genres.length === 0 || entry.genres.some((genre) => genres.includes(genre));

const matchesLocation = (entry: DirectoryEntry, withLocationOnly: boolean) => !withLocationOnly || hasKnownLocation(entry.location);

const matchesEmailDemos = (entry: DirectoryEntry, emailDemosOnly: boolean) => !emailDemosOnly || acceptsEmailDemos(entry.demo_policy);

type FilterName = 'search' | 'types' | 'genres' | 'location' | 'emailDemos';

function matches(entry: DirectoryEntry, filters: DirectoryFilters, except?: FilterName): boolean {
  return (
    (except === 'search' || matchesSearch(entry, filters.search)) &&
    (except === 'types' || matchesType(entry, filters.types)) &&
    (except === 'genres' || matchesGenres(entry, filters.genres)) &&
    (except === 'location' || matchesLocation(entry, filters.withLocationOnly)) &&
    (except === 'emailDemos' || matchesEmailDemos(entry, filters.emailDemosOnly))
  );
}

/** The entries every filter keeps, in the directory's order. */
export function filterEntries(entries: readonly DirectoryEntry[], filters: DirectoryFilters): DirectoryEntry[] {
  return entries.filter((entry) => matches(entry, filters));
}

export interface Count<T> {
  value: T;
  count: number;
}

/**
 * Each type with the number of entries the other filters keep that have it: what ticking that type
 * alone would show.
 */
export function typeCounts(entries: readonly DirectoryEntry[], filters: DirectoryFilters): Count<DirectoryContactType>[] {
  const kept = entries.filter((entry) => matches(entry, filters, 'types'));
  return directoryContactTypes.map((value) => ({ value, count: kept.filter((entry) => entry.contact_type === value).length }));
}

/**
 * Every genre that occurs in the directory (in the option list's order, so the list does not reorder
 * as filters change), with the number of entries the other filters keep that have it.
 */
export function genreCounts(entries: readonly DirectoryEntry[], filters: DirectoryFilters): Count<Genre>[] {
  const present = new Set<Genre>();
  const counts = new Map<Genre, number>();
  for (const entry of entries) {
    const kept = matches(entry, filters, 'genres');
    for (const genre of entry.genres) {
      present.add(genre);
      if (kept) counts.set(genre, (counts.get(genre) ?? 0) + 1);
    }
  }
  return genreOptions.filter((genre) => present.has(genre)).map((value) => ({ value, count: counts.get(value) ?? 0 }));
}

/** Whether any filter narrows the list. */
export function filtersActive(filters: DirectoryFilters): boolean {
  return (
    filters.search.trim() !== '' ||
    filters.genres.length > 0 ||
    filters.withLocationOnly ||
    filters.emailDemosOnly ||
    directoryContactTypes.some((type) => !filters.types.includes(type))
  );
}

/** Featured entries and the rest, each in the directory's order (every entry is in exactly one). */
export function splitFeatured(entries: readonly DirectoryEntry[]): { featured: DirectoryEntry[]; others: DirectoryEntry[] } {
  const featured: DirectoryEntry[] = [];
  const others: DirectoryEntry[] = [];
  for (const entry of entries) (entry.is_featured ? featured : others).push(entry);
  return { featured, others };
}
