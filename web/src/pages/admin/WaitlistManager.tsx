import { useCollection } from '@cloudscape-design/collection-hooks';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import Pagination from '@cloudscape-design/components/pagination';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { WaitlistEntry } from '../../../../schema/api/waitlist';
import { isHttpLink } from '../../../../schema/api/links';
import { listWaitlistEntries, setWaitlistStatus, type WaitlistDecision } from '../../api/adminWaitlist';
import { ApiError, errorMessage } from '../../api/client';
import { useAuth } from '../../auth/AuthContext';
import { fileSaver } from '../../lib/csv';
import { useNotifications } from '../../notifications/NotificationsContext';
import { NotesModal } from './NotesModal';
import styles from './waitlist.module.css';
import { waitlistCsv, waitlistCsvFilename } from './waitlistCsv';

type Status = WaitlistEntry['status'];
type StatusFilter = Status | 'all';

export const PAGE_SIZE = 25;

const statusLabels: Record<Status, string> = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' };
const statusIndicatorTypes: Record<Status, StatusIndicatorProps.Type> = {
  pending: 'pending',
  approved: 'success',
  rejected: 'stopped',
};
const statusRank: Record<Status, number> = { pending: 0, approved: 1, rejected: 2 };

const statusOptions: readonly (SelectProps.Option & { value: StatusFilter })[] = [
  { value: 'all', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
];

// One formatter and one collator for the whole table: creating them per cell is what makes big tables slow.
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

export function formatSubmitted(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function sortAriaLabel(name: string) {
  return ({ sorted, descending }: TableProps.LabelData) => `${name}, ${sorted ? `sorted ${descending ? 'descending' : 'ascending'}` : 'not sorted'}`;
}

function CountCard({ label, value }: { label: string; value: number | null }) {
  return (
    <Container>
      <div role="group" aria-label={label}>
        <Box variant="awsui-key-label">{label}</Box>
        <Box variant="awsui-value-large">{value === null ? '–' : value.toLocaleString()}</Box>
      </div>
    </Container>
  );
}

// Cells are memoised components: Cloudscape re-renders every visible cell whenever the page renders
// (typing in the filter, a toast, a busy flag), and the status indicator, link and copy popover are the
// costly parts of a row. With memo they only re-render when their own entry changes.

const StatusCell = memo(function StatusCell({ status }: { status: Status }) {
  return <StatusIndicator type={statusIndicatorTypes[status]}>{statusLabels[status]}</StatusIndicator>;
});

const UrlCell = memo(function UrlCell({ url }: { url: string | null }) {
  if (!url) return <Box color="text-status-inactive">None</Box>;
  if (!isHttpLink(url)) return <span className={styles.url}>{url}</span>;
  return (
    <span className={styles.url}>
      <Link href={url} external target="_blank" rel="noopener noreferrer" externalIconAriaLabel="(opens in a new tab)">
        {url.replace(/^https?:\/\//i, '')}
      </Link>
    </span>
  );
});

/**
 * The columns' widths (and narrowest widths), small enough for the whole table to fit a 1280 px screen
 * (1,170 px of columns; the last one takes what is left): the actions wrap onto two lines (Approve, Reject
 * and Copy; then the notes link), the music style and the URL wrap. Without a width Cloudscape sizes a
 * column to its first render, wider than it needs.
 */
const COLUMN_MIN_WIDTHS = { email: 200, artist: 130, style: 120, url: 170, submitted: 190, status: 120, actions: 240 } as const;
const TABLE_MIN_WIDTH = Object.values(COLUMN_MIN_WIDTHS).reduce((sum, width) => sum + width, 0);

/**
 * Whether the element is at least `minWidth` wide, followed as it resizes. The Actions column is sticky
 * only then: on a narrower screen the table scrolls sideways, and a sticky column would cover the
 * columns that scroll under it.
 */
function useAtLeastWide(minWidth: number) {
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  const [wide, setWide] = useState(false);
  useEffect(() => {
    if (!node || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWide((entry?.contentRect.width ?? 0) >= minWidth));
    observer.observe(node);
    return () => observer.disconnect();
  }, [node, minWidth]);
  return [setNode, wide] as const;
}

interface ActionsCellProps {
  entry: WaitlistEntry;
  deciding: WaitlistDecision | undefined;
  onDecide: (entry: WaitlistEntry, status: WaitlistDecision) => void;
  onOpenNotes: (id: string) => void;
  onCopied: () => void;
  onCopyFailed: () => void;
}

const ActionsCell = memo(function ActionsCell({ entry, deciding, onDecide, onOpenNotes, onCopied, onCopyFailed }: ActionsCellProps) {
  return (
    <div className={styles.actions}>
      {entry.status === 'pending' && (
        <>
          <Button
            wrapText={false}
            onClick={() => onDecide(entry, 'approved')}
            loading={deciding === 'approved'}
            disabled={deciding !== undefined && deciding !== 'approved'}
          >
            Approve
          </Button>
          <Button
            wrapText={false}
            onClick={() => onDecide(entry, 'rejected')}
            loading={deciding === 'rejected'}
            disabled={deciding !== undefined && deciding !== 'rejected'}
          >
            Reject
          </Button>
        </>
      )}
      <CopyToClipboard
        variant="icon"
        textToCopy={entry.email}
        copyButtonAriaLabel="Copy email"
        copySuccessText="Email copied"
        copyErrorText="Email could not be copied"
        popoverRenderWithPortal
        onCopySuccess={onCopied}
        onCopyFailure={onCopyFailed}
      />
      <Button variant="inline-link" wrapText={false} onClick={() => onOpenNotes(entry.id)}>
        Add Internal Notes
      </Button>
    </div>
  );
});

export function WaitlistManager() {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const [entries, setEntries] = useState<WaitlistEntry[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadFailed, setLoadFailed] = useState(false);
  const [busy, setBusy] = useState<ReadonlyMap<string, WaitlistDecision>>(new Map());
  const [statusFilter, setStatusFilter] = useState<StatusFilter>('all');
  const [notesEntryId, setNotesEntryId] = useState<string | null>(null);
  /** Entries loaded so far while more pages come; null when no load is under way. */
  const [progress, setProgress] = useState<number | null>(null);
  const loadController = useRef<AbortController | null>(null);

  // State is set only in the request's callbacks, so the effect below may start it (loading starts true).
  const fetchEntries = useCallback(
    ({ quiet = false }: { quiet?: boolean } = {}) => {
      loadController.current?.abort();
      const controller = new AbortController();
      loadController.current = controller;
      // Every page before the table shows anything new: counts, filters and export describe the whole list.
      return listWaitlistEntries(api, {
        signal: controller.signal,
        onProgress: (loaded) => {
          if (!quiet && !controller.signal.aborted) setProgress(loaded);
        },
      })
        .then(
          (list) => {
            if (controller.signal.aborted) return;
            setEntries(list);
            setLoadFailed(false);
          },
          (error: unknown) => {
            if (controller.signal.aborted) return;
            setLoadFailed(true);
            notify({ type: 'error', title: 'Error fetching entries', message: errorMessage(error) });
          },
        )
        .finally(() => {
          if (!controller.signal.aborted) {
            setLoading(false);
            setProgress(null);
          }
        });
    },
    [api, notify],
  );

  /** Reads the list again; `quiet` keeps the table as it is (no loading state, no progress) meanwhile. */
  const load = useCallback(
    ({ quiet = false }: { quiet?: boolean } = {}) => {
      if (!quiet) setLoading(true);
      setProgress(null);
      return fetchEntries({ quiet });
    },
    [fetchEntries],
  );

  useEffect(() => {
    void fetchEntries();
    return () => loadController.current?.abort();
  }, [fetchEntries]);

  /**
   * Applies only the fields one action changed: an approve and a notes save overlapping each answer
   * with a whole entry, and the later answer must not undo the other's change.
   */
  const patchEntry = useCallback((id: string, fields: Partial<Omit<WaitlistEntry, 'id'>>) => {
    setEntries((list) => list.map((entry) => (entry.id === id ? { ...entry, ...fields } : entry)));
  }, []);

  const decide = useCallback(
    async (entry: WaitlistEntry, status: WaitlistDecision) => {
      setBusy((current) => new Map(current).set(entry.id, status));
      try {
        const updated = await setWaitlistStatus(api, entry.id, status);
        patchEntry(entry.id, { status: updated.status, approved_at: updated.approved_at });
        notify({
          type: 'success',
          title: status === 'approved' ? 'Entry approved' : 'Entry rejected',
          message: `Waitlist entry has been ${status}.`,
        });
      } catch (error) {
        notify({ type: 'error', title: 'Error updating status', message: errorMessage(error) });
        // Someone else decided (409) or removed it (404): show the entry as it really is now.
        if (error instanceof ApiError && (error.status === 409 || error.status === 404)) void load({ quiet: true });
      } finally {
        setBusy((current) => {
          const next = new Map(current);
          next.delete(entry.id);
          return next;
        });
      }
    },
    [api, notify, patchEntry, load],
  );

  const onDecide = useCallback((entry: WaitlistEntry, status: WaitlistDecision) => void decide(entry, status), [decide]);

  const onCopied = useCallback(() => notify({ type: 'success', title: 'Email copied', message: 'Email address copied to clipboard.' }), [notify]);
  const onCopyFailed = useCallback(
    () => notify({ type: 'error', title: 'Could not copy email', message: 'Your browser did not allow copying. Select the email and copy it instead.' }),
    [notify],
  );

  const counts = useMemo(() => {
    const result = { total: entries.length, pending: 0, approved: 0, rejected: 0 };
    for (const entry of entries) result[entry.status] += 1;
    return result;
  }, [entries]);

  // Lower-cased text the filter searches (email, artist name, style), built once per loaded list.
  const haystacks = useMemo(() => {
    const map = new Map<string, string>();
    for (const e of entries) map.set(e.id, `${e.email}\u0000${e.artist_name}\u0000${e.music_style}`.toLowerCase());
    return map;
  }, [entries]);

  const columnDefinitions = useMemo<TableProps.ColumnDefinition<WaitlistEntry>[]>(
    () => [
      {
        id: 'email',
        header: 'Email',
        cell: (e) => e.email,
        sortingField: 'email',
        sortingComparator: (a, b) => compareText(a.email, b.email),
        ariaLabel: sortAriaLabel('Email'),
        isRowHeader: true,
        width: COLUMN_MIN_WIDTHS.email,
        minWidth: COLUMN_MIN_WIDTHS.email,
      },
      {
        id: 'artist',
        header: 'Artist Name',
        cell: (e) => e.artist_name,
        sortingField: 'artist_name',
        sortingComparator: (a, b) => collator.compare(a.artist_name, b.artist_name),
        ariaLabel: sortAriaLabel('Artist Name'),
        width: COLUMN_MIN_WIDTHS.artist,
        minWidth: COLUMN_MIN_WIDTHS.artist,
      },
      { id: 'style', header: 'Music Style', cell: (e) => e.music_style, width: COLUMN_MIN_WIDTHS.style, minWidth: COLUMN_MIN_WIDTHS.style },
      { id: 'url', header: 'URL', cell: (e) => <UrlCell url={e.soundcloud_spotify_url} />, width: COLUMN_MIN_WIDTHS.url, minWidth: COLUMN_MIN_WIDTHS.url },
      {
        id: 'submitted',
        header: 'Submitted',
        cell: (e) => (
          <time className={styles.nowrap} dateTime={e.submitted_at}>
            {formatSubmitted(e.submitted_at)}
          </time>
        ),
        sortingField: 'submitted_at',
        sortingComparator: (a, b) => compareText(a.submitted_at, b.submitted_at),
        ariaLabel: sortAriaLabel('Submitted'),
        width: COLUMN_MIN_WIDTHS.submitted,
        minWidth: COLUMN_MIN_WIDTHS.submitted,
      },
      {
        id: 'status',
        header: 'Status',
        cell: (e) => <StatusCell status={e.status} />,
        sortingField: 'status',
        sortingComparator: (a, b) => statusRank[a.status] - statusRank[b.status],
        ariaLabel: sortAriaLabel('Status'),
        width: COLUMN_MIN_WIDTHS.status,
        minWidth: COLUMN_MIN_WIDTHS.status,
      },
      {
        id: 'actions',
        header: 'Actions',
        width: COLUMN_MIN_WIDTHS.actions,
        minWidth: COLUMN_MIN_WIDTHS.actions,
        cell: (e) => (
          <ActionsCell entry={e} deciding={busy.get(e.id)} onDecide={onDecide} onOpenNotes={setNotesEntryId} onCopied={onCopied} onCopyFailed={onCopyFailed} />
        ),
      },
    ],
    [busy, onDecide, onCopied, onCopyFailed],
  );

  // The table's box holds its container's padding and borders (2 × 21 px) besides the columns.
  const [measureTable, actionsSticky] = useAtLeastWide(TABLE_MIN_WIDTH + 42);

  const submittedColumn = columnDefinitions.find((column) => column.id === 'submitted');
  const filtersActive = (text: string) => text.trim() !== '' || statusFilter !== 'all';

  // The status and the text filter both run inside the collection, so filteredItemsCount counts both.
  const { items, actions, filteredItemsCount, collectionProps, filterProps, paginationProps } = useCollection(entries, {
    filtering: {
      filteringFunction: (item, text) => {
        if (statusFilter !== 'all' && item.status !== statusFilter) return false;
        const needle = text.trim().toLowerCase();
        return needle === '' || (haystacks.get(item.id) ?? '').includes(needle);
      },
    },
    sorting: submittedColumn ? { defaultState: { sortingColumn: submittedColumn, isDescending: true } } : {},
    pagination: { pageSize: PAGE_SIZE },
  });

  const clearFilters = () => {
    actions.setFiltering('');
    setStatusFilter('all');
  };

  let empty: ReactNode;
  if (loadFailed && entries.length === 0) {
    empty = (
      <Box textAlign="center" color="inherit" padding="l">
        <SpaceBetween size="s">
          <b>Could not load entries</b>
          <Button onClick={() => void load()}>Retry</Button>
        </SpaceBetween>
      </Box>
    );
  } else if (entries.length === 0) {
    empty = (
      <Box textAlign="center" color="inherit" padding="l">
        <b>No waitlist entries yet</b>
        <Box variant="p" color="inherit">
          Entries appear here when artists join the beta waitlist.
        </Box>
      </Box>
    );
  } else {
    empty = (
      <Box textAlign="center" color="inherit" padding="l">
        <SpaceBetween size="s">
          <b>No matching entries</b>
          <Button onClick={clearFilters}>Clear filters</Button>
        </SpaceBetween>
      </Box>
    );
  }

  const shownCount = filteredItemsCount ?? entries.length;
  const progressText = progress === null ? undefined : `Loaded ${progress.toLocaleString()} entries…`;
  const notesEntry = notesEntryId === null ? undefined : entries.find((entry) => entry.id === notesEntryId);

  const exportCsv = () => fileSaver.save(waitlistCsvFilename(), waitlistCsv(entries));

  return (
    <SpaceBetween size="l">
      <Header
        variant="h1"
        description="Review beta waitlist entries, approve or reject them, and keep internal notes."
        actions={
          <SpaceBetween direction="horizontal" size="xs">
            <Button iconName="refresh" ariaLabel="Refresh entries" onClick={() => void load()} disabled={loading} />
            <Button iconName="download" onClick={exportCsv} disabled={loading || entries.length === 0}>
              Export as CSV
            </Button>
          </SpaceBetween>
        }
      >
        Beta Waitlist Management
      </Header>

      <ColumnLayout columns={4} minColumnWidth={140}>
        <CountCard label="Total" value={loading && entries.length === 0 ? null : counts.total} />
        <CountCard label="Pending" value={loading && entries.length === 0 ? null : counts.pending} />
        <CountCard label="Approved" value={loading && entries.length === 0 ? null : counts.approved} />
        <CountCard label="Rejected" value={loading && entries.length === 0 ? null : counts.rejected} />
      </ColumnLayout>

      <div ref={measureTable}>
        <Table
          {...collectionProps}
          items={items}
          columnDefinitions={columnDefinitions}
          trackBy="id"
          variant="container"
          wrapLines
          resizableColumns
          stickyColumns={actionsSticky ? { first: 0, last: 1 } : undefined}
          loading={loading && entries.length === 0}
          loadingText={progressText ?? 'Loading entries'}
          empty={empty}
          ariaLabels={{ tableLabel: 'Beta waitlist entries' }}
          renderAriaLive={({ firstIndex, lastIndex, totalItemsCount }) =>
            `Displaying entries ${firstIndex} to ${lastIndex} of ${totalItemsCount ?? shownCount}`
          }
          totalItemsCount={shownCount}
          header={
            <Header
              variant="h2"
              counter={
                loading && entries.length === 0 ? undefined : shownCount === entries.length ? `(${entries.length})` : `(${shownCount}/${entries.length})`
              }
              description={
                // A refresh keeps the current list on screen until every page is in.
                loading && entries.length > 0 ? <StatusIndicator type="loading">{progressText ?? 'Refreshing entries…'}</StatusIndicator> : undefined
              }
            >
              Entries
            </Header>
          }
          filter={
            <div className={styles.filters}>
              <div className={styles.textFilter}>
                <TextFilter
                  {...filterProps}
                  filteringPlaceholder="Find by email, artist name or style"
                  filteringAriaLabel="Filter entries by email, artist name or music style"
                  filteringClearAriaLabel="Clear text filter"
                  countText={filtersActive(filterProps.filteringText) ? `${shownCount} ${shownCount === 1 ? 'match' : 'matches'}` : undefined}
                />
              </div>
              <div className={styles.statusFilter}>
                <Select
                  inlineLabelText="Status"
                  ariaLabel="Filter by status"
                  selectedOption={statusOptions.find((option) => option.value === statusFilter) ?? null}
                  options={statusOptions}
                  onChange={({ detail }) => {
                    setStatusFilter((detail.selectedOption.value as StatusFilter | undefined) ?? 'all');
                    actions.setCurrentPage(1);
                  }}
                />
              </div>
            </div>
          }
          pagination={
            <Pagination
              {...paginationProps}
              ariaLabels={{
                nextPageLabel: 'Next page',
                previousPageLabel: 'Previous page',
                pageLabel: (page) => `Page ${page} of all pages`,
                paginationLabel: 'Entries pages',
              }}
            />
          }
        />
      </div>

      {notesEntry && (
        <NotesModal
          key={notesEntry.id}
          entry={notesEntry}
          onDismiss={() => setNotesEntryId(null)}
          onSaved={(updated) => {
            patchEntry(updated.id, { notes: updated.notes });
            setNotesEntryId(null);
          }}
        />
      )}
    </SpaceBetween>
  );
}
