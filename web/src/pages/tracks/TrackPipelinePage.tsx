import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Tabs from '@cloudscape-design/components/tabs';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';
import type { PipelineBoard, PipelineEntry } from '../../../../schema/api/pipeline';
import { plural } from '../../../../schema/plural';
import { ApiError, errorMessage } from '../../api/client';
import { getPipelineBoard } from '../../api/pipeline';
import { useAuth } from '../../auth/AuthContext';
import { CheckboxFilter, FiltersSection } from '../../components/FiltersSection';
import { useFollow } from '../../components/useFollow';
import { fileSaver } from '../../lib/csv';
import { useKeyedState } from '../../lib/useKeyedState';
import { useNotifications } from '../../notifications/NotificationsContext';
import { PageShell } from '../dashboard/PageShell';
import { MoveModal } from './MoveModal';
import { MOVE_TARGET_ATTRIBUTE, PipelineBoardView, PipelineTableView } from './PipelineBoardView';
import {
  answerOptions,
  boardCsv,
  boardCsvFilename,
  boardFiltered,
  filterEntries,
  labelSizeOptions,
  noBoardFilters,
  stageLabel,
  stageOptions,
  TRACKS_PATH,
  type BoardFilters,
} from './pipelineView';

type PageState = { kind: 'loading' } | { kind: 'notFound' } | { kind: 'failed'; message: string } | { kind: 'ready'; board: PipelineBoard };

const LOADING: PageState = { kind: 'loading' };

export const TRACK_NOT_FOUND = 'Track not found';

type View = 'board' | 'table';

/** A set with `key` added or taken out. */
function toggled<K>(set: ReadonlySet<K>, key: K, on: boolean): ReadonlySet<K> {
  const next = new Set(set);
  if (on) next.add(key);
  else next.delete(key);
  return next;
}

/**
 * /dashboard/tracks/{trackKey} (issue 28 §1): every contact pitched with the track, by stage, as a board
 * and as a table of the same data; filters by stage, answer and label size; 'Export CSV' of what is
 * shown; 'Move' sets or takes back the artist's mark.
 */
export default function TrackPipelinePage() {
  const { trackKey = '' } = useParams();
  const { api } = useAuth();
  const { notify } = useNotifications();
  const follow = useFollow();
  const [attempt, setAttempt] = useState(0);
  const request = `${trackKey}#${attempt}`;
  const [state, setStateFor, updateState] = useKeyedState(request, LOADING);
  const [view, setView] = useState<View>('board');
  const [filters, setFilters] = useState<BoardFilters>(noBoardFilters);
  const [moving, setMoving] = useState<PipelineEntry | null>(null);
  /** The contact just moved: its card is drawn anew in another column, and the keyboard's focus follows it there. */
  const movedId = useRef<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getPipelineBoard(api, trackKey, { signal: controller.signal }).then(
      (board) => !controller.signal.aborted && setStateFor(request, { kind: 'ready', board }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setStateFor(request, error instanceof ApiError && error.status === 404 ? { kind: 'notFound' } : { kind: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [api, trackKey, request, setStateFor]);

  useEffect(() => {
    if (movedId.current === null) return;
    document.querySelector<HTMLElement>(`[${MOVE_TARGET_ATTRIBUTE}="${CSS.escape(movedId.current)}"]`)?.focus();
    movedId.current = null;
  }, [state]);

  const entries = useMemo(() => (state.kind === 'ready' ? state.board.entries : []), [state]);
  const shown = useMemo(() => filterEntries(entries, filters), [entries, filters]);
  const onMove = useCallback((entry: PipelineEntry) => setMoving(entry), []);

  const moved = (updated: PipelineEntry) => {
    updateState((current) =>
      current.kind === 'ready'
        ? { ...current, board: { ...current.board, entries: current.board.entries.map((e) => (e.address_id === updated.address_id ? updated : e)) } }
        : current,
    );
    setMoving(null);
    movedId.current = updated.address_id;
    notify({ type: 'success', title: `${updated.name}: ${stageLabel(updated.stage)}` });
  };

  const back = (
    <Button href={TRACKS_PATH} onFollow={follow}>
      Back to Tracks
    </Button>
  );

  if (state.kind === 'loading') {
    return (
      <PageShell title="Track" actions={back}>
        <StatusIndicator type="loading">Loading the track’s pipeline</StatusIndicator>
      </PageShell>
    );
  }
  if (state.kind === 'notFound') {
    return (
      <PageShell title={TRACK_NOT_FOUND} description="No pitch of yours used this track.">
        <Box>
          <Button variant="primary" href={TRACKS_PATH} onFollow={follow}>
            Back to Tracks
          </Button>
        </Box>
      </PageShell>
    );
  }
  if (state.kind === 'failed') {
    return (
      <PageShell title="Track" actions={back}>
        <Alert type="error" header="Could not load this track’s pipeline" action={<Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>}>
          {state.message}
        </Alert>
      </PageShell>
    );
  }

  const { track } = state.board;
  const filtered = boardFiltered(filters);
  return (
    <PageShell
      title={track.name}
      description={`Pitched to ${plural(entries.length, 'contact')}.`}
      actions={
        <SpaceBetween direction="horizontal" size="xs">
          {back}
          <Button iconName="download" disabled={shown.length === 0} onClick={() => fileSaver.save(boardCsvFilename(track), boardCsv(shown))}>
            Export CSV
          </Button>
        </SpaceBetween>
      }
    >
      {entries.length === 0 ? (
        <Box color="text-body-secondary">No contact was pitched with this track yet.</Box>
      ) : (
        <>
          <FiltersSection
            headerActions={
              filtered ? (
                <Button variant="inline-link" onClick={() => setFilters(noBoardFilters)}>
                  Clear filters
                </Button>
              ) : undefined
            }
          >
            <ColumnLayout columns={3} minColumnWidth={200}>
              <CheckboxFilter
                label="Stage"
                options={stageOptions(entries)}
                isChecked={(key) => filters.stages.has(key)}
                onToggle={(key, on) => setFilters((current) => ({ ...current, stages: toggled(current.stages, key, on) }))}
              />
              <CheckboxFilter
                label="Answer"
                options={answerOptions(entries)}
                isChecked={(key) => filters.answers.has(key)}
                onToggle={(key, on) => setFilters((current) => ({ ...current, answers: toggled(current.answers, key, on) }))}
              />
              <CheckboxFilter
                label="Label size"
                options={labelSizeOptions(entries)}
                isChecked={(key) => filters.sizes.has(key)}
                onToggle={(key, on) => setFilters((current) => ({ ...current, sizes: toggled(current.sizes, key, on) }))}
              />
            </ColumnLayout>
          </FiltersSection>
          <div aria-live="polite">
            <Box color="text-body-secondary">
              {filtered ? `Showing ${shown.length.toLocaleString()} of ${plural(entries.length, 'contact')}` : plural(entries.length, 'contact')}
            </Box>
          </div>
          {/* The same contacts twice: the board to see them by stage, the table for screen readers and the keyboard. */}
          <Tabs
            activeTabId={view}
            onChange={({ detail }) => setView(detail.activeTabId as View)}
            ariaLabel="View"
            tabs={[
              { id: 'board', label: 'Board', content: <PipelineBoardView entries={shown} onMove={onMove} /> },
              { id: 'table', label: 'Table', content: <PipelineTableView entries={shown} onMove={onMove} /> },
            ]}
          />
        </>
      )}
      {moving && <MoveModal trackKey={track.track_key} entry={moving} onDismiss={() => setMoving(null)} onMoved={moved} />}
    </PageShell>
  );
}
