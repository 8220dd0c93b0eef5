/**
 * Issue 28 §1: a contact's card shows every track pitched to them with its stage ('Passed on Nov 3' where
 * they passed), each linking to the track's board; read only once the section is opened.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../web/src/pages/campaigns/campaignView';
import { contact, fakeContactsServer, gate, openContactCard, type ContactsServer } from './contacts-fake-server';
import { currentPath, preloadRoutes } from './helpers';
import { fakePipelineServer, fakeTrack, pipelineEntry, type PipelineServer } from './pipeline-fake-server';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/contacts/ContactsPage');
  await import('../../web/src/pages/tracks/TrackPipelinePage');
}, 60_000);

const mara = contact(1);

function servers(): { contacts: ContactsServer; pipeline: PipelineServer } {
  const pipeline = fakePipelineServer([
    fakeTrack('Harbour Lights', 'trk-harbour', [
      pipelineEntry(1, {
        contact_id: mara.id,
        name: mara.name,
        stage: 'passed',
        derived_stage: 'listened',
        mark: { stage: 'passed', note: null, on: '2026-11-03', set_at: '2026-11-03T10:00:00.000Z' },
      }),
      pipelineEntry(2, { contact_id: 'someone-else' }),
    ]),
    fakeTrack('Night Drive', 'trk-night', [
      pipelineEntry(3, { contact_id: mara.id, name: mara.name, stage: 'opened', pitched_at: '2026-11-10T18:00:00.000Z' }),
    ]),
  ]);
  const contacts = fakeContactsServer([mara, contact(2)]);
  contacts.also.push(pipeline.route);
  return { contacts, pipeline };
}

describe('the tracks pitched to a contact, on its card', () => {
  it('reads nothing until opened, then lists each track with its stage, and where they passed, when', async () => {
    const { contacts } = servers();
    const user = userEvent.setup();
    const card = await openContactCard(contacts, mara.email);
    expect(contacts.calls('GET', `/api/contacts/${mara.id}/tracks`)).toHaveLength(0);

    await user.click(card.getByRole('button', { name: `Tracks pitched to ${mara.name} (${mara.email})` }));
    const list = within(await card.findByRole('list', { name: `Tracks pitched to ${mara.name}` }));
    const items = list.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual(['Harbour LightsPassedPassed on Nov 3, 2026', `Night DriveOpenedPitched ${formatDateTime('2026-11-10T18:00:00.000Z')}`]);
    expect(contacts.calls('GET', `/api/contacts/${mara.id}/tracks`)).toHaveLength(1);

    await user.click(list.getByRole('link', { name: 'Night Drive' }));
    expect(await screen.findByRole('heading', { name: 'Night Drive', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard/tracks/trk-night');
  });

  it('says when no track was pitched to the contact, and offers Retry when the list cannot be read', async () => {
    const { contacts, pipeline } = servers();
    pipeline.fail.contactTracks = { status: 500, message: 'Something went wrong' };
    const user = userEvent.setup();
    const other = contact(2);
    const card = await openContactCard(contacts, other.email);
    await user.click(card.getByRole('button', { name: `Tracks pitched to ${other.name} (${other.email})` }));
    expect(await card.findByText('Failed to load the tracks: Something went wrong')).toBeInTheDocument();

    pipeline.fail.contactTracks = null;
    const held = gate();
    pipeline.hold.contactTracks = held.promise;
    await user.click(card.getByRole('button', { name: 'Retry' }));
    expect(await card.findByText('Loading tracks')).toBeInTheDocument();
    held.open();
    expect(await card.findByText('No track pitched to this contact yet.')).toBeInTheDocument();
  });
});
