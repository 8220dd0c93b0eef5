import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards, { type CardsProps } from '@cloudscape-design/components/cards';
import { listenAnswerLabels } from '../../../../schema/api/listenValues';
import Checkbox from '@cloudscape-design/components/checkbox';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import TextFilter from '@cloudscape-design/components/text-filter';
import TokenGroup from '@cloudscape-design/components/token-group';
import { memo, useCallback, useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import { contactMessages, type Contact } from '../../../../schema/api/contacts';
import { contactTypes, type ContactType } from '../../../../schema/api/options';
import { CheckboxFilter, FiltersSection } from '../../components/FiltersSection';
import { listPagination, pageOf } from '../../components/ListPagination';
import styles from './contacts.module.css';
import { ContactEmails } from './ContactEmails';
import { ContactTracks } from './ContactTracks';
import { DeleteContactsModal, type DeleteTarget } from './DeleteContactsModal';
import { allContactTypes, contactTypeBadgeColors, countByType, filterContacts, genreOptions, splitGenres, type GenreOption } from './filters';
import type { ContactList } from './useContactList';

/** Cards per page: the list can hold 10,000 contacts, the page renders only these. */
export const CONTACTS_PAGE_SIZE = 30;

const cardsPerRow: CardsProps.CardsLayout[] = [{ cards: 1 }, { minWidth: 600, cards: 2 }, { minWidth: 960, cards: 3 }];

/** Names a contact in control labels: the email too, since two contacts may share a name. */
const contactLabel = (contact: Contact) => `${contact.name} (${contact.email})`;

// Memoised: a selection change re-renders the Cards, not what is inside each card.
const ContactCardHeader = memo(function ContactCardHeader({
  contact,
  onEdit,
  onDelete,
}: {
  contact: Contact;
  onEdit: (c: Contact) => void;
  onDelete: (c: Contact) => void;
}) {
  return (
    <div className={styles.cardHeader}>
      <div className={styles.cardHeading}>
        <span className={styles.cardTitle}>{contact.name}</span>
        <Badge color={contactTypeBadgeColors[contact.contact_type]}>{contact.contact_type}</Badge>
      </div>
      <div className={styles.cardActions}>
        <Button variant="icon" iconName="edit" ariaLabel={`Edit ${contactLabel(contact)}`} onClick={() => onEdit(contact)} />
        <Button variant="icon" iconName="remove" ariaLabel={`Delete ${contactLabel(contact)}`} onClick={() => onDelete(contact)} />
      </div>
    </div>
  );
});

const ContactCardBody = memo(function ContactCardBody({ contact }: { contact: Contact }) {
  const genres = splitGenres(contact.genre);
  return (
    <SpaceBetween size="xxs">
      <span className={styles.breakAnywhere}>{contact.email}</span>
      {contact.label_name && <span className={styles.breakAnywhere}>{contact.label_name}</span>}
      {contact.position && <Box color="text-body-secondary">{contact.position}</Box>}
      {genres.length > 0 && (
        <div className={styles.badges}>
          {genres.map((genre, i) => (
            <Badge key={`${genre}-${i}`}>{genre}</Badge>
          ))}
        </div>
      )}
      {contact.notes && (
        <p className={styles.notes} title={contact.notes}>
          {contact.notes}
        </p>
      )}
      {contact.last_answer && (
        <Box variant="small">
          <strong>{`Answered: ${listenAnswerLabels[contact.last_answer.answer]}`}</strong>
          {` on ${contact.last_answer.track_name}`}
          {contact.last_answer.note && <span className={styles.breakAnywhere}>{` — “${contact.last_answer.note}”`}</span>}
        </Box>
      )}
    </SpaceBetween>
  );
});

const FiltersPanel = memo(function FiltersPanel({
  typeCounts,
  types,
  onTypesChange,
  genres,
  selectedGenres,
  onGenreToggle,
}: {
  typeCounts: Record<ContactType, number>;
  types: ReadonlySet<ContactType>;
  onTypesChange: (types: ReadonlySet<ContactType>) => void;
  genres: readonly GenreOption[];
  selectedGenres: ReadonlySet<string>;
  onGenreToggle: (key: string, on: boolean) => void;
}) {
  const typeOptions = useMemo(() => contactTypes.map((type) => ({ key: type, label: type, count: typeCounts[type] })), [typeCounts]);
  const toggleType = (type: ContactType, on: boolean) => {
    const next = new Set(types);
    if (on) next.add(type);
    else next.delete(type);
    onTypesChange(next);
  };
  return (
    <FiltersSection>
      <CheckboxFilter label="Contact type" options={typeOptions} isChecked={(type) => types.has(type)} onToggle={toggleType} />
      <CheckboxFilter
        label="Genres"
        options={genres}
        isChecked={(key) => selectedGenres.has(key)}
        onToggle={onGenreToggle}
        empty="No genres yet"
        listClassName={styles.genreList}
      />
    </FiltersSection>
  );
});

type EmptyKind = 'failed' | 'none' | 'search' | 'filters';

const EmptyState = memo(function EmptyState({
  kind,
  search,
  onRetry,
  onAddFirst,
  onClearSearch,
  onResetFilters,
}: {
  kind: EmptyKind;
  search: string;
  onRetry: () => void;
  onAddFirst: () => void;
  onClearSearch: () => void;
  onResetFilters: () => void;
}) {
  const [title, detail, action, onAction] = {
    failed: [contactMessages.loadFailed, null, 'Retry', onRetry],
    none: ['No contacts yet', 'Add contacts one by one or import them from a CSV file.', 'Add Your First Contact', onAddFirst],
    search: [`No contacts found matching "${search}"`, null, 'Clear Search', onClearSearch],
    filters: ['No contacts match the selected filters', null, 'Reset Filters', onResetFilters],
  }[kind] as [string, string | null, string, () => void];
  return (
    <Box textAlign="center" color="inherit" padding="l">
      <SpaceBetween size="s">
        <b>{title}</b>
        {detail && (
          <Box variant="p" color="inherit">
            {detail}
          </Box>
        )}
        <Button onClick={onAction}>{action}</Button>
      </SpaceBetween>
    </Box>
  );
});

/**
 * One page of cards. Memoised: typing in the search, a toast or the select-all bar re-render the tab,
 * and the cards (the costly part) only re-render when their page, selection or state changes.
 */
const ContactCards = memo(function ContactCards({
  items,
  selectedItems,
  onPageSelection,
  onEdit,
  onDelete,
  loading,
  empty,
  firstIndex,
  total,
  currentPage,
  pagesCount,
  onPageChange,
}: {
  items: readonly Contact[];
  selectedItems: readonly Contact[];
  onPageSelection: (items: readonly Contact[], selected: readonly Contact[]) => void;
  onEdit: (contact: Contact) => void;
  onDelete: (contact: Contact) => void;
  loading: boolean;
  empty: ReactNode;
  firstIndex: number;
  total: number;
  currentPage: number;
  pagesCount: number;
  onPageChange: (page: number) => void;
}) {
  const cardDefinition = useMemo<CardsProps.CardDefinition<Contact>>(
    () => ({
      header: (contact) => <ContactCardHeader contact={contact} onEdit={onEdit} onDelete={onDelete} />,
      sections: [
        { id: 'details', content: (contact) => <ContactCardBody contact={contact} /> },
        // Issue 27 §2: the zone the contact's working hours are read in ('Not set': the artist's own).
        { id: 'time_zone', header: 'Time zone', content: (contact) => contact.time_zone ?? 'Not set' },
        // Issue 27 §1: the emails sent to the contact, where the artist marks one "Replied".
        { id: 'emails', content: (contact) => <ContactEmails contact={contact} /> },
        // Issue 28 §1: every track pitched to the contact, with its stage.
        { id: 'tracks', content: (contact) => <ContactTracks contact={contact} /> },
      ],
    }),
    [onEdit, onDelete],
  );
  return (
    <Cards
      items={items}
      trackBy="id"
      cardsPerRow={cardsPerRow}
      selectionType="multi"
      selectedItems={selectedItems}
      onSelectionChange={({ detail }) => onPageSelection(items, detail.selectedItems)}
      loading={loading}
      loadingText="Loading contacts"
      empty={empty}
      ariaLabels={{
        cardsLabel: 'Contacts',
        // Cloudscape puts the group label before each item's label; the item's label says it all.
        selectionGroupLabel: '',
        itemSelectionLabel: (_state, contact) => `Select ${contactLabel(contact)}`,
      }}
      renderAriaLive={({ firstIndex: first, lastIndex }) => `Displaying contacts ${first} to ${lastIndex} of ${total}`}
      firstIndex={firstIndex}
      totalItemsCount={total}
      cardDefinition={cardDefinition}
      pagination={listPagination({ currentPage, pagesCount, onChange: onPageChange, label: 'Contact pages' })}
    />
  );
});

/** 'Showing X of Y contacts'; while later pages are still loading Y is not the total yet, and it says so. */
const showingText = (shown: number, total: number, stillLoading: boolean) =>
  `Showing ${shown.toLocaleString()} of ${total.toLocaleString()}${stillLoading ? '… contacts (still loading)' : ' contacts'}`;

/**
 * The Contacts tab (spec §2): type and genre filters with counts, search, 'Showing X of Y contacts',
 * select-all over the filtered list and Delete Selected, and the contacts as cards, 30 per page.
 */
export function ContactsList({ list, onEdit, onAddFirst }: { list: ContactList; onEdit: (contact: Contact) => void; onAddFirst: () => void }) {
  const { contacts, status, streamed, reload, remove } = list;
  const [types, setTypes] = useState<ReadonlySet<ContactType>>(allContactTypes);
  const [selectedGenres, setSelectedGenres] = useState<ReadonlySet<string>>(new Set());
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [deleteTarget, setDeleteTarget] = useState<DeleteTarget | null>(null);

  // Typing stays responsive on a 10,000-contact list: the cards follow the search a moment later.
  const deferredSearch = useDeferredValue(search);
  const typeCounts = useMemo(() => countByType(contacts), [contacts]);
  const genres = useMemo(() => genreOptions(contacts), [contacts]);
  const genreLabels = useMemo(() => new Map(genres.map((genre) => [genre.key, genre.label])), [genres]);
  const filtered = useMemo(
    () => filterContacts(contacts, { types, genres: selectedGenres, search: deferredSearch }),
    [contacts, types, selectedGenres, deferredSearch],
  );
  // Ids selected and still in the list (a deleted or re-keyed contact drops out by itself).
  const selectedIds = useMemo(() => contacts.filter((contact) => selected.has(contact.id)).map((contact) => contact.id), [contacts, selected]);
  const filteredSelected = useMemo(() => filtered.reduce((n, contact) => n + (selected.has(contact.id) ? 1 : 0), 0), [filtered, selected]);

  const { items: pageItems, currentPage, pagesCount } = useMemo(() => pageOf(filtered, page, CONTACTS_PAGE_SIZE), [filtered, page]);
  const pageSelection = useMemo(() => pageItems.filter((contact) => selected.has(contact.id)), [pageItems, selected]);

  const changeTypes = useCallback((next: ReadonlySet<ContactType>) => {
    setTypes(next);
    setPage(1);
  }, []);
  const toggleGenre = useCallback((key: string, on: boolean) => {
    setSelectedGenres((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
    setPage(1);
  }, []);
  const clearGenres = () => {
    setSelectedGenres(new Set());
    setPage(1);
  };
  const changeSearch = useCallback((text: string) => {
    setSearch(text);
    setPage(1);
  }, []);
  const clearSearch = useCallback(() => changeSearch(''), [changeSearch]);
  const resetFilters = useCallback(() => {
    setTypes(allContactTypes);
    setSelectedGenres(new Set());
    setSearch('');
    setPage(1);
  }, []);

  const allFilteredSelected = filtered.length > 0 && filteredSelected === filtered.length;
  const toggleAll = (on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const contact of filtered) {
        if (on) next.add(contact.id);
        else next.delete(contact.id);
      }
      return next;
    });

  const onPageSelection = useCallback(
    (items: readonly Contact[], pageSelected: readonly Contact[]) =>
      setSelected((current) => {
        const next = new Set(current);
        for (const contact of items) next.delete(contact.id);
        for (const contact of pageSelected) next.add(contact.id);
        return next;
      }),
    [],
  );

  const onRemoved = useCallback(
    (ids: ReadonlySet<string>) => {
      remove(ids);
      setSelected((current) => new Set([...current].filter((id) => !ids.has(id))));
    },
    [remove],
  );

  const onDelete = useCallback((contact: Contact) => setDeleteTarget({ kind: 'single', contact }), []);

  const emptyKind: EmptyKind =
    status === 'failed' && contacts.length === 0 ? 'failed' : contacts.length === 0 ? 'none' : deferredSearch.trim() !== '' ? 'search' : 'filters';
  const emptySearch = deferredSearch.trim();
  const empty = useMemo(
    () => (
      <EmptyState kind={emptyKind} search={emptySearch} onRetry={reload} onAddFirst={onAddFirst} onClearSearch={clearSearch} onResetFilters={resetFilters} />
    ),
    [emptyKind, emptySearch, reload, onAddFirst, clearSearch, resetFilters],
  );

  const loading = status === 'loading';

  return (
    <div className={styles.listContainer}>
      <div className={styles.listLayout}>
        <div className={styles.filtersColumn}>
          <FiltersPanel
            typeCounts={typeCounts}
            types={types}
            onTypesChange={changeTypes}
            genres={genres}
            selectedGenres={selectedGenres}
            onGenreToggle={toggleGenre}
          />
        </div>
        <div className={styles.cardsColumn}>
          <SpaceBetween size="m">
            {status === 'failed' && contacts.length > 0 && (
              <Alert type="error" header={contactMessages.loadFailed} action={<Button onClick={reload}>Retry</Button>}>
                Some of your contacts could not be loaded, so the list below is incomplete.
              </Alert>
            )}
            <div className={styles.searchBar}>
              <div className={styles.search}>
                <TextFilter
                  filteringText={search}
                  onChange={({ detail }) => changeSearch(detail.filteringText)}
                  filteringPlaceholder="Search name, email, label, position or genre"
                  filteringAriaLabel="Search contacts"
                  filteringClearAriaLabel="Clear search"
                />
              </div>
              {!loading && (
                <Box color="text-body-secondary" variant="span">
                  <span aria-live="polite">{showingText(filtered.length, contacts.length, streamed !== null)}</span>
                </Box>
              )}
            </div>
            {selectedGenres.size > 0 && (
              <div className={styles.chips} role="group" aria-label="Selected genres">
                <TokenGroup
                  items={[...selectedGenres].map((key) => ({ label: genreLabels.get(key) ?? key, dismissLabel: `Remove ${genreLabels.get(key) ?? key}` }))}
                  onDismiss={({ detail }) => {
                    const key = [...selectedGenres][detail.itemIndex];
                    if (key !== undefined) toggleGenre(key, false);
                  }}
                />
                <Button variant="inline-link" onClick={clearGenres}>
                  Clear all
                </Button>
              </div>
            )}
            <div className={styles.selectionBar}>
              <Checkbox
                checked={allFilteredSelected}
                indeterminate={filteredSelected > 0 && !allFilteredSelected}
                disabled={filtered.length === 0}
                onChange={({ detail }) => toggleAll(detail.checked)}
              >
                Select all
              </Checkbox>
              {selectedIds.length > 0 && (
                <>
                  <span aria-live="polite">{`${selectedIds.length.toLocaleString()} selected`}</span>
                  <Button iconName="remove" onClick={() => setDeleteTarget({ kind: 'bulk', ids: selectedIds })}>
                    Delete Selected
                  </Button>
                </>
              )}
              {streamed !== null && <StatusIndicator type="loading">{`Loading more contacts… ${streamed.toLocaleString()} loaded`}</StatusIndicator>}
            </div>
            <ContactCards
              items={pageItems}
              selectedItems={pageSelection}
              onPageSelection={onPageSelection}
              onEdit={onEdit}
              onDelete={onDelete}
              loading={loading}
              empty={empty}
              firstIndex={(currentPage - 1) * CONTACTS_PAGE_SIZE + 1}
              total={filtered.length}
              currentPage={currentPage}
              pagesCount={pagesCount}
              onPageChange={setPage}
            />
          </SpaceBetween>
        </div>
      </div>
      {deleteTarget && <DeleteContactsModal target={deleteTarget} onRemoved={onRemoved} onClose={() => setDeleteTarget(null)} />}
    </div>
  );
}
