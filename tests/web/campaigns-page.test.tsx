import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaignMessages, sendingApiMessages } from '../../schema/api/sending';
import { CAMPAIGN_CARDS_PER_ROW } from '../../web/src/pages/campaigns/CampaignsPage';
import { TODAY_STATUS_TITLE } from '../../web/src/pages/campaigns/TodayStatusCard';
import { monthlyLimitPauseTexts } from '../../web/src/pages/campaigns/campaignView';
import { campaign, fakeCampaignsServer, renderCampaigns, sendingCampaign, sendingStatus, type CampaignsServer } from './campaigns-fake-server';
import { toast } from './compose-fake-server';
import { gate } from './contacts-fake-server';
import { currentPath, preloadRoutes } from './helpers';
import { apiMessages } from '../../schema/api/serverMessages';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/campaigns/CampaignsPage');
  await import('../../web/src/pages/campaigns/CampaignDetailPage');
}, 60_000);

async function openList(server: CampaignsServer) {
  const result = renderCampaigns(server);
  await screen.findByRole('heading', { name: 'Campaigns', level: 1 });
  return result;
}

const cards = () => createWrapper().findCards()!;

/** The card whose header names `track`. */
async function cardOf(track: string): Promise<HTMLElement> {
  return waitFor(() => {
    const card = cards()
      .findItems()
      .find((item) => item.findCardHeader()?.getElement().textContent.includes(track));
    if (!card) throw new Error(`no card for ${track}`);
    return card.getElement();
  });
}

const badgeOf = async (track: string) =>
  createWrapper(await cardOf(track))
    .findBadge()!
    .getElement().textContent;

describe('campaigns list', () => {
  it('shows a card per campaign with title, genre, description, times, progress, counts and View / Stats links', async () => {
    const server = fakeCampaignsServer({
      campaigns: [
        sendingCampaign(1, 40, 10, {
          track_name: 'Midnight Drive',
          genre: 'Techno',
          description: 'A driving peak-time track.',
          emails_opened: 7,
          emails_clicked: 3,
          started_sending_at: '2025-03-01T18:00:00.000Z',
        }),
      ],
    });
    const user = userEvent.setup();
    await openList(server);

    const card = within(await cardOf('Midnight Drive'));
    expect(card.getByRole('heading', { name: 'Midnight Drive' })).toBeInTheDocument();
    expect(card.getByText('Techno')).toBeInTheDocument();
    expect(card.getByText('A driving peak-time track.')).toBeInTheDocument();
    expect(card.getByText('Started')).toBeInTheDocument();
    expect(card.getByText('Completed')).toBeInTheDocument();
    expect(card.getByText('10 of 40 sent')).toBeInTheDocument();
    expect(
      createWrapper(await cardOf('Midnight Drive'))
        .findProgressBar()!
        .findPercentageText()!
        .getElement().textContent,
    ).toBe('25%');
    for (const [label, value] of [
      ['Sent', '10'],
      ['Opened', '7'],
      ['Clicked', '3'],
    ] as const) {
      expect(card.getByText(label).closest('dt')?.nextElementSibling?.textContent).toBe(value);
    }
    // Only a paused campaign offers Resume.
    expect(card.queryByRole('button', { name: /Resume/ })).toBeNull();

    const stats = card.getByRole('link', { name: 'Stats of Midnight Drive' });
    expect(stats).toHaveAttribute('href', '/dashboard/campaigns/campaign-1#statistics');
    await user.click(stats);
    await waitFor(() => expect(currentPath()).toBe('/dashboard/campaigns/campaign-1'));
    expect(await screen.findByRole('heading', { name: 'Statistics' })).toBeInTheDocument();
  });

  it('shows Listened and Answered on the card of a campaign with an uploaded track, and only there', async () => {
    const server = fakeCampaignsServer({
      campaigns: [
        sendingCampaign(1, 40, 30, {
          track_name: 'Midnight Drive',
          track_id: '01KAKZ3R0000000000000000TR',
          emails_opened: 20,
          emails_listened: 12,
          emails_answered: 4,
        }),
        sendingCampaign(2, 10, 10, { track_name: 'Linked Only', emails_opened: 5 }),
      ],
    });
    await openList(server);
    const counts = ['Sent', 'Opened', 'Clicked', 'Listened', 'Answered'];
    const figuresOf = async (track: string) =>
      Object.fromEntries(
        [...(await cardOf(track)).querySelectorAll('dt')]
          .filter((dt) => counts.includes(dt.textContent))
          .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
      );
    expect(await figuresOf('Midnight Drive')).toEqual({ Sent: '30', Opened: '20', Clicked: '0', Listened: '12', Answered: '4' });
    // A campaign that links to a track elsewhere has no listen page: no listens to show.
    expect(await figuresOf('Linked Only')).toEqual({ Sent: '10', Opened: '5', Clicked: '0' });
  });

  it('lays cards out 1 / 2 / 3 to a row by width', async () => {
    expect(CAMPAIGN_CARDS_PER_ROW.map((layout) => layout.cards)).toEqual([1, 2, 3]);
    expect(CAMPAIGN_CARDS_PER_ROW[0]!.minWidth ?? 0).toBeLessThanOrEqual(360);
    const server = fakeCampaignsServer({ campaigns: [campaign(1), campaign(2), campaign(3)] });
    await openList(server);
    await cardOf('Track 1');
    // Newest first.
    expect(
      cards()
        .findItems()
        .map((item) => item.findCardHeader()!.find('h2')!.getElement().textContent),
    ).toEqual(['Track 3', 'Track 2', 'Track 1']);
  });

  it('badges each campaign by the spec §4 rules', async () => {
    const server = fakeCampaignsServer({
      campaigns: [
        campaign(1, { track_name: 'Draft One' }),
        sendingCampaign(2, 5, 5, { track_name: 'All Sent', status: 'sending' }),
        sendingCampaign(3, 5, 2, { track_name: 'Half Way' }),
        sendingCampaign(4, 5, 0, { track_name: 'Not Started', status: 'scheduled', send_after: '2025-03-02T08:00:00.000Z' }),
        sendingCampaign(5, 5, 2, { track_name: 'On Hold', sending_status: 'paused', pause_reason: 'user' }),
        sendingCampaign(6, 5, 3, { track_name: 'Ended With Failures', status: 'completed', sending_status: null, emails_failed: 2 }),
        sendingCampaign(7, 5, 0, { track_name: 'Queued', status: 'sending' }),
      ],
    });
    await openList(server);

    expect(await badgeOf('Draft One')).toBe('Draft');
    expect(await badgeOf('All Sent')).toBe('Complete');
    expect(await badgeOf('Half Way')).toBe('Sending');
    expect(await badgeOf('Not Started')).toBe('Scheduled');
    expect(await badgeOf('On Hold')).toBe('Paused');
    // Nothing remains to try (3 sent + 2 failed): not "Sending"; the raw status "completed".
    expect(await badgeOf('Ended With Failures')).toBe('Complete');
    // Queued but nothing out yet: the raw status ('sending').
    expect(await badgeOf('Queued')).toBe('Sending');
  });

  it('says on the card when a campaign is paused at the plan’s monthly limit, and only then', async () => {
    const server = fakeCampaignsServer({
      campaigns: [
        sendingCampaign(1, 10, 4, { track_name: 'At The Limit', sending_status: 'paused', pause_reason: 'monthly_limit' }),
        sendingCampaign(2, 10, 4, { track_name: 'On Hold', sending_status: 'paused', pause_reason: 'user' }),
      ],
    });
    await openList(server);
    expect(await badgeOf('At The Limit')).toBe('Paused');
    expect(within(await cardOf('At The Limit')).getByText(monthlyLimitPauseTexts.card)).toBeInTheDocument();
    expect(within(await cardOf('At The Limit')).getByRole('button', { name: 'Resume At The Limit (6 pending)' })).toBeInTheDocument();
    expect(within(await cardOf('On Hold')).queryByText(monthlyLimitPauseTexts.card)).toBeNull();
  });

  it("offers 'Resume (n)' with the pending count only on a paused campaign, and resumes it", async () => {
    const server = fakeCampaignsServer({
      campaigns: [
        sendingCampaign(1, 10, 4, { track_name: 'On Hold', sending_status: 'paused', pause_reason: 'user', emails_skipped: 1 }),
        sendingCampaign(2, 10, 4, { track_name: 'Going' }),
      ],
    });
    const user = userEvent.setup();
    await openList(server);

    const going = within(await cardOf('Going'));
    expect(going.queryByRole('button', { name: /Resume/ })).toBeNull();
    const onHold = within(await cardOf('On Hold'));
    const resume = onHold.getByRole('button', { name: 'Resume On Hold (5 pending)' });
    expect(resume).toHaveTextContent('Resume (5)');

    await user.click(resume);
    await toast(campaignMessages.resumed);
    expect(server.calls('POST', '/api/campaigns/campaign-1/resume')).toHaveLength(1);
    await waitFor(async () => expect(await badgeOf('On Hold')).toBe('Sending'));
    expect(within(await cardOf('On Hold')).queryByRole('button', { name: /Resume/ })).toBeNull();
  });

  it("says 'Failed to resume: {message}' when resuming fails", async () => {
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 10, 4, { track_name: 'On Hold', sending_status: 'paused', pause_reason: 'user' })],
    });
    server.fail.resume = { status: 409, message: sendingApiMessages.notPaused };
    const user = userEvent.setup();
    await openList(server);
    await user.click(within(await cardOf('On Hold')).getByRole('button', { name: /Resume/ }));
    await toast(campaignMessages.resumeFailed(sendingApiMessages.notPaused));
    expect(within(await cardOf('On Hold')).getByRole('button', { name: /Resume/ })).toBeInTheDocument();
  });

  it("opens a campaign's detail from View", async () => {
    const server = fakeCampaignsServer({ campaigns: [sendingCampaign(1, 10, 4, { track_name: 'Going' })] });
    const user = userEvent.setup();
    await openList(server);
    await user.click(within(await cardOf('Going')).getByRole('link', { name: 'View Going' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/campaigns/campaign-1'));
    expect(await screen.findByRole('heading', { name: 'Going', level: 1 })).toBeInTheDocument();
  });

  it("shows 'No campaigns yet' with a way to Compose when there are none", async () => {
    const server = fakeCampaignsServer();
    const user = userEvent.setup();
    await openList(server);
    expect(await screen.findByText(campaignMessages.empty)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to Compose' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/compose'));
  });

  it("says 'Failed to load campaigns.' when the list cannot be read, and Retry loads it", async () => {
    const server = fakeCampaignsServer({ campaigns: [campaign(1)] });
    server.fail.list = { status: 500, message: apiMessages.internalError };
    const user = userEvent.setup();
    await openList(server);
    expect(await screen.findByText(campaignMessages.loadFailed)).toBeInTheDocument();
    server.fail.list = null;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await cardOf('Track 1');
    expect(screen.queryByText(campaignMessages.loadFailed)).toBeNull();
  });

  it('shows a loading state until the list arrives', async () => {
    const server = fakeCampaignsServer({ campaigns: [campaign(1)] });
    const list = gate();
    server.hold.list = list.promise;
    await openList(server);
    expect(await screen.findByText('Loading campaigns')).toBeInTheDocument();
    expect(screen.queryByText(campaignMessages.empty)).toBeNull();
    list.open();
    await cardOf('Track 1');
    expect(screen.queryByText('Loading campaigns')).toBeNull();
  });

  // Sent today of the daily limit, the month's plan usage, and the midnight reset.
  it("shows today's sending status: daily and monthly usage, the mailbox, the next send and the reset", async () => {
    const server = fakeCampaignsServer({
      status: sendingStatus({ today: { sent: 12 }, month: { used: 120, limit: 500 }, mailbox: { daily_limit: 500 } }),
    });
    await openList(server);
    const card = within(
      createWrapper()
        .findAllContainers()
        .find((c) => c.findHeader()?.getElement().textContent === TODAY_STATUS_TITLE)!
        .getElement(),
    );
    expect(await card.findByText(/12 of 500 emails \(daily limit\)\. Resets at midnight Pacific Time/)).toBeInTheDocument();
    expect(card.getByText('120 of 500 emails of your plan')).toBeInTheDocument();
    expect(card.getByText('Connected: robin@gmail.com')).toBeInTheDocument();
    expect(card.getByText('Next send')).toBeInTheDocument();
    expect(card.queryByText('Nothing queued')).toBeNull();
  });

  it('says so when the mailbox is not connected and nothing is queued', async () => {
    const server = fakeCampaignsServer({ status: sendingStatus({ mailbox: { connected: false, email: null }, next_send_at: null }) });
    const user = userEvent.setup();
    await openList(server);
    expect(await screen.findByText('Not connected')).toBeInTheDocument();
    expect(screen.getByText('Nothing queued')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Connect in Settings' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/settings'));
  });
});
