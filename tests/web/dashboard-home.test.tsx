/**
 * The dashboard home (spec §2 Dashboard home, §9): the mailbox card, the nine stat cards from GET
 * /api/dashboard and the profile the shell holds, the Email Limit Reached notice, the last 5 sends and
 * their empty state, the loading state and the error with Retry.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { insightsMessages } from '../../schema/api/insightsValues';
import { gate } from './contacts-fake-server';
import { dashboardStats, fakeDashboardServer, recentSend, renderDashboard } from './dashboard-fake-server';
import { currentPath, preloadRoutes } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/api/insights');
}, 60_000);

/** Spec §2's nine cards, in its order. */
const CARD_LABELS = [
  'Total Contacts',
  'Emails Sent',
  'Emails Remaining',
  'Total Campaigns',
  'Campaigns This Month',
  'Emails This Week',
  'Emails Opened',
  'Average Open Rate',
  'Current Plan',
];

const card = (label: string) => screen.getByRole('group', { name: label });
/** What a card shows after its label: the value, then its description. */
const cardText = (label: string) => card(label).textContent.slice(label.length).trim();

const pro = { tier: 'pro', emails_used: 12, email_limit: 500 } as const;

/** The page once the figures are in (Total Contacts no longer busy). */
async function settled() {
  await waitFor(() => expect(card('Total Contacts')).not.toHaveAttribute('aria-busy'));
}

describe('dashboard home: the stat cards', () => {
  it('shows the nine cards in order with the figures of GET /api/dashboard and the plan and month of the profile', async () => {
    const server = fakeDashboardServer();
    renderDashboard(server, pro);
    await settled();

    const labels = screen
      .getAllByRole('group')
      .map((group) => group.getAttribute('aria-label'))
      .filter((label) => label !== null);
    expect(labels).toEqual(CARD_LABELS);
    expect(cardText('Total Contacts')).toBe('42In your contacts');
    // All time from the counters, not this month's usage.
    expect(cardText('Emails Sent')).toBe('120All time');
    expect(cardText('Emails Remaining')).toBe('48812 of 500 this month');
    expect(cardText('Total Campaigns')).toBe('6All time');
    expect(cardText('Campaigns This Month')).toBe('2Sent this month');
    expect(cardText('Emails This Week')).toBe('17Sent in the last 7 days');
    expect(cardText('Emails Opened')).toBe('45+ 7 machine opens');
    expect(cardText('Average Open Rate')).toBe('38%Opened by people, of emails sent');
    expect(cardText('Current Plan')).toBe('Pro500 emails a month');
    expect(server.requests()).toBe(1);
  });

  it("shows a 0% open rate as 0%, and '—' with 'No emails sent yet' before the first send", async () => {
    const server = fakeDashboardServer(dashboardStats({ emails_sent: 3, emails_opened: 0, emails_machine_opened: 0, average_open_rate: 0 }));
    const { unmount } = renderDashboard(server, pro);
    await settled();
    expect(cardText('Average Open Rate')).toBe('0%Opened by people, of emails sent');
    expect(cardText('Emails Opened')).toBe('0By people');
    unmount();

    const fresh = fakeDashboardServer(
      dashboardStats({ emails_sent: 0, emails_opened: 0, emails_machine_opened: 0, average_open_rate: null, emails_this_week: 0, total_campaigns: 0 }),
    );
    renderDashboard(fresh, pro);
    await settled();
    expect(cardText('Average Open Rate')).toBe(`—${insightsMessages.empty}`);
    expect(cardText('Emails Sent')).toBe('0All time');
  });

  it('says why machine opens are apart, and counts one in the singular', async () => {
    const server = fakeDashboardServer(dashboardStats({ emails_machine_opened: 1 }));
    renderDashboard(server, pro);
    await settled();
    expect(cardText('Emails Opened')).toBe('45+ 1 machine open');
    await userEvent.setup().click(within(card('Emails Opened')).getByRole('button', { name: 'Why machine opens are apart' }));
    expect(await screen.findByText(insightsMessages.machineOpensWhy)).toBeInTheDocument();
  });

  it("shows Unlimited emails remaining and the month's sends on Expert", async () => {
    const server = fakeDashboardServer();
    renderDashboard(server, { tier: 'label', emails_used: 900, email_limit: null, subscription_status: 'active' });
    await settled();
    expect(cardText('Emails Remaining')).toBe('Unlimited900 sent this month');
    expect(cardText('Current Plan')).toBe('ExpertUnlimited emails');
    expect(screen.queryByText('Email Limit Reached')).not.toBeInTheDocument();
  });

  it.each([
    { case: 'free at its limit', profile: { tier: 'free', emails_used: 50, email_limit: 50 }, notice: true, remaining: '0' },
    { case: 'free over its limit (a lowered limit)', profile: { tier: 'free', emails_used: 60, email_limit: 50 }, notice: true, remaining: '0' },
    { case: 'free with one email left', profile: { tier: 'free', emails_used: 49, email_limit: 50 }, notice: false, remaining: '1' },
    { case: 'pro at its limit', profile: { tier: 'pro', emails_used: 500, email_limit: 500 }, notice: false, remaining: '0' },
  ] as const)('Email Limit Reached only for a free plan with none left: $case', async ({ profile, notice, remaining }) => {
    renderDashboard(fakeDashboardServer(), profile);
    await settled();
    expect(cardText('Emails Remaining')).toBe(`${remaining}${profile.emails_used} of ${profile.email_limit} this month`);
    if (notice) {
      expect(screen.getByText('Email Limit Reached')).toBeInTheDocument();
      expect(screen.getByText(/Upgrade your plan to continue sending/)).toBeInTheDocument();
      await userEvent.setup().click(screen.getByRole('button', { name: 'Upgrade' }));
      await waitFor(() => expect(currentPath()).toBe('/dashboard/subscription'));
    } else {
      expect(screen.queryByText('Email Limit Reached')).not.toBeInTheDocument();
    }
  });

  it('shows a loading state on the figures until they come, without moving the cards', async () => {
    const server = fakeDashboardServer();
    const held = gate();
    server.state.hold = held.promise;
    renderDashboard(server, pro);
    await screen.findByRole('group', { name: 'Total Contacts' });

    for (const label of CARD_LABELS.filter((name) => name !== 'Emails Remaining' && name !== 'Current Plan')) {
      expect(card(label)).toHaveAttribute('aria-busy', 'true');
      expect(createWrapper(card(label)).findSpinner()).not.toBeNull();
    }
    // The profile's figures are already there.
    expect(cardText('Current Plan')).toBe('Pro500 emails a month');
    expect(card('Current Plan')).not.toHaveAttribute('aria-busy');
    expect(within(screen.getByTestId('recent-sends')).getByText('Loading recent sends')).toBeInTheDocument();

    held.open();
    await settled();
    expect(cardText('Total Contacts')).toBe('42In your contacts');
    expect(createWrapper(card('Total Contacts')).findSpinner()).toBeNull();
    expect(screen.queryByText('Loading recent sends')).not.toBeInTheDocument();
  });

  it("says 'Failed to load dashboard statistics.' with Retry, which loads them again", async () => {
    const server = fakeDashboardServer();
    server.state.fail = { status: 500, message: 'Internal server error' };
    renderDashboard(server, pro);

    const alert = await screen.findByTestId('dashboard-error');
    expect(alert).toHaveTextContent(insightsMessages.dashboardFailed);
    expect(alert).toHaveTextContent('Internal server error');
    // No figure is made up: the cards say '—', the profile's still show.
    expect(cardText('Total Contacts')).toBe('—In your contacts');
    expect(card('Total Contacts')).not.toHaveAttribute('aria-busy');
    expect(cardText('Current Plan')).toBe('Pro500 emails a month');

    server.state.fail = null;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(cardText('Total Contacts')).toBe('42In your contacts'));
    expect(screen.queryByTestId('dashboard-error')).not.toBeInTheDocument();
    expect(server.requests()).toBe(2);
  });

  it('treats an answer that does not fit the contract as a failure', async () => {
    const server = fakeDashboardServer();
    server.state.body = { ...dashboardStats(), emails_sent: 'many' };
    renderDashboard(server, pro);
    const alert = await screen.findByTestId('dashboard-error');
    expect(alert).toHaveTextContent(insightsMessages.dashboardFailed);
    expect(alert).toHaveTextContent('The server sent a response in an unexpected format.');
    expect(cardText('Emails Sent')).toBe('—All time');
  });

  it("without a profile: 'Failed to load profile' with Retry, and the plan cards say so", async () => {
    const server = fakeDashboardServer();
    const { auth } = renderDashboard(server, null, 'Request failed (500)');
    await settled();
    expect(cardText('Current Plan')).toBe('—Not available');
    expect(cardText('Emails Remaining')).toBe('—Not available');
    expect(cardText('Total Contacts')).toBe('42In your contacts');
    expect(within(screen.getByTestId('mailbox-card')).getByText('Your mailbox status is not available right now.')).toBeInTheDocument();
    const alert = screen.getByText('Failed to load profile').closest('[data-testid="profile-error"]');
    expect(alert).not.toBeNull();
    await userEvent.setup().click(within(alert as HTMLElement).getByRole('button', { name: 'Retry' }));
    expect(auth.refreshProfile).toHaveBeenCalled();
  });
});

describe('dashboard home: the mailbox card', () => {
  it('says Gmail connected, with the address', async () => {
    renderDashboard(fakeDashboardServer(), { ...pro, gmail_connected: true, gmail_email: 'robin@gmail.com' });
    const mailbox = await screen.findByTestId('mailbox-card');
    expect(within(mailbox).getByText('Gmail connected')).toBeInTheDocument();
    expect(mailbox).toHaveTextContent('Gmail connected (robin@gmail.com)');
    expect(within(mailbox).queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it('says Gmail not connected, with a link to Settings', async () => {
    renderDashboard(fakeDashboardServer(), { ...pro, gmail_connected: false });
    const mailbox = await screen.findByTestId('mailbox-card');
    expect(within(mailbox).getByText('Gmail not connected')).toBeInTheDocument();
    expect(mailbox).toHaveTextContent('Connect Gmail in Settings before sending a campaign.');
    const settings = within(mailbox).getByRole('link', { name: 'Settings' });
    expect(settings).toHaveAttribute('href', '/dashboard/settings');
    await userEvent.setup().click(settings);
    await waitFor(() => expect(currentPath()).toBe('/dashboard/settings'));
  });
});

describe('dashboard home: recent sends', () => {
  it('lists the sends as they come, each with its recipient, track, time and how far the person got, linking to its campaign', async () => {
    const sends = [
      recentSend(5, { clicked_at: '2025-03-10T18:00:00.000Z', opened_at: '2025-03-10T17:55:00.000Z' }),
      recentSend(4, { opened_at: '2025-03-10T17:50:00.000Z' }),
      recentSend(3, { recipient_name: null, recipient_email: 'a&r@label.example', campaign_id: 'campaign 2/b', track_name: 'Deep Blue' }),
    ];
    renderDashboard(fakeDashboardServer(dashboardStats({ recent_sends: sends })), pro);
    const list = await screen.findByRole('list', { name: 'Recent sends' });
    const items = within(list).getAllByTestId('recent-send');
    expect(items).toHaveLength(3);

    const [clicked, opened, unopened] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(clicked).getByText('Person 5')).toBeInTheDocument();
    expect(within(clicked).getByText('person5@example.com')).toBeInTheDocument();
    expect(within(clicked).getByText('Clicked')).toBeInTheDocument();
    expect(within(opened).getByText('Opened')).toBeInTheDocument();
    expect(within(unopened).getByText('Not opened')).toBeInTheDocument();
    // Without a name, the address stands alone.
    expect(within(unopened).getAllByText('a&r@label.example')).toHaveLength(1);

    // Sent in the reader's locale and zone, the instant kept machine-readable.
    const time = clicked.querySelector('time');
    expect(time).toHaveAttribute('datetime', sends[0]!.sent_at);
    expect(time).toHaveTextContent(new Date(sends[0]!.sent_at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));

    expect(within(clicked).getByRole('link', { name: 'Night Drive' })).toHaveAttribute('href', '/dashboard/campaigns/campaign-1');
    const other = within(unopened).getByRole('link', { name: 'Deep Blue' });
    expect(other).toHaveAttribute('href', '/dashboard/campaigns/campaign%202%2Fb');
    await userEvent.setup().click(within(opened).getByRole('link', { name: 'Night Drive' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/campaigns/campaign-1'));
  });

  it('shows the listen page where it says more than an open or a click: the answer first, then how far the person listened', async () => {
    const clicked = { opened_at: '2025-03-10T17:55:00.000Z', clicked_at: '2025-03-10T18:00:00.000Z' };
    const sends = [
      recentSend(4, { ...clicked, listen_max_percent: 100, play_count: 3, answer: 'send_wavs', answer_note: 'Lossless please' }),
      recentSend(3, { ...clicked, listen_max_percent: 75, play_count: 2, download_count: 1 }),
      // Played without the open pixel loading, and left before 25 %.
      recentSend(2, { play_count: 1 }),
      // Answered without a play.
      recentSend(1, { answer: 'not_for_us' }),
      // Downloaded without a play: the click is still the furthest step shown.
      recentSend(0, { ...clicked, download_count: 1 }),
    ];
    renderDashboard(fakeDashboardServer(dashboardStats({ recent_sends: sends })), pro);
    const list = await screen.findByRole('list', { name: 'Recent sends' });
    const statuses = within(list)
      .getAllByTestId('recent-send')
      .map((item) => item.lastElementChild?.textContent);
    // Below 25 % (where the campaign's Listened counter starts) a play is 'Played', not 'Listened 0 %'.
    expect(statuses).toEqual(['Answer: Send me the WAVs', 'Listened 75 %', 'Played', 'Answer: Not for us', 'Clicked']);
  });

  it("says 'No emails sent yet' before the first send, with Compose", async () => {
    renderDashboard(fakeDashboardServer(dashboardStats({ recent_sends: [] })), pro);
    await settled();
    const recent = screen.getByTestId('recent-sends');
    expect(within(recent).getByText(insightsMessages.empty)).toBeInTheDocument();
    expect(within(recent).queryByRole('list')).not.toBeInTheDocument();
    await userEvent.setup().click(within(recent).getByRole('button', { name: 'Compose' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/compose'));
  });
});
