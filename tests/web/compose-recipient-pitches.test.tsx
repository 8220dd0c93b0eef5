/**
 * Issue 28 §2 in the recipients picker: once the track is typed, before any draft exists, the picker
 * says beside a contact who passed on it "Passed on <track> on <date>." (the date in the artist's zone)
 * and beside one who already received it "Already received this track", from the track's board; another
 * track says nothing of them, and a failed read says nothing at all (the send dialog checks again).
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { pitchKey } from '../../lambdas/core/sender';
import { contact } from './contacts-fake-server';
import { enter, fakeComposeServer, openCompose, pitchedTrack, recipientBox, type ComposeServer } from './compose-fake-server';
import { preloadRoutes } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/compose/ComposePage');
}, 60_000);

const velvet = contact(3, { name: 'Velvet Moth', email: 'demos@velvetmoth.example' });
const kai = contact(2, { name: 'Kai Lund', email: 'kai@lund.example' });
const ada = contact(1, { name: 'Ada Vell', email: 'ada@vell.example' });
const contacts = [velvet, kai, ada];

const harbourLights = { track_name: 'Harbour Lights', track_url: 'https://soundcloud.com/robin/harbour-lights' };
// 03:00 UTC on Nov 4 is the evening of Nov 3 in the artist's Los Angeles.
const kaiPassedAt = '2026-11-04T03:00:00.000Z';
const PASSED = 'Passed on Harbour Lights on Nov 3, 2026.';
const RECEIVED = 'Already received this track';
const artist = { time_zone: 'America/Los_Angeles' } as const;
const slow = { timeout: 60_000 };

const rowOf = (email: string) => recipientBox(email).closest('li')!;
const boardReads = (server: ComposeServer, track: { track_name: string; track_url: string | null }) =>
  server.calls('GET', `/api/pipeline/tracks/${pitchKey(track)}`).length;
const trackNameField = () => screen.getByRole('textbox', { name: 'Track Name *' });

describe('compose: the recipients picker knows who passed on the track', slow, () => {
  it('shows the pass with its date beside the contact who passed, "Already received" beside one pitched, nothing beside the others', async () => {
    const server = fakeComposeServer({ contacts, pitchedTracks: [pitchedTrack(harbourLights, [kai, ada], { [kai.id]: kaiPassedAt })] });
    const user = userEvent.setup();
    await openCompose(server, artist);
    await enter(user, trackNameField(), 'Harbour Lights');
    // Typed as people type it: the link as stored, whatever its case, is the track's key.
    await enter(user, screen.getByRole('textbox', { name: 'Track URL *' }), 'SoundCloud.com/Robin/Harbour-Lights');

    expect(await within(rowOf(kai.email)).findByText(PASSED)).toBeInTheDocument();
    // Read with the checkbox, the row's one stop for the keyboard.
    expect(recipientBox(kai.email)).toHaveAccessibleDescription(expect.stringContaining(PASSED));
    expect(rowOf(ada.email)).toHaveTextContent(RECEIVED);
    expect(rowOf(ada.email)).not.toHaveTextContent('Passed on');
    expect(rowOf(velvet.email)).not.toHaveTextContent('Passed on');
    expect(rowOf(velvet.email)).not.toHaveTextContent(RECEIVED);
    expect(rowOf(kai.email)).not.toHaveTextContent(RECEIVED);
  });

  it('another track name takes it away: that track was pitched to no one', async () => {
    const byName = { track_name: 'Harbour Lights', track_url: null };
    const server = fakeComposeServer({ contacts, pitchedTracks: [pitchedTrack(byName, [kai, ada], { [kai.id]: kaiPassedAt })] });
    const user = userEvent.setup();
    await openCompose(server, artist);
    await enter(user, trackNameField(), 'Harbour Lights');
    expect(await within(rowOf(kai.email)).findByText(PASSED)).toBeInTheDocument();

    await user.clear(trackNameField());
    await enter(user, trackNameField(), 'Midnight Drive');
    // At once, not after Midnight Drive's board is read: what was read of Harbour Lights is not this track's.
    expect(rowOf(kai.email)).not.toHaveTextContent('Passed on');
    expect(rowOf(ada.email)).not.toHaveTextContent(RECEIVED);
    await waitFor(() => expect(boardReads(server, { track_name: 'Midnight Drive', track_url: null })).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(rowOf(kai.email)).not.toHaveTextContent('Passed on');
    expect(rowOf(ada.email)).not.toHaveTextContent(RECEIVED);
  });

  it('a failed read of the board shows nothing, and no error', async () => {
    const byName = { track_name: 'Harbour Lights', track_url: null };
    const server = fakeComposeServer({ contacts, pitchedTracks: [pitchedTrack(byName, [kai, ada], { [kai.id]: kaiPassedAt })] });
    server.pipeline.fail.board = { status: 500, message: 'Internal error' };
    const user = userEvent.setup();
    await openCompose(server, artist);
    await enter(user, trackNameField(), 'Harbour Lights');
    await waitFor(() => expect(boardReads(server, byName)).toBe(1));

    // Long enough for an answer to have been shown.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const one of contacts) {
      expect(rowOf(one.email)).not.toHaveTextContent('Passed on');
      expect(rowOf(one.email)).not.toHaveTextContent(RECEIVED);
    }
    expect(createWrapper().findFlashbar()?.findItems() ?? []).toHaveLength(0);
  });
});
