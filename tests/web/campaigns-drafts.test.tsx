/**
 * Issue 25 §3: drafts can be deleted on the Campaigns page, one (its card's Delete) or several (ticked,
 * then 'Delete Selected'), after a confirmation; a campaign that left draft cannot be ticked or deleted.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaign, fakeCampaignsServer, renderCampaigns, sendingCampaign } from './campaigns-fake-server';
import { preloadRoutes, toast } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/campaigns/CampaignsPage');
}, 60_000);

const cardTitles = () => screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);

describe('campaigns list: deleting drafts', () => {
  it("deletes one draft from its card after 'Delete Drafts' confirms; a sent campaign has no Delete", async () => {
    const server = fakeCampaignsServer({ campaigns: [campaign(1), sendingCampaign(2, 10, 3)] });
    const user = userEvent.setup();
    renderCampaigns(server);
    await screen.findByRole('button', { name: 'Delete draft Track 1' });
    expect(screen.queryByRole('button', { name: 'Delete draft Track 2' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Delete draft Track 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Drafts' });
    expect(dialog).toHaveTextContent('You are about to delete 1 draft. This action cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await toast('1 draft deleted');
    expect(server.campaigns.has('campaign-1')).toBe(false);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete draft Track 1' })).toBeNull());
    expect(cardTitles()).toContain('Track 2');
  });

  it("deletes the ticked drafts with 'Delete Selected'; only drafts can be ticked", async () => {
    const server = fakeCampaignsServer({ campaigns: [campaign(1), campaign(2), campaign(3), sendingCampaign(4, 10, 3)] });
    const user = userEvent.setup();
    renderCampaigns(server);
    await screen.findByRole('button', { name: 'Delete draft Track 1' });
    const deleteSelected = screen.getByRole('button', { name: 'Delete Selected' });
    expect(deleteSelected).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Select draft Track 1' })).toBeEnabled();
    expect(screen.getByRole('checkbox', { name: 'Track 4: sent, cannot be deleted' })).toBeDisabled();

    await user.click(screen.getByRole('checkbox', { name: 'Select draft Track 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select draft Track 3' }));
    expect(screen.getByText('(2 selected)')).toBeInTheDocument();
    await user.click(deleteSelected);
    const dialog = await screen.findByRole('dialog', { name: 'Delete Drafts' });
    expect(dialog).toHaveTextContent('You are about to delete 2 drafts. This action cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await toast('2 drafts deleted');
    expect([...server.campaigns.keys()].sort()).toEqual(['campaign-2', 'campaign-4']);
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'Select draft Track 1' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Delete Selected' })).toBeDisabled();
  });

  it('Cancel deletes nothing', async () => {
    const server = fakeCampaignsServer({ campaigns: [campaign(1)] });
    const user = userEvent.setup();
    renderCampaigns(server);
    await user.click(await screen.findByRole('button', { name: 'Delete draft Track 1' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete Drafts' })).getByRole('button', { name: 'Cancel' }));
    expect(server.campaigns.has('campaign-1')).toBe(true);
  });
});
