/**
 * Issue 25 §3: a draft opens back in Compose. 'Continue in Compose' on the Campaigns list and on a
 * draft's page opens Compose with the draft's mode, track fields and email (an HTML draft's subject and
 * HTML in the composer), and later previews and saves rewrite that same draft. A different compose
 * session in the browser is replaced only after asking.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../schema/api/campaigns';
import { newDraftCampaign } from '../../lambdas/core/campaign';
import type { DraftContent } from '../../lambdas/ports';
import { contact } from './contacts-fake-server';
import { containerOf, fakeComposeServer, recipientBox, renderCompose, type ComposeServer } from './compose-fake-server';
import { campaign as listedCampaign, fakeCampaignsServer, renderCampaigns, sendingCampaign } from './campaigns-fake-server';
import { currentPath, preloadRoutes, testUser } from './helpers';
import { REPLACE_SESSION_TITLE } from '../../web/src/pages/compose/DraftOpener';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/compose/ComposePage');
}, 60_000);

const ana = contact(2, { name: 'Ana Vogel', email: 'ana@deeprecords.example', label_name: 'Deep Records' });
const ben = contact(1, { name: 'Ben Ortiz', email: 'ben@nightowl.example', label_name: 'Night Owl' });

const sessionKey = `trackpitch.compose.${testUser.userId}`;
const trackName = () => screen.getByRole<HTMLInputElement>('textbox', { name: /^Track Name/ });
const description = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: /^Track Description/ });
const slow = { timeout: 60_000 };

const aiContent: DraftContent = {
  mode: 'ai',
  track_name: 'Concrete Dawn',
  track_url: 'https://soundcloud.com/norvik/concrete-dawn',
  genre: 'techno',
  mood: 'dark',
  bpm: 132,
  description: 'Hypnotic peak-time techno.',
  ai_tone: 'friendly',
  email_length: 150,
  email_subject: 'Concrete Dawn for Deep Records',
  email_body: 'Hi [CONTACT_NAME],\n\nConcrete Dawn might suit Deep Records.\n\nBest,\nNorvik',
  personalised_by_writer: true,
  preview_contact_id: ana.id,
  total_recipients: 2,
  track_id: null,
  allow_download: false,
  listen_days: 30,
  released: false,
};

const htmlContent: DraftContent = {
  ...aiContent,
  mode: 'html',
  ai_tone: 'professional',
  email_subject: 'Demo Submission: Concrete Dawn',
  email_body: '<html><body><h1>Concrete Dawn</h1><p>Hi [CONTACT_NAME]</p></body></html>',
  personalised_by_writer: false,
  preview_contact_id: null,
};

function withDraft(server: ComposeServer, id: string, content: DraftContent): Campaign {
  const draft = newDraftCampaign(id, content, '2025-03-01T08:00:00.000Z');
  server.campaigns.set(id, draft);
  return draft;
}

/** Waits for Compose to show, its contacts listed. */
async function composeShown() {
  await screen.findByRole('heading', { name: 'Compose Campaign', level: 1 });
  await waitFor(() => expect(screen.queryByText('Loading contacts...')).toBeNull());
  await screen.findByRole('textbox', { name: /^Track Name/ });
}

describe('compose: a draft opens back in Compose', slow, () => {
  it("'Continue in Compose' on the Campaigns list opens the AI draft with its track, tone, preview and preview contact; Generate rewrites it", async () => {
    const server = fakeComposeServer({ contacts: [ana, ben] });
    withDraft(server, 'draft-ai', aiContent);
    const user = userEvent.setup();
    renderCompose(server, {}, '/dashboard/campaigns');
    await user.click(await screen.findByRole('link', { name: 'Continue in Compose: Concrete Dawn' }, { timeout: 10_000 }));

    await composeShown();
    await waitFor(() => expect(currentPath()).toBe('/dashboard/compose'));
    expect(trackName()).toHaveValue('Concrete Dawn');
    expect(screen.getByRole('textbox', { name: 'Track URL *' })).toHaveValue('https://soundcloud.com/norvik/concrete-dawn');
    expect(description()).toHaveValue('Hypnotic peak-time techno.');
    expect(
      createWrapper()
        .findAllFormFields()
        .find((field) => field.findLabel()?.getElement().textContent === 'Email Tone')!
        .findControl()!
        .findSelect()!
        .findTrigger()
        .getElement(),
    ).toHaveTextContent('Friendly');
    expect(within(containerOf('Email Preview')).getByText('Concrete Dawn for Deep Records')).toBeInTheDocument();
    expect(recipientBox(ana.email)).toBeChecked();
    // The draft keeps no recipient list: Compose says so.
    expect(screen.getByText(/This draft was saved for 2 recipients/)).toBeInTheDocument();

    await user.click(recipientBox(ben.email));
    expect(screen.queryByText(/This draft was saved for 2 recipients/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Generate Email Preview' }));
    await waitFor(() => expect(server.bodies('POST', '/api/campaigns/generate-preview')).toHaveLength(1));
    expect(server.bodies('POST', '/api/campaigns/generate-preview')[0]).toMatchObject({ campaign_id: 'draft-ai', total_recipients: 2 });
    expect(server.campaigns.size).toBe(1);
    // The opened draft is this compose session's: kept for a visit elsewhere.
    expect(JSON.parse(window.sessionStorage.getItem(sessionKey)!)).toMatchObject({ campaign_id: 'draft-ai' });
  });

  it('an HTML draft opens in HTML mode with its subject and HTML in the composer; Create Preview replaces that draft', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    withDraft(server, 'draft-html', htmlContent);
    const user = userEvent.setup();
    renderCompose(server, {}, '/dashboard/compose?draft=draft-html');
    await composeShown();
    expect(createWrapper().findSegmentedControl()!.findSelectedSegment()!.getElement()).toHaveTextContent('HTML Mode');
    const subject = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Subject' }, { timeout: 30_000 });
    expect(subject).toHaveValue('Demo Submission: Concrete Dawn');
    expect(screen.getByRole('textbox', { name: /^HTML Body/ })).toHaveValue(htmlContent.email_body);
    expect(trackName()).toHaveValue('Concrete Dawn');

    await user.click(recipientBox(ana.email));
    await user.click(screen.getByRole('button', { name: 'Create Preview' }));
    await waitFor(() => expect(server.calls('PUT', '/api/campaigns/draft-html')).toHaveLength(1));
    expect(server.calls('POST', '/api/campaigns')).toHaveLength(0);
    expect(server.campaigns.size).toBe(1);
  });

  it('asks before replacing another compose session: Keep current session keeps it, Open draft replaces it', async () => {
    window.sessionStorage.setItem(
      sessionKey,
      JSON.stringify({ mode: 'ai', track: { track_name: 'Other Track' }, editing: null, campaign_id: null, selected_ids: [], html: null }),
    );
    const server = fakeComposeServer({ contacts: [ana] });
    withDraft(server, 'draft-ai', aiContent);
    const user = userEvent.setup();
    renderCompose(server, {}, '/dashboard/campaigns');

    await user.click(await screen.findByRole('link', { name: 'Continue in Compose: Concrete Dawn' }, { timeout: 10_000 }));
    let dialog = await screen.findByRole('dialog', { name: REPLACE_SESSION_TITLE });
    expect(dialog).toHaveTextContent('("Other Track")');
    await user.click(within(dialog).getByRole('button', { name: 'Keep current session' }));
    await composeShown();
    expect(trackName()).toHaveValue('Other Track');
    expect(currentPath()).toBe('/dashboard/compose');

    await user.click(screen.getByRole('link', { name: 'Campaigns' }));
    await user.click(await screen.findByRole('link', { name: 'Continue in Compose: Concrete Dawn' }, { timeout: 10_000 }));
    dialog = await screen.findByRole('dialog', { name: REPLACE_SESSION_TITLE });
    await user.click(within(dialog).getByRole('button', { name: 'Open draft' }));
    await composeShown();
    await waitFor(() => expect(trackName()).toHaveValue('Concrete Dawn'));
    expect(JSON.parse(window.sessionStorage.getItem(sessionKey)!)).toMatchObject({ campaign_id: 'draft-ai', track: { track_name: 'Concrete Dawn' } });
  });

  it('the draft this session already works on opens without asking, with its unsaved edits and recipients', async () => {
    window.sessionStorage.setItem(
      sessionKey,
      JSON.stringify({ mode: 'ai', track: { track_name: 'Concrete Dawn (edit)' }, editing: null, campaign_id: 'draft-ai', selected_ids: [ben.id], html: null }),
    );
    const server = fakeComposeServer({ contacts: [ana, ben] });
    withDraft(server, 'draft-ai', aiContent);
    renderCompose(server, {}, '/dashboard/compose?draft=draft-ai');
    await composeShown();
    expect(screen.queryByRole('dialog', { name: REPLACE_SESSION_TITLE })).toBeNull();
    expect(trackName()).toHaveValue('Concrete Dawn (edit)');
    expect(await screen.findByRole('checkbox', { name: /ben@nightowl\.example/ })).toBeChecked();
  });
});

describe("campaign pages: 'Continue in Compose'", slow, () => {
  it("a draft's page offers it, linking to Compose with the draft", async () => {
    const server = fakeCampaignsServer({ campaigns: [listedCampaign(1), sendingCampaign(2, 10, 3)] });
    renderCampaigns(server, '/dashboard/campaigns/campaign-1');
    const pageButton = await screen.findByRole('link', { name: 'Continue in Compose' });
    expect(pageButton).toHaveAttribute('href', '/dashboard/compose?draft=campaign-1');
  });

  it('a sending campaign has no Continue in Compose, on the list or on its page', async () => {
    const server = fakeCampaignsServer({ campaigns: [listedCampaign(1), sendingCampaign(2, 10, 3)] });
    const user = userEvent.setup();
    renderCampaigns(server);
    expect(await screen.findByRole('link', { name: 'Continue in Compose: Track 1' })).toHaveAttribute('href', '/dashboard/compose?draft=campaign-1');
    expect(screen.queryByRole('link', { name: 'Continue in Compose: Track 2' })).toBeNull();
    await user.click(screen.getByRole('link', { name: 'View Track 2' }));
    await screen.findByRole('heading', { name: 'Track 2', level: 1 });
    expect(screen.queryByRole('link', { name: 'Continue in Compose' })).toBeNull();
  });
});
