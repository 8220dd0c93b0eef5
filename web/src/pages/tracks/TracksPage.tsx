import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { useEffect, useState } from 'react';
import { listenAnswerLabels } from '../../../../schema/api/listenValues';
import type { PipelineTrack } from '../../../../schema/api/pipeline';
import { errorMessage } from '../../api/client';
import { listPipelineTracks } from '../../api/pipeline';
import { useAuth } from '../../auth/AuthContext';
import { useFollow } from '../../components/useFollow';
import { useKeyedState } from '../../lib/useKeyedState';
import { formatDateTime } from '../campaigns/campaignView';
import { PageShell } from '../dashboard/PageShell';
import { answeredTotal, trackPipelinePath } from './pipelineView';

type ListState = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; tracks: PipelineTrack[] };

const LOADING: ListState = { kind: 'loading' };

export const TRACKS_EMPTY_TEXT = 'A track appears here once a campaign pitches it: upload one or name it in Compose, then send the campaign.';

const count = (value: number) => value.toLocaleString();

function columns(follow: ReturnType<typeof useFollow>): TableProps.ColumnDefinition<PipelineTrack>[] {
  return [
    {
      id: 'name',
      header: 'Track',
      cell: (track) => (
        <Link href={trackPipelinePath(track.track_key)} onFollow={follow}>
          {track.name}
        </Link>
      ),
      isRowHeader: true,
    },
    { id: 'pitched', header: 'Pitched', cell: (track) => count(track.counts.pitched) },
    { id: 'opened', header: 'Opened', cell: (track) => count(track.counts.opened) },
    { id: 'listened', header: 'Listened', cell: (track) => count(track.counts.listened) },
    { id: 'answered', header: 'Answered', cell: (track) => count(answeredTotal(track.counts)) },
    { id: 'interested', header: listenAnswerLabels.interested, cell: (track) => count(track.counts.answered.interested) },
    { id: 'send_wavs', header: listenAnswerLabels.send_wavs, cell: (track) => count(track.counts.answered.send_wavs) },
    { id: 'not_for_us', header: listenAnswerLabels.not_for_us, cell: (track) => count(track.counts.answered.not_for_us) },
    { id: 'signed', header: 'Signed', cell: (track) => count(track.counts.signed) },
    { id: 'passed', header: 'Passed', cell: (track) => count(track.counts.passed) },
    { id: 'last_pitched', header: 'Last pitched', cell: (track) => formatDateTime(track.last_pitched_at) },
  ];
}

/**
 * /dashboard/tracks (issue 28 §1): the artist's tracks, each with where its pitches stand (pitched,
 * opened, listened, answered by answer, signed, passed) and a link to its board.
 */
export default function TracksPage() {
  const { api } = useAuth();
  const follow = useFollow();
  const [attempt, setAttempt] = useState(0);
  const request = String(attempt);
  const [list, setListFor] = useKeyedState(request, LOADING);

  useEffect(() => {
    const controller = new AbortController();
    listPipelineTracks(api, { signal: controller.signal }).then(
      (tracks) => !controller.signal.aborted && setListFor(request, { kind: 'ready', tracks }),
      (error: unknown) => !controller.signal.aborted && setListFor(request, { kind: 'failed', message: errorMessage(error) }),
    );
    return () => controller.abort();
  }, [api, request, setListFor]);

  return (
    <PageShell title="Tracks" description="Every track you pitched, and where each pitch stands.">
      {list.kind === 'failed' ? (
        <Alert type="error" header="Could not load your tracks" action={<Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>}>
          {list.message}
        </Alert>
      ) : (
        <Table
          header={
            <Header variant="h2" counter={list.kind === 'ready' ? `(${list.tracks.length})` : undefined}>
              Your tracks
            </Header>
          }
          ariaLabels={{ tableLabel: 'Your tracks' }}
          columnDefinitions={columns(follow)}
          stickyColumns={{ first: 1 }}
          items={list.kind === 'ready' ? list.tracks : []}
          trackBy="track_key"
          loading={list.kind === 'loading'}
          loadingText="Loading tracks"
          empty={
            <SpaceBetween size="xs" alignItems="center">
              <Box variant="strong" color="inherit">
                No tracks yet
              </Box>
              <Box variant="p" color="inherit">
                {TRACKS_EMPTY_TEXT}
              </Box>
              <Button href="/dashboard/compose" onFollow={follow}>
                Compose a campaign
              </Button>
            </SpaceBetween>
          }
        />
      )}
    </PageShell>
  );
}
