/**
 * Issue 28 §1: the Tracks page lists the artist's tracks, each with its counts (pitched, opened, listened,
 * answered by answer, signed, passed) and a link to its board; an empty state says when a track appears.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { TRACKS_EMPTY_TEXT } from '../../web/src/pages/tracks/TracksPage';
import { gate } from './contacts-fake-server';
import { currentPath, preloadRoutes } from './helpers';
import { fakePipelineServer, fakeTrack, harbourLights, pipelineEntry, renderPipeline } from './pipeline-fake-server';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/tracks/TracksPage');
  await import('../../web/src/pages/tracks/TrackPipelinePage');
}, 60_000);

/** The table's rows as the header cells' text followed by each cell's. */
function tableText() {
  const table = createWrapper().findTable()!;
  const headers = table.findColumnHeaders().map((header) => header.getElement().textContent);
  const rows = table.findRows().map((row) => row.findAll('td, th').map((cell) => cell.getElement().textContent));
  return { headers, rows };
}

describe('the Tracks page', () => {
  it('lists each track with its counts, answers by kind, and links to its board', async () => {
    const nightDrive = fakeTrack('Night Drive', 'trk-night', [
      pipelineEntry(7, {
        stage: 'passed',
        derived_stage: 'answered',
        opened_at: '2026-11-02T10:00:00.000Z',
        answered_at: '2026-11-02T10:05:00.000Z',
        answer: 'not_for_us',
        mark: { stage: 'passed', note: null, on: '2026-11-03', set_at: '2026-11-03T08:00:00.000Z' },
      }),
    ]);
    const server = fakePipelineServer([harbourLights(), nightDrive]);
    const user = userEvent.setup();
    renderPipeline(server, '/dashboard/tracks');
    expect(await screen.findByRole('heading', { name: 'Tracks', level: 1 })).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Harbour Lights' });

    const { headers, rows } = tableText();
    expect(headers).toEqual([
      'Track',
      'Pitched',
      'Opened',
      'Listened',
      'Answered',
      'Interested',
      'Send me the WAVs',
      'Not for us',
      'Signed',
      'Passed',
      'Last pitched',
    ]);
    // Harbour Lights: 4 pitched (one still queued), 3 opened, 3 listened, 2 answered (1 Interested, 1 WAVs), 1 signed.
    expect(rows[0]!.slice(0, 10)).toEqual(['Harbour Lights', '4', '3', '3', '2', '1', '1', '0', '1', '0']);
    expect(rows[1]!.slice(0, 10)).toEqual(['Night Drive', '1', '1', '0', '1', '0', '0', '1', '0', '1']);

    await user.click(screen.getByRole('link', { name: 'Harbour Lights' }));
    expect(await screen.findByRole('heading', { name: 'Harbour Lights', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard/tracks/trk-harbour');
  });

  it('says when a track appears when there is none, with a way to Compose', async () => {
    const server = fakePipelineServer([]);
    renderPipeline(server, '/dashboard/tracks');
    expect(await screen.findByText(TRACKS_EMPTY_TEXT)).toBeInTheDocument();
    expect(screen.getByText('No tracks yet')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Compose a campaign' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/compose'));
  });

  it('shows the loading state, then the error with Retry, then the list', async () => {
    const server = fakePipelineServer([harbourLights()]);
    const held = gate();
    server.hold.tracks = held.promise;
    server.fail.tracks = { status: 500, message: 'The tracks are resting' };
    const user = userEvent.setup();
    renderPipeline(server, '/dashboard/tracks');
    expect(await screen.findByText('Loading tracks')).toBeInTheDocument();
    held.open();
    const alert = await screen.findByText('The tracks are resting');
    expect(screen.getByText('Could not load your tracks')).toBeInTheDocument();

    server.fail.tracks = null;
    expect(alert).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Harbour Lights' })).toBeInTheDocument();
    expect(screen.queryByText('The tracks are resting')).toBeNull();
    expect(server.calls('GET', '/api/pipeline/tracks')).toHaveLength(2);
  });
});
