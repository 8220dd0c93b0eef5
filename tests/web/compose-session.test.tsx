/**
 * Issue 25 §3: Compose keeps the artist's work. What was typed and chosen survives a visit to another
 * page (kept per user in sessionStorage), 'Discard' clears it, and a compose session writes one draft,
 * rewritten in place, even across such a visit.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { contact } from './contacts-fake-server';
import { containerOf, enter, fakeComposeServer, fillTrack, openCompose, recipientBox, validTrack, writtenEmail } from './compose-fake-server';
import { currentPath, preloadRoutes, testUser, toast } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/compose/ComposePage');
}, 60_000);

const ana = contact(2, { name: 'Ana Vogel', email: 'ana@deeprecords.example', label_name: 'Deep Records' });
const ben = contact(1, { name: 'Ben Ortiz', email: 'ben@nightowl.example', label_name: 'Night Owl', contact_type: 'DJ' });

const trackName = () => screen.getByRole('textbox', { name: 'Track Name *' });
const description = () => screen.getByRole('textbox', { name: 'Track Description *' });
const sessionKey = `trackpitch.compose.${testUser.userId}`;

/** Leaves Compose for Contacts by the sidebar, then comes back the same way. */
async function visitContactsAndReturn(user: UserEvent) {
  await user.click(screen.getByRole('link', { name: 'Contacts' }));
  await screen.findByRole('heading', { name: 'Contacts', level: 1 });
  await waitFor(() => expect(currentPath()).toBe('/dashboard/contacts'));
  await user.click(screen.getByRole('link', { name: 'Compose' }));
  await screen.findByRole('heading', { name: 'Compose Campaign', level: 1 });
  await waitFor(() => expect(screen.queryByText('Loading contacts...')).toBeNull());
}

describe('compose: the session is kept', () => {
  it('a track, a description and the recipients typed before a visit to Contacts are there on return', async () => {
    const server = fakeComposeServer({ contacts: [ana, ben] });
    const user = userEvent.setup();
    await openCompose(server);
    await enter(user, trackName(), 'Concrete Dawn');
    await enter(user, description(), 'Hypnotic peak-time techno.');
    await user.click(recipientBox(ben.email));

    await visitContactsAndReturn(user);

    expect(trackName()).toHaveValue('Concrete Dawn');
    expect(description()).toHaveValue('Hypnotic peak-time techno.');
    expect(recipientBox(ben.email)).toBeChecked();
    expect(recipientBox(ana.email)).not.toBeChecked();
  });

  it("'Discard' asks first, then clears the form and the kept session: a later visit starts empty", async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = userEvent.setup();
    await openCompose(server);
    const discardButton = () => screen.getByRole('button', { name: 'Discard' });
    // Nothing typed: nothing to discard.
    expect(discardButton()).toBeDisabled();
    await enter(user, trackName(), 'Concrete Dawn');
    await user.click(recipientBox(ana.email));

    await user.click(discardButton());
    const dialog = await screen.findByRole('dialog', { name: 'Discard this campaign?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(trackName()).toHaveValue('Concrete Dawn');

    await user.click(discardButton());
    await user.click(within(await screen.findByRole('dialog', { name: 'Discard this campaign?' })).getByRole('button', { name: 'Discard' }));
    await toast('Compose session discarded');
    expect(trackName()).toHaveValue('');
    expect(recipientBox(ana.email)).not.toBeChecked();
    expect(window.sessionStorage.getItem(sessionKey)).toBeNull();

    await visitContactsAndReturn(user);
    expect(trackName()).toHaveValue('');
  });

  it("is kept per user: another user's session in the same tab is not shown", async () => {
    const other = { mode: 'ai', track: { track_name: 'Not yours' }, editing: null, campaign_id: null, selected_ids: [] };
    window.sessionStorage.setItem('trackpitch.compose.someone-else', JSON.stringify(other));
    await openCompose(fakeComposeServer({ contacts: [ana] }));
    expect(trackName()).toHaveValue('');
  });

  it('a kept session that cannot be read (edited by hand) opens an empty form instead of failing', async () => {
    window.sessionStorage.setItem(sessionKey, '{not json');
    await openCompose(fakeComposeServer({ contacts: [ana] }));
    expect(trackName()).toHaveValue('');
  });
});

describe('compose: HTML mode is kept too', { timeout: 60_000 }, () => {
  const composerSubject = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Subject' });
  const composerBody = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: /^HTML Body/ });

  it('the HTML and subject typed in the composer survive a visit to Contacts; Discard clears them', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = userEvent.setup();
    await openCompose(server);
    act(() => createWrapper().findSegmentedControl()!.findSegmentById('html')!.click());
    const tiles = await waitFor(
      () => {
        const found = createWrapper().findTiles();
        if (!found) throw new Error('HTML mode is still loading');
        return found;
      },
      { timeout: 30_000 },
    );
    act(() => tiles.findInputByValue('custom')!.click());
    await user.clear(composerBody());
    await enter(user, composerBody(), '<p>My own pitch for [NAME]</p>');
    await user.clear(composerSubject());
    await enter(user, composerSubject(), 'Concrete Dawn: a demo');

    await visitContactsAndReturn(user);

    expect(createWrapper().findSegmentedControl()!.findSelectedSegment()!.getElement()).toHaveTextContent('HTML Mode');
    expect(await screen.findByRole('textbox', { name: /^HTML Body/ }, { timeout: 30_000 })).toHaveValue('<p>My own pitch for [NAME]</p>');
    expect(composerSubject()).toHaveValue('Concrete Dawn: a demo');

    await user.click(screen.getByRole('button', { name: 'Discard' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Discard this campaign?' })).getByRole('button', { name: 'Discard' }));
    await toast('Compose session discarded');
    // Only the mode is kept (the artist stays in HTML mode); the HTML and subject are gone.
    await waitFor(() => expect(window.sessionStorage.getItem(sessionKey) ?? '').not.toContain('My own pitch'));
    expect(JSON.parse(window.sessionStorage.getItem(sessionKey) ?? '{}')).not.toHaveProperty('html.drafts.custom');
    // HTML mode starts again from its first template: the composer and what was typed in it are gone.
    await waitFor(() => expect(screen.queryByRole('textbox', { name: /^HTML Body/ })).toBeNull());
    expect(createWrapper().findTiles()!.findInputByValue('minimal')!.getElement()).toBeChecked();
    act(() => createWrapper().findTiles()!.findInputByValue('custom')!.click());
    expect(composerBody().value).not.toContain('My own pitch');
  });
});

describe('compose: one draft per session', () => {
  it('Generate Email Preview after a visit elsewhere rewrites the same draft, whose preview shows again on return', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = userEvent.setup();
    await openCompose(server);
    await fillTrack(user);
    await user.click(recipientBox(ana.email));
    const generate = () => screen.getByRole('button', { name: 'Generate Email Preview' });
    await user.click(generate());
    const subject = writtenEmail(validTrack, ana).subject;
    await within(containerOf('Email Preview')).findByText(subject);
    const [draft] = [...server.campaigns.keys()];

    await visitContactsAndReturn(user);
    // The draft is read back: its preview shows without writing anything.
    await within(containerOf('Email Preview')).findByText(subject);
    expect(server.calls('GET', `/api/campaigns/${draft}`)).toHaveLength(1);

    await waitFor(() => expect(generate()).toBeEnabled());
    await user.click(generate());
    await waitFor(() => expect(server.bodies('POST', '/api/campaigns/generate-preview')).toHaveLength(2));
    expect(server.bodies('POST', '/api/campaigns/generate-preview').map((body) => body.campaign_id)).toEqual([undefined, draft]);
    expect(server.campaigns.size).toBe(1);
  });

  it('a kept draft deleted meanwhile is forgotten: the next preview starts a new draft', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = userEvent.setup();
    await openCompose(server);
    await fillTrack(user);
    await user.click(recipientBox(ana.email));
    await user.click(screen.getByRole('button', { name: 'Generate Email Preview' }));
    await within(containerOf('Email Preview')).findByText(writtenEmail(validTrack, ana).subject);
    const [draft] = [...server.campaigns.keys()];

    await user.click(screen.getByRole('link', { name: 'Contacts' }));
    await screen.findByRole('heading', { name: 'Contacts', level: 1 });
    server.campaigns.delete(draft!);
    await user.click(screen.getByRole('link', { name: 'Compose' }));
    await screen.findByRole('heading', { name: 'Compose Campaign', level: 1 });
    await waitFor(() => expect(server.calls('GET', `/api/campaigns/${draft}`)).toHaveLength(1));

    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate Email Preview' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Generate Email Preview' }));
    await waitFor(() => expect(server.campaigns.size).toBe(1));
    expect(server.bodies('POST', '/api/campaigns/generate-preview')[1]).not.toHaveProperty('campaign_id');
  });
});

describe('compose: a template applied before the track details', () => {
  it('names the missing fields instead of previewing blanks, and fills the placeholders as the details come', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = userEvent.setup();
    await openCompose(server);
    await user.click(await screen.findByRole('button', { name: 'Use template DJ Promo' }));
    const card = within(containerOf('Email Preview'));
    const subject = card.getByRole('textbox', { name: 'Subject' });
    expect(subject).toHaveValue('Fresh promo for your sets: {{track_name}}');
    expect(await screen.findByText(/^Fill in Track Name, Track URL/)).toBeInTheDocument();

    await enter(user, trackName(), 'Concrete Dawn');
    await waitFor(() => expect(subject).toHaveValue('Fresh promo for your sets: Concrete Dawn'));
    expect(screen.getByText(/^Fill in Track URL/)).toBeInTheDocument();
    await enter(user, screen.getByRole('textbox', { name: 'Track URL *' }), 'soundcloud.com/norvik/concrete-dawn');
    const body = card.getByRole<HTMLTextAreaElement>('textbox', { name: 'Email Body' });
    await waitFor(() => expect(body.value).toContain('https://soundcloud.com/norvik/concrete-dawn'));
    expect(screen.getByText('Fill in Track Description: the email shows its placeholder until you do.')).toBeInTheDocument();
    await enter(user, description(), 'Hypnotic peak-time techno.');
    await waitFor(() => expect(body.value).toContain('Hypnotic peak-time techno.'));
    expect(body.value).not.toMatch(/\{\{/);
    expect(screen.queryByText(/^Fill in /)).toBeNull();
  });
});
