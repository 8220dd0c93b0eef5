import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards, { type CardsProps } from '@cloudscape-design/components/cards';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { memo, useMemo } from 'react';
import { isContactEmail } from '../../../../schema/api/contacts';
import { cannotAddMessage, type DirectoryEntry } from '../../../../schema/api/directory';
import { demoPolicySummary } from '../../../../schema/api/demoPolicyValues';
import { normaliseWebsite } from '../../../../schema/api/links';
import { genreLabels } from '../../../../schema/api/options';
import { listPagination, pageOf } from '../../components/ListPagination';
import styles from './labelfinder.module.css';

/** Cards per page of a section: divisible by the 1, 2 and 3 cards a row holds. */
export const CARDS_PAGE_SIZE = 24;

export type EntryState = 'addable' | 'adding' | 'added' | 'no-email';

/** What a card's button offers: already a contact wins over having no email (it came in some other way). */
export function entryState(entry: DirectoryEntry, added: ReadonlySet<string>, adding: ReadonlySet<string>): EntryState {
  if (added.has(entry.id)) return 'added';
  if (!isContactEmail(entry.email)) return 'no-email';
  return adding.has(entry.id) ? 'adding' : 'addable';
}

// A card's controls name their entry, and each name starts with the control's visible text (WCAG 2.5.3
// Label in Name): a speech-input user says what they see, "Add to Contacts" or "Visit website".
const addLabel = (entry: DirectoryEntry) => `Add to Contacts: ${entry.name}`;

const AddButton = memo(function AddButton({
  entry,
  state,
  disabled,
  onAdd,
}: {
  entry: DirectoryEntry;
  state: EntryState;
  disabled: boolean;
  onAdd: (entry: DirectoryEntry) => void;
}) {
  if (state === 'added') {
    return (
      <Button iconName="status-positive" disabled disabledReason={`${entry.name} is in your contacts.`}>
        Added
      </Button>
    );
  }
  if (state === 'no-email') {
    return (
      <Button disabled disabledReason={cannotAddMessage(entry)} ariaLabel={addLabel(entry)}>
        Add to Contacts
      </Button>
    );
  }
  return (
    <Button iconName="add-plus" loading={state === 'adding'} disabled={disabled} ariaLabel={addLabel(entry)} onClick={() => onAdd(entry)}>
      Add to Contacts
    </Button>
  );
});

// Card parts are memoised components: Cards re-renders every card whenever anything on the page
// changes (a keystroke in the search, a selection, a toast), and only the button depends on that.

const TypeBadges = memo(function TypeBadges({ entry }: { entry: DirectoryEntry }) {
  return (
    <SpaceBetween direction="horizontal" size="xs">
      <Badge color={entry.contact_type === 'DJ' ? 'green' : 'blue'}>{entry.contact_type}</Badge>
      {entry.is_featured && <Badge color="severity-low">Featured</Badge>}
    </SpaceBetween>
  );
});

const Facts = memo(function Facts({ entry }: { entry: DirectoryEntry }) {
  return (
    <KeyValuePairs
      columns={2}
      items={[
        { label: 'Location', value: entry.location },
        { label: 'Label size', value: entry.label_size },
      ]}
    />
  );
});

const Genres = memo(function Genres({ entry }: { entry: DirectoryEntry }) {
  if (entry.genres.length === 0) return <Box color="text-body-secondary">No genres listed</Box>;
  return (
    <ul className={styles.badges} aria-label={`${entry.name} genres`}>
      {entry.genres.map((genre) => (
        <li key={genre}>
          <Badge>{genreLabels[genre]}</Badge>
        </li>
      ))}
    </ul>
  );
});

const Text = memo(function Text({ value }: { value: string }) {
  return <Box variant="p">{value}</Box>;
});

/** The entry's demo policy in plain words, with the page of a label that takes demos only through a form or platform. */
const DemoPolicyText = memo(function DemoPolicyText({ entry }: { entry: DirectoryEntry }) {
  const policy = entry.demo_policy;
  if (!policy) return <Box color="text-body-secondary">Not listed</Box>;
  const href = policy.submit_by === 'email' ? null : normaliseWebsite(policy.submit_url);
  return (
    <SpaceBetween size="xxs">
      <Box variant="p">{demoPolicySummary(policy)}</Box>
      {href && (
        <Link href={href} external target="_blank" rel="noopener noreferrer" ariaLabel={`Submission page: ${entry.name} (opens in a new tab)`}>
          Submission page
        </Link>
      )}
    </SpaceBetween>
  );
});

const Website = memo(function Website({ entry }: { entry: DirectoryEntry }) {
  // Only an http(s) link: a javascript: or data: 'website' in the data is never made clickable.
  const href = normaliseWebsite(entry.website_url);
  if (!href) return <Box color="text-body-secondary">No website</Box>;
  return (
    <Link href={href} external target="_blank" rel="noopener noreferrer" ariaLabel={`Visit website: ${entry.name} (opens in a new tab)`}>
      Visit website
    </Link>
  );
});

export interface DirectorySectionProps {
  title: string;
  /** All entries of this section the filters keep. */
  entries: readonly DirectoryEntry[];
  page: number;
  onPageChange: (page: number) => void;
  selected: ReadonlySet<string>;
  /** Sets the selection of these entries (the current page's) to exactly `selectedIds` among them. */
  onSelectionChange: (pageEntries: readonly DirectoryEntry[], selectedIds: ReadonlySet<string>) => void;
  added: ReadonlySet<string>;
  adding: ReadonlySet<string>;
  /** True while a bulk add runs: single adds wait for it. */
  busy: boolean;
  onAdd: (entry: DirectoryEntry) => void;
}

/** One of the page's sections (Featured Contacts, All Contacts): a paged grid of entry cards. */
export function DirectorySection({ title, entries, page, onPageChange, selected, onSelectionChange, added, adding, busy, onAdd }: DirectorySectionProps) {
  const { items, currentPage, pagesCount } = useMemo(() => pageOf(entries, page, CARDS_PAGE_SIZE), [entries, page]);
  const selectedItems = useMemo(() => items.filter((entry) => selected.has(entry.id)), [items, selected]);

  const cardDefinition = useMemo<CardsProps.CardDefinition<DirectoryEntry>>(
    () => ({
      header: (entry) => (
        <Box variant="h3" padding="n">
          {entry.name}
        </Box>
      ),
      sections: [
        { id: 'type', content: (entry) => <TypeBadges entry={entry} /> },
        { id: 'facts', content: (entry) => <Facts entry={entry} /> },
        { id: 'genres', header: 'Genres', content: (entry) => <Genres entry={entry} /> },
        { id: 'description', content: (entry) => <Text value={entry.description} /> },
        { id: 'policy', header: 'Demo policy', content: (entry) => <DemoPolicyText entry={entry} /> },
        { id: 'guidelines', header: 'Submission guidelines', content: (entry) => <Text value={entry.submission_guidelines} /> },
        {
          id: 'actions',
          content: (entry) => (
            <div className={styles.cardActions}>
              <Website entry={entry} />
              <AddButton entry={entry} state={entryState(entry, added, adding)} disabled={busy} onAdd={onAdd} />
            </div>
          ),
        },
      ],
    }),
    [added, adding, busy, onAdd],
  );

  return (
    <Cards
      items={items}
      trackBy="id"
      cardDefinition={cardDefinition}
      cardsPerRow={[{ cards: 1 }, { minWidth: 560, cards: 2 }, { minWidth: 900, cards: 3 }]}
      selectionType="multi"
      selectedItems={selectedItems}
      isItemDisabled={(entry) => busy || entryState(entry, added, adding) !== 'addable'}
      onSelectionChange={({ detail }) => onSelectionChange(items, new Set(detail.selectedItems.map((entry) => entry.id)))}
      ariaLabels={{
        itemSelectionLabel: (_state, entry) => `Select ${entry.name}`,
        // Cards prefixes every item's label with this one; empty keeps each checkbox named 'Select <name>'.
        selectionGroupLabel: '',
        cardsLabel: title,
      }}
      header={
        <Header variant="h2" counter={`(${entries.length})`}>
          {title}
        </Header>
      }
      pagination={listPagination({ currentPage, pagesCount, onChange: onPageChange, label: `${title} pages`, listName: title })}
    />
  );
}
