import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Multiselect, { type MultiselectProps } from '@cloudscape-design/components/multiselect';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { memo, useEffect, useMemo, useState } from 'react';
import { composeMessages, type SavedContactList } from '../../../../schema/api/campaigns';
import { contactMessages, type Contact } from '../../../../schema/api/contacts';
import { contactTypes, type ContactType } from '../../../../schema/api/options';
import { errorMessage } from '../../api/client';
import { listContactLists } from '../../api/campaigns';
import { useAuth } from '../../auth/AuthContext';
import { CheckboxFilter, FilterGroup } from '../../components/FiltersSection';
import { useFollow } from '../../components/useFollow';
import { useNotifications } from '../../notifications/NotificationsContext';
import { contactTypeBadgeColors, countByType, genreOptions } from '../contacts/filters';
import styles from './compose.module.css';
import { SaveListModal } from './SaveListModal';
import { isUnsubscribed, type Recipients } from './useRecipients';
import type { PitchNote } from './useTrackPitches';

/** Rows rendered at once: the list may hold thousands of contacts, the page keeps its DOM small. */
export const RECIPIENT_ROWS_STEP = 100;

/** 'N contacts match your filters (M selected)' (spec §2). */
export const matchLine = (matching: number, selected: number) =>
  `${matching.toLocaleString()} contacts match your filters (${selected.toLocaleString()} selected)`;

// Memoised: ticking one row re-renders that row, not the hundred around it.
const RecipientRow = memo(function RecipientRow({
  contact,
  checked,
  unsubscribed,
  pitchNote,
  onToggle,
}: {
  contact: Contact;
  checked: boolean;
  unsubscribed: boolean;
  /** What the contact did with the track being composed: passed on it, or received it. */
  pitchNote: PitchNote | undefined;
  onToggle: (id: string, on: boolean) => void;
}) {
  return (
    <li className={styles.recipientRow}>
      <Checkbox
        checked={checked}
        onChange={({ detail }) => onToggle(contact.id, detail.checked)}
        // The checkbox's description: read with it, so the row stays one stop for the keyboard.
        description={pitchNote && <StatusIndicator type={pitchNote.kind === 'passed' ? 'warning' : 'info'}>{pitchNote.text}</StatusIndicator>}
      >
        {/* The spaces keep the words apart in the checkbox's accessible name. */}
        <span className={styles.recipientText}>
          <span className={styles.recipientName}>{contact.name}</span> <span className={styles.recipientDetail}>{contact.email}</span>{' '}
          {contact.label_name && <span className={styles.recipientDetail}>{contact.label_name}</span>}{' '}
          <span className={styles.recipientBadges}>
            <Badge color={contactTypeBadgeColors[contact.contact_type]}>{contact.contact_type}</Badge> {unsubscribed && <Badge color="red">Unsubscribed</Badge>}
          </span>
        </span>
      </Checkbox>
    </li>
  );
});

function EmptyList({ kind, onRetry }: { kind: 'failed' | 'none' | 'filters'; onRetry: () => void }) {
  const follow = useFollow();
  if (kind === 'failed') {
    return (
      <Box textAlign="center" padding="m">
        <SpaceBetween size="s">
          <b>{contactMessages.loadFailed}</b>
          <Button onClick={onRetry}>Retry</Button>
        </SpaceBetween>
      </Box>
    );
  }
  if (kind === 'filters') {
    return (
      <Box textAlign="center" padding="m">
        <b>No contacts match your filters</b>
      </Box>
    );
  }
  return (
    <Box textAlign="center" padding="m">
      <SpaceBetween size="xs">
        <b>No contacts found</b>
        <Box variant="p" color="text-body-secondary">
          Add contacts on the{' '}
          <Link href="/dashboard/contacts" onFollow={follow}>
            Contacts
          </Link>{' '}
          page or find labels and DJs in{' '}
          <Link href="/dashboard/labelfinder" onFollow={follow}>
            LabelFinder
          </Link>
          .
        </Box>
      </SpaceBetween>
    </Box>
  );
}

/**
 * The Select Recipients card (spec §2): Quick Load of saved lists, type and genre filters, search by
 * name, email or label, Select All / Deselect All Filtered, Save Contact List, and a scrolling list
 * of checkbox rows (unsubscribed addresses marked: they are skipped when sending; a contact who passed
 * on the track or already received it says so, issue 28 §2).
 */
export const RecipientsCard = memo(function RecipientsCard({
  recipients,
  pitchNotes,
}: {
  recipients: Recipients;
  /** By contact id, for the track being composed (useTrackPitchNotes); null while unknown. */
  pitchNotes: ReadonlyMap<string, PitchNote> | null;
}) {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const { contacts, status, streamed, complete, unsubscribed, types, genres, search, filtered, selectedIds, selected } = recipients;

  const [savedLists, setSavedLists] = useState<readonly SavedContactList[] | null>(null);
  const [savedListsError, setSavedListsError] = useState<string | null>(null);
  const [loadedListId, setLoadedListId] = useState<string | null>(null);
  const [saveListOpen, setSaveListOpen] = useState(false);
  const [rows, setRows] = useState<{ of: readonly Contact[]; count: number }>({ of: filtered, count: RECIPIENT_ROWS_STEP });

  useEffect(() => {
    const controller = new AbortController();
    listContactLists(api, { signal: controller.signal }).then(
      (lists) => {
        if (!controller.signal.aborted) setSavedLists(lists);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setSavedLists([]);
        setSavedListsError(errorMessage(error));
      },
    );
    return () => controller.abort();
  }, [api]);

  const typeCounts = useMemo(() => countByType(contacts), [contacts]);
  const typeOptions = useMemo(() => contactTypes.map((type) => ({ key: type, label: type, count: typeCounts[type] })), [typeCounts]);
  const genreChoices = useMemo<MultiselectProps.Option[]>(
    () => genreOptions(contacts).map((genre) => ({ value: genre.key, label: genre.label, labelTag: genre.count.toLocaleString() })),
    [contacts],
  );
  const selectedGenreOptions = useMemo(
    () => [...genres].map((key) => genreChoices.find((option) => option.value === key) ?? { value: key, label: key }),
    [genres, genreChoices],
  );
  const listOptions = useMemo<SelectProps.Option[]>(
    () =>
      (savedLists ?? []).map((saved) => ({
        value: saved.id,
        label: saved.name,
        description: `${saved.contact_ids.length.toLocaleString()} contacts`,
      })),
    [savedLists],
  );

  // The rows shown grow with 'Show more' and start over whenever the filtered list changes.
  const rowCount = rows.of === filtered ? rows.count : RECIPIENT_ROWS_STEP;
  const shownRows = filtered.slice(0, rowCount);

  const toggleType = (type: ContactType, on: boolean) => {
    const next = new Set(types);
    if (on) next.add(type);
    else next.delete(type);
    recipients.setTypes(next);
  };

  const quickLoad = (id: string | undefined) => {
    const saved = savedLists?.find((item) => item.id === id);
    if (!saved) return;
    setLoadedListId(saved.id);
    const count = recipients.applySavedList(saved);
    notify({ type: 'success', title: composeMessages.listLoaded, message: `"${saved.name}": ${count.toLocaleString()} contacts selected.` });
  };

  const emptyKind = status === 'failed' && contacts.length === 0 ? 'failed' : contacts.length === 0 ? 'none' : 'filters';

  return (
    <Container
      header={
        <Header
          variant="h2"
          actions={
            <Button iconName="file" onClick={() => setSaveListOpen(true)} disabled={status === 'loading'}>
              Save Contact List
            </Button>
          }
        >
          Select Recipients
        </Header>
      }
    >
      <SpaceBetween size="m">
        <FormField
          label="Quick Load"
          description="Apply a saved list's filters and selection."
          errorText={savedListsError ? `Your saved lists could not be loaded: ${savedListsError}` : undefined}
        >
          <Select
            selectedOption={listOptions.find((option) => option.value === loadedListId) ?? null}
            options={listOptions}
            placeholder="Choose a saved list"
            statusType={savedLists === null ? 'loading' : 'finished'}
            loadingText="Loading saved lists"
            empty="No saved lists yet"
            // A saved list is matched against every contact, so it waits for the last page.
            disabled={!complete}
            onChange={({ detail }) => quickLoad(detail.selectedOption.value)}
          />
        </FormField>
        <CheckboxFilter label="Contact type" options={typeOptions} isChecked={(type) => types.has(type)} onToggle={toggleType} />
        <FormField label="Genres">
          <Multiselect
            selectedOptions={selectedGenreOptions}
            options={genreChoices}
            placeholder="All genres"
            filteringType="auto"
            empty="No genres yet"
            tokenLimit={4}
            onChange={({ detail }) => recipients.setGenres(new Set(detail.selectedOptions.map((option) => option.value ?? '')))}
          />
        </FormField>
        <Input
          type="search"
          value={search}
          onChange={({ detail }) => recipients.setSearch(detail.value)}
          placeholder="Search by name, email or label"
          ariaLabel="Search recipients"
          clearAriaLabel="Clear search"
        />
        <FilterGroup label="Selection">
          <div className={styles.selectionBar}>
            <Box variant="span">
              <span aria-live="polite">{matchLine(filtered.length, selected.length)}</span>
            </Box>
            <SpaceBetween direction="horizontal" size="xs">
              <Button onClick={recipients.selectAllFiltered} disabled={filtered.length === 0}>
                Select All
              </Button>
              <Button onClick={recipients.deselectAllFiltered} disabled={filtered.length === 0}>
                Deselect All Filtered
              </Button>
            </SpaceBetween>
          </div>
        </FilterGroup>
        {streamed !== null && <StatusIndicator type="loading">{`Loading more contacts… ${streamed.toLocaleString()} loaded`}</StatusIndicator>}
        {status === 'loading' ? (
          <StatusIndicator type="loading">Loading contacts...</StatusIndicator>
        ) : filtered.length === 0 ? (
          <EmptyList kind={emptyKind} onRetry={recipients.reload} />
        ) : (
          <div className={styles.recipientList} role="group" aria-label="Recipients">
            <ul className={styles.recipientRows}>
              {shownRows.map((contact) => (
                <RecipientRow
                  key={contact.id}
                  contact={contact}
                  checked={selectedIds.has(contact.id)}
                  unsubscribed={isUnsubscribed(unsubscribed, contact)}
                  pitchNote={pitchNotes?.get(contact.id)}
                  onToggle={recipients.toggle}
                />
              ))}
            </ul>
            {filtered.length > shownRows.length && (
              <Box textAlign="center" padding="s">
                <Button onClick={() => setRows({ of: filtered, count: rowCount + RECIPIENT_ROWS_STEP })}>
                  {`Show more (${(filtered.length - shownRows.length).toLocaleString()} more)`}
                </Button>
              </Box>
            )}
          </div>
        )}
      </SpaceBetween>
      {saveListOpen && (
        <SaveListModal
          contents={{ contact_types: [...types], selected_genres: [...genres], contact_ids: selected.map((contact) => contact.id) }}
          onSaved={(saved) => {
            setSavedLists((current) => [saved, ...(current ?? [])]);
            setSavedListsError(null);
          }}
          onClose={() => setSaveListOpen(false)}
        />
      )}
    </Container>
  );
});
