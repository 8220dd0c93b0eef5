import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import Container from '@cloudscape-design/components/container';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { contactMessages } from '../../../../schema/api/contacts';
import { directoryAdditionsLimits, directoryMessages, isFreeAllowance, type DirectoryAllowance, type DirectoryEntry } from '../../../../schema/api/directory';
import { ApiError } from '../../api/client';
import { addDirectoryContacts, addDirectoryContactsInChunks, BulkAddError, listDirectory } from '../../api/directory';
import { useAuth } from '../../auth/AuthContext';
import { useFollow } from '../../components/useFollow';
import { useNotifications } from '../../notifications/NotificationsContext';
import { PageShell } from '../dashboard/PageShell';
import { addFailureNotice, bulkAddSummary, refusalBeforeAdd, UPGRADE_HREF } from './allowance';
import { BulkAddModal, type BulkAddState } from './BulkAddModal';
import { DirectorySection, entryState } from './DirectorySection';
import { defaultFilters, filterEntries, genreCounts, splitFeatured, typeCounts, type DirectoryFilters } from './filters';
import { FiltersPanel } from './FiltersPanel';
import styles from './labelfinder.module.css';

const TITLE = 'LabelFinder';
const DESCRIPTION = 'Browse labels and DJs accepting demos and add them to your contacts.';

/** The page's two card sections, featured entries first (splitFeatured puts every entry in one). */
const directorySections = [
  { name: 'featured', title: 'Featured Contacts' },
  { name: 'others', title: 'All Contacts' },
] as const;

const withIds = (set: ReadonlySet<string>, ids: Iterable<string>) => {
  const next = new Set(set);
  for (const id of ids) next.add(id);
  return next;
};
const withoutIds = (set: ReadonlySet<string>, ids: Iterable<string>) => {
  const next = new Set(set);
  for (const id of ids) next.delete(id);
  return next;
};

function AllowanceBar({ allowance }: { allowance: DirectoryAllowance }) {
  const { used, limit } = allowance;
  const percent = limit <= 0 ? 100 : Math.min(100, Math.round((used / limit) * 100));
  return (
    <Container>
      <ProgressBar
        value={percent}
        label={`Directory additions: ${used} of ${limit} used`}
        additionalInfo={
          isFreeAllowance(allowance)
            ? `The free plan adds up to ${limit} contacts from the directory in total; Premium plans add up to ${directoryAdditionsLimits.paid.toLocaleString('en-US')}.`
            : undefined
        }
      />
    </Container>
  );
}

/** /dashboard/labelfinder: the curated directory of labels and DJs (spec §2 LabelFinder, §5, §6, §8). */
export default function LabelFinderPage() {
  const { api, profile, refreshProfile } = useAuth();
  const { notify, dismiss } = useNotifications();
  const follow = useFollow();

  const [entries, setEntries] = useState<readonly DirectoryEntry[] | null>(null);
  const [allowance, setAllowance] = useState<DirectoryAllowance | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadFailed, setLoadFailed] = useState(false);
  const [filters, setFilters] = useState<DirectoryFilters>(defaultFilters);
  const [pages, setPages] = useState({ featured: 1, others: 1 });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  /** Entries known to be in the user's contacts: added here, or refused as already there. */
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  const [adding, setAdding] = useState<ReadonlySet<string>>(new Set());
  const [bulk, setBulk] = useState<BulkAddState | null>(null);

  const loadController = useRef<AbortController | null>(null);
  const loadErrorToast = useRef<string | null>(null);
  const retry = useRef<() => void>(() => {});

  // State is set only in the request's callbacks, so the effect below may start it (loading starts true).
  const fetchDirectory = useCallback(
    ({ quiet = false }: { quiet?: boolean } = {}) => {
      loadController.current?.abort();
      const controller = new AbortController();
      loadController.current = controller;
      return listDirectory(api, { signal: controller.signal })
        .then(
          (list) => {
            if (controller.signal.aborted) return;
            setEntries(list.entries);
            setAllowance(list.allowance);
            // What the server says is already a contact (from any tab or device), plus what this page added.
            setAdded((current) => withIds(current, list.in_contacts));
            setLoadFailed(false);
            if (loadErrorToast.current) dismiss(loadErrorToast.current);
            loadErrorToast.current = null;
          },
          () => {
            if (controller.signal.aborted || quiet) return;
            setLoadFailed(true);
            if (loadErrorToast.current) dismiss(loadErrorToast.current);
            loadErrorToast.current = notify({
              type: 'error',
              title: directoryMessages.loadFailed,
              action: { label: 'Retry', onClick: () => retry.current() },
            });
          },
        )
        .finally(() => {
          if (!controller.signal.aborted) setLoading(false);
        });
    },
    [api, notify, dismiss],
  );

  /** Reads the directory again; `quiet` keeps the page as it is (no loading state, no error toast) meanwhile. */
  const load = useCallback(
    ({ quiet = false }: { quiet?: boolean } = {}) => {
      if (!quiet) setLoading(true);
      return fetchDirectory({ quiet });
    },
    [fetchDirectory],
  );

  useEffect(() => {
    retry.current = () => void load();
    void fetchDirectory();
    return () => loadController.current?.abort();
  }, [load, fetchDirectory]);

  /** After any add: the profile's labelfinder_additions_count moved (a failed refresh changes nothing here). */
  const refreshCount = useCallback(() => {
    refreshProfile().catch(() => {});
  }, [refreshProfile]);

  const markAdded = useCallback((ids: readonly string[]) => {
    setAdded((current) => withIds(current, ids));
    setSelected((current) => withoutIds(current, ids));
  }, []);

  const changeFilters = useCallback((next: DirectoryFilters) => {
    setFilters(next);
    setPages({ featured: 1, others: 1 });
  }, []);

  const addOne = useCallback(
    async (entry: DirectoryEntry) => {
      if (!allowance) return;
      const refusal = refusalBeforeAdd(1, allowance);
      if (refusal) {
        notify(refusal);
        return;
      }
      setAdding((current) => withIds(current, [entry.id]));
      try {
        const result = await addDirectoryContacts(api, [entry.id]);
        setAllowance(result.allowance);
        markAdded([entry.id]);
        if (result.added.length > 0) {
          notify({ type: 'success', title: contactMessages.added, message: `${entry.name} has been added to your contacts.` });
        } else {
          notify({ type: 'info', title: directoryMessages.alreadyInContacts(entry.name) });
        }
        refreshCount();
      } catch (error) {
        notify(addFailureNotice(error, allowance, { name: entry.name }));
        if (error instanceof ApiError && error.status === 409) markAdded([entry.id]);
        // Refused over the allowance: the one shown here was stale, so fetch the real one.
        if (error instanceof ApiError && error.status === 403) void load({ quiet: true });
      } finally {
        setAdding((current) => withoutIds(current, [entry.id]));
      }
    },
    [allowance, api, notify, markAdded, refreshCount, load],
  );
  const onAdd = useCallback((entry: DirectoryEntry) => void addOne(entry), [addOne]);

  const filtered = useMemo(() => (entries ? filterEntries(entries, filters) : []), [entries, filters]);
  const sections = useMemo(() => splitFeatured(filtered), [filtered]);
  const types = useMemo(() => typeCounts(entries ?? [], filters), [entries, filters]);
  const genres = useMemo(() => genreCounts(entries ?? [], filters), [entries, filters]);
  const selectableShown = useMemo(() => filtered.filter((entry) => entryState(entry, added, adding) === 'addable'), [filtered, added, adding]);
  const selectedShown = selectableShown.filter((entry) => selected.has(entry.id)).length;
  const allShownSelected = selectableShown.length > 0 && selectedShown === selectableShown.length;
  const bulkRunning = bulk?.phase === 'running';

  const addSelected = async () => {
    if (!allowance || !entries) return;
    // Directory order, and only what can still be added.
    const ids = entries.filter((entry) => selected.has(entry.id) && entryState(entry, added, adding) === 'addable').map((entry) => entry.id);
    if (ids.length === 0) return;
    const refusal = refusalBeforeAdd(ids.length, allowance);
    if (refusal) {
      notify(refusal);
      return;
    }
    setBulk({ phase: 'running', done: 0, total: ids.length });
    try {
      const outcome = await addDirectoryContactsInChunks(api, ids, ({ done, total, allowance: now }) => {
        markAdded(ids.slice(0, done));
        setAllowance(now);
        setBulk({ phase: 'running', done, total });
      });
      setBulk({ phase: 'done', added: outcome.added.length, skipped: outcome.duplicates.length });
    } catch (error) {
      setBulk(null);
      const failure = error instanceof BulkAddError ? error.failure : error;
      const notice = addFailureNotice(failure, allowance);
      const partial = error instanceof BulkAddError ? error.partial : null;
      const done = partial ? partial.added.length + partial.duplicates.length : 0;
      notify(partial && done > 0 ? { ...notice, message: bulkAddSummary(partial.added.length, partial.duplicates.length) } : notice);
      if (failure instanceof ApiError && failure.status === 403) void load({ quiet: true });
    } finally {
      refreshCount();
    }
  };

  const onSelectionChange = useCallback((pageEntries: readonly DirectoryEntry[], selectedIds: ReadonlySet<string>) => {
    setSelected((current) => {
      const next = new Set(current);
      for (const entry of pageEntries) {
        if (selectedIds.has(entry.id)) next.add(entry.id);
        else next.delete(entry.id);
      }
      return next;
    });
  }, []);

  const free = allowance ? isFreeAllowance(allowance) : profile?.tier === 'free';
  const upgrade = free ? (
    <Button href={UPGRADE_HREF} onFollow={follow}>
      Upgrade to Premium
    </Button>
  ) : undefined;

  let body;
  if (entries === null) {
    body = (
      <Container>
        {loading ? (
          <StatusIndicator type="loading">Loading contacts...</StatusIndicator>
        ) : (
          <SpaceBetween size="s">
            <Box>{loadFailed ? 'The directory could not be loaded.' : 'The directory is not available.'}</Box>
            <Button onClick={() => void load()}>Reload directory</Button>
          </SpaceBetween>
        )}
      </Container>
    );
  } else {
    body = (
      <SpaceBetween size="l">
        <TextFilter
          filteringText={filters.search}
          onChange={({ detail }) => changeFilters({ ...filters, search: detail.filteringText })}
          filteringPlaceholder="Search by name, email or description"
          filteringAriaLabel="Search contacts by name, email or description"
          filteringClearAriaLabel="Clear search"
        />
        <Box color="text-body-secondary">
          <span aria-live="polite">{`Showing ${filtered.length} of ${entries.length} contacts`}</span>
        </Box>
        <div className={styles.layout}>
          <FiltersPanel filters={filters} onChange={changeFilters} typeCounts={types} genreCounts={genres} />
          <SpaceBetween size="l">
            <div className={styles.toolbar} role="group" aria-label="Selection">
              <Checkbox
                checked={allShownSelected}
                indeterminate={selectedShown > 0 && !allShownSelected}
                disabled={selectableShown.length === 0 || bulkRunning}
                onChange={({ detail }) =>
                  setSelected((current) =>
                    detail.checked
                      ? withIds(
                          current,
                          selectableShown.map((entry) => entry.id),
                        )
                      : withoutIds(
                          current,
                          selectableShown.map((entry) => entry.id),
                        ),
                  )
                }
              >
                Select All
              </Checkbox>
              <Box color="text-body-secondary" variant="span">
                <span aria-live="polite">{`${selected.size} selected`}</span>
              </Box>
              {selected.size > 0 && (
                <Button variant="inline-link" onClick={() => setSelected(new Set())} disabled={bulkRunning}>
                  Clear selection
                </Button>
              )}
              <div className={styles.toolbarEnd}>
                <Button
                  variant="primary"
                  iconName="add-plus"
                  disabled={selected.size === 0 || bulkRunning}
                  disabledReason={selected.size === 0 ? 'Select contacts to add first.' : undefined}
                  onClick={() => void addSelected()}
                >
                  Add Selected to Contacts
                </Button>
              </div>
            </div>

            {filtered.length === 0 ? (
              <Container>
                <Box textAlign="center" padding="l" color="inherit">
                  <SpaceBetween size="s">
                    <Box variant="h2" tagOverride="h2">
                      No contacts found
                    </Box>
                    <Box variant="p" color="text-body-secondary">
                      {entries.length === 0 ? 'The directory has no entries yet.' : 'Try a different search or fewer filters.'}
                    </Box>
                    {entries.length > 0 && <Button onClick={() => changeFilters(defaultFilters)}>Clear filters</Button>}
                  </SpaceBetween>
                </Box>
              </Container>
            ) : (
              directorySections.map(({ name, title }) =>
                sections[name].length > 0 ? (
                  <DirectorySection
                    key={name}
                    title={title}
                    entries={sections[name]}
                    page={pages[name]}
                    onPageChange={(page) => setPages((current) => ({ ...current, [name]: page }))}
                    selected={selected}
                    onSelectionChange={onSelectionChange}
                    added={added}
                    adding={adding}
                    busy={bulkRunning}
                    onAdd={onAdd}
                  />
                ) : null,
              )
            )}
          </SpaceBetween>
        </div>
      </SpaceBetween>
    );
  }

  return (
    <PageShell title={TITLE} description={DESCRIPTION} actions={upgrade}>
      {allowance && <AllowanceBar allowance={allowance} />}
      {body}
      {bulk && <BulkAddModal state={bulk} onClose={() => setBulk(null)} />}
    </PageShell>
  );
}
