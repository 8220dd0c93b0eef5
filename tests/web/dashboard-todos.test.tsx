/**
 * Issue 28 §1: the Dashboard's to-dos: every Interested and Send me the WAVs answer not yet marked done,
 * each with 'Mark done' ('WAVs sent' for a WAVs answer) through the to-do route, gone once done; nothing
 * shown when there is nothing to do.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { gate } from './contacts-fake-server';
import { fakeDashboardServer, renderDashboard } from './dashboard-fake-server';
import { currentPath, preloadRoutes, toast } from './helpers';
import { fakeTrack, harbourLights, pipelineEntry } from './pipeline-fake-server';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/tracks/TrackPipelinePage');
}, 60_000);

const answered = { opened_at: '2026-11-02T10:00:00.000Z', listened_at: '2026-11-02T10:05:00.000Z', answered_at: '2026-11-02T10:09:00.000Z' };

/** Harbour Lights (Dan: Send me the WAVs, Eve: Interested) and Night Drive (Gil: Interested, already done; Hal: Not for us). */
function serverWithAnswers() {
  const server = fakeDashboardServer();
  for (const track of [
    harbourLights(),
    fakeTrack('Night Drive', 'trk-night', [
      pipelineEntry(7, { name: 'Gil Done', stage: 'answered', answer: 'interested', ...answered, todo_done_at: '2026-11-03T09:00:00.000Z' }),
      pipelineEntry(8, { name: 'Hal Nope', stage: 'answered', answer: 'not_for_us', ...answered }),
    ]),
  ])
    server.pipeline.tracks.set(track.track.track_key, track);
  return server;
}

const todoItems = () =>
  within(screen.getByRole('list', { name: 'To-dos' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('the Dashboard’s to-dos', () => {
  it('lists the Interested and Send me the WAVs answers not done, each with its own Mark done, and drops each once done', async () => {
    const server = serverWithAnswers();
    const user = userEvent.setup();
    renderDashboard(server);
    expect(await screen.findByRole('heading', { name: /^To-dos/, level: 2 })).toHaveTextContent('To-dos (2)');
    const [dan, eve] = todoItems();
    expect(dan).toMatch(/^Dan Wavs \(person4@example\.com\) answered Send me the WAVs on Harbour Lights.*“Lovely, send the stems too”WAVs sent$/);
    expect(eve).toMatch(/^Eve Signed \(person5@example\.com\) answered Interested on Harbour Lights.*Mark done$/);
    expect(screen.queryByText('Gil Done')).toBeNull();
    expect(screen.queryByText('Hal Nope')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'WAVs sent: Dan Wavs, Harbour Lights' }));
    await toast('WAVs sent: Dan Wavs, Harbour Lights');
    expect(server.bodies('PUT', '/api/pipeline/tracks/trk-harbour/entries/address-4/todo')).toEqual([{ done: true }]);
    await waitFor(() => expect(todoItems()).toHaveLength(1));
    expect(screen.getByRole('heading', { name: /^To-dos/, level: 2 })).toHaveTextContent('To-dos (1)');

    await user.click(screen.getByRole('button', { name: 'Mark done: Eve Signed, Harbour Lights' }));
    await toast('Done: Eve Signed, Harbour Lights');
    expect(server.bodies('PUT', '/api/pipeline/tracks/trk-harbour/entries/address-5/todo')).toEqual([{ done: true }]);
    await waitFor(() => expect(screen.queryByRole('heading', { name: /^To-dos/ })).toBeNull());
  });

  it('links each to-do to its track’s board', async () => {
    const server = serverWithAnswers();
    renderDashboard(server);
    const list = within(await screen.findByRole('list', { name: 'To-dos' }));
    await userEvent.setup().click(list.getAllByRole('link', { name: 'Harbour Lights' })[0]!);
    expect(await screen.findByRole('heading', { name: 'Harbour Lights', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard/tracks/trk-harbour');
  });

  it('shows nothing while there is nothing to do', async () => {
    const server = fakeDashboardServer();
    renderDashboard(server);
    await waitFor(() => expect(server.calls('GET', '/api/pipeline/todos')).toHaveLength(1));
    await screen.findByRole('group', { name: 'Total Contacts' });
    expect(screen.queryByRole('heading', { name: /^To-dos/ })).toBeNull();
    expect(screen.queryByText('Could not load your to-dos')).toBeNull();
  });

  it('says when the to-dos cannot be read, with Retry; a failed Mark done keeps the to-do and says why', async () => {
    const server = serverWithAnswers();
    server.pipeline.fail.todos = { status: 500, message: 'The to-dos are resting' };
    const user = userEvent.setup();
    renderDashboard(server);
    expect(await screen.findByText('The to-dos are resting')).toBeInTheDocument();
    expect(screen.getByText('Could not load your to-dos')).toBeInTheDocument();

    server.pipeline.fail.todos = null;
    const held = gate();
    server.pipeline.hold.todos = held.promise;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByText('Could not load your to-dos')).toBeNull());
    held.open();
    await screen.findByRole('list', { name: 'To-dos' });

    server.pipeline.fail.todo = { status: 500, message: 'Try again in a minute' };
    await user.click(screen.getByRole('button', { name: 'WAVs sent: Dan Wavs, Harbour Lights' }));
    const failed = await toast('Could not mark the to-do done');
    expect(failed).toHaveTextContent('Try again in a minute');
    expect(todoItems()).toHaveLength(2);
  });
});
