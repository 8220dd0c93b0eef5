import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { SavedContactList } from '../../../../schema/api/campaigns';
import { normaliseEmail, type Contact } from '../../../../schema/api/contacts';
import { contactTypes, type ContactType } from '../../../../schema/api/options';
import { listUnsubscribes } from '../../api/contacts';
import { useAuth } from '../../auth/AuthContext';
import { allContactTypes, filterContacts } from '../contacts/filters';
import { useContactList, type ContactListStatus } from '../contacts/useContactList';

/** Lower-cased name, email and label: what the recipient search reads (spec §2: name/email/label). */
const searchTextCache = new WeakMap<Contact, string>();
function searchText(contact: Contact): string {
  let text = searchTextCache.get(contact);
  if (text === undefined) {
    text = [contact.name, contact.email, contact.label_name ?? ''].join('\u0000').toLowerCase();
    searchTextCache.set(contact, text);
  }
  return text;
}

export interface Recipients {
  /** Every contact loaded so far, newest first. */
  contacts: readonly Contact[];
  status: ContactListStatus;
  /** Contacts loaded so far while later pages stream in; null otherwise. */
  streamed: number | null;
  reload: () => void;
  /** True once every page of contacts is in (a saved list can then be matched against all of them). */
  complete: boolean;
  /** Lower-cased addresses on the user's unsubscribed list: they are skipped when sending. */
  unsubscribed: ReadonlySet<string>;
  types: ReadonlySet<ContactType>;
  genres: ReadonlySet<string>;
  search: string;
  setTypes: (types: ReadonlySet<ContactType>) => void;
  setGenres: (genres: ReadonlySet<string>) => void;
  setSearch: (search: string) => void;
  /** Contacts matching the filters, in list order (newest first). */
  filtered: readonly Contact[];
  selectedIds: ReadonlySet<string>;
  /** The selected contacts that exist, in list order: the first is the one the AI preview is written for. */
  selected: readonly Contact[];
  toggle: (id: string, on: boolean) => void;
  selectAllFiltered: () => void;
  deselectAllFiltered: () => void;
  /** Applies a saved list's filters and selects its contacts that still exist; returns how many. */
  applySavedList: (list: SavedContactList) => number;
}

export const isUnsubscribed = (unsubscribed: ReadonlySet<string>, contact: Pick<Contact, 'email'>) => unsubscribed.has(normaliseEmail(contact.email));

/**
 * The Select Recipients state, kept by the page so that it survives a switch between AI and HTML mode:
 * the contacts (streamed in pages), the type / genre / search filters of spec §5, the selection and the
 * unsubscribed addresses. `initialSelectedIds`: the selection a kept compose session restores.
 */
export function useRecipients(initialSelectedIds: readonly string[] = []): Recipients {
  const { api } = useAuth();
  const { contacts, status, streamed, reload } = useContactList();
  const [types, setTypes] = useState<ReadonlySet<ContactType>>(allContactTypes);
  const [genres, setGenres] = useState<ReadonlySet<string>>(new Set());
  const [search, setSearch] = useState('');
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(() => new Set(initialSelectedIds));
  const [unsubscribed, setUnsubscribed] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    const controller = new AbortController();
    listUnsubscribes(api, { signal: controller.signal }).then(
      (rows) => {
        if (!controller.signal.aborted) setUnsubscribed(new Set(rows.map((row) => normaliseEmail(row.contact_email))));
      },
      // Only the badges go missing: the server skips unsubscribed addresses when sending anyway.
      () => {},
    );
    return () => controller.abort();
  }, [api]);

  // Typing stays responsive with thousands of contacts: the list follows the search a moment later.
  const deferredSearch = useDeferredValue(search);
  const filtered = useMemo(() => {
    const byTypeAndGenre = filterContacts(contacts, { types, genres, search: '' });
    const needle = deferredSearch.trim().toLowerCase();
    return needle === '' ? byTypeAndGenre : byTypeAndGenre.filter((contact) => searchText(contact).includes(needle));
  }, [contacts, types, genres, deferredSearch]);

  const selected = useMemo(() => contacts.filter((contact) => selectedIds.has(contact.id)), [contacts, selectedIds]);

  const toggle = useCallback((id: string, on: boolean) => {
    setSelectedIds((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const selectAllFiltered = useCallback(() => {
    setSelectedIds((current) => {
      const next = new Set(current);
      for (const contact of filtered) next.add(contact.id);
      return next;
    });
  }, [filtered]);

  const deselectAllFiltered = useCallback(() => {
    setSelectedIds((current) => {
      const next = new Set(current);
      for (const contact of filtered) next.delete(contact.id);
      return next;
    });
  }, [filtered]);

  const applySavedList = useCallback(
    (saved: SavedContactList) => {
      const existing = new Set(contacts.map((contact) => contact.id));
      const ids = saved.contact_ids.filter((id) => existing.has(id));
      setTypes(new Set(contactTypes.filter((type) => saved.contact_types.includes(type))));
      setGenres(new Set(saved.selected_genres));
      setSearch('');
      setSelectedIds(new Set(ids));
      return ids.length;
    },
    [contacts],
  );

  // One object per change, so the card (memoised) skips renders caused by typing in the track form.
  const complete = status === 'ready' && streamed === null;
  return useMemo(
    () => ({
      contacts,
      status,
      streamed,
      reload,
      complete,
      unsubscribed,
      types,
      genres,
      search,
      setTypes,
      setGenres,
      setSearch,
      filtered,
      selectedIds,
      selected,
      toggle,
      selectAllFiltered,
      deselectAllFiltered,
      applySavedList,
    }),
    [
      contacts,
      status,
      streamed,
      reload,
      complete,
      unsubscribed,
      types,
      genres,
      search,
      filtered,
      selectedIds,
      selected,
      toggle,
      selectAllFiltered,
      deselectAllFiltered,
      applySavedList,
    ],
  );
}
