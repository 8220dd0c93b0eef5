import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '../../schema/api/campaigns';
import { campaignMessages, sendingApiMessages } from '../../schema/api/sending';
import { CAMPAIGN_POLL_MS } from '../../web/src/pages/campaigns/CampaignDetailPage';
import { formatDateTime, formatTime, mailboxDisconnectedText, monthlyLimitPauseTexts } from '../../web/src/pages/campaigns/campaignView';
import { QUEUE_PANEL_TITLE } from '../../web/src/pages/campaigns/QueuePanel';
import { SENT_EMAILS_TITLE } from '../../web/src/pages/campaigns/SentEmailsList';
import { USAGE_REFRESH_MS } from '../../web/src/usage/UsageContext';
import { USAGE_WIDGET_TITLE, usageTexts } from '../../web/src/pages/campaigns/UsageWidget';
import { FOLLOW_UPS_PAUSED } from '../../web/src/pages/campaigns/followUpView';
import { campaign, campaignEmail, fakeCampaignsServer, renderCampaigns, sendingCampaign, sendingStatus, type CampaignsServer } from './campaigns-fake-server';
import { toast } from './compose-fake-server';
import { currentPath, preloadRoutes } from './helpers';
import { apiMessages } from '../../schema/api/serverMessages';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/campaigns/CampaignsPage');
  await import('../../web/src/pages/campaigns/CampaignDetailPage');
}, 60_000);

const DETAIL = '/dashboard/campaigns/campaign-1';

async function openDetail(server: CampaignsServer, track = 'Track 1') {
  const result = renderCampaigns(server, DETAIL);
  const heading = await screen.findByRole('heading', { name: track, level: 1 });
  return { ...result, heading };
}

/** The card (Cloudscape Container) whose header reads `title`. */
function card(title: string): HTMLElement {
  const found = createWrapper()
    .findAllContainers()
    .find((candidate) => candidate.findHeader()?.getElement().textContent.startsWith(title));
  if (!found) throw new Error(`no '${title}' card`);
  return found.getElement();
}

/** The value next to `label` in a key-value list inside `container`. */
function valueOf(container: HTMLElement, label: string): string {
  const term = [...container.querySelectorAll('dt')].find((dt) => dt.textContent === label);
  if (!term) throw new Error(`no '${label}' in the card`);
  return term.nextElementSibling?.textContent ?? '';
}

/** A stat card's whole text (label, then value). */
function statCard(label: string): string {
  const section = document.getElementById('statistics')!;
  const found = createWrapper(section)
    .findAllContainers()
    .find((candidate) => candidate.getElement().textContent.startsWith(label));
  if (!found) throw new Error(`no '${label}' stat card`);
  return found.getElement().textContent.slice(label.length).trim();
}

/** Runs the page's timers forward by `ms` (fake timers), letting the answers they start arrive. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const campaignReads = (server: CampaignsServer) => server.calls('GET', '/api/campaigns/campaign-1').length;

describe('campaign detail', () => {
  it('shows the stat cards, the Delivery Summary and the Campaign Details', async () => {
    const server = fakeCampaignsServer({
      campaigns: [
        sendingCampaign(1, 20, 20, {
          status: 'completed',
          sending_status: null,
          track_name: 'Midnight Drive',
          track_url: 'https://soundcloud.com/robin/midnight-drive',
          genre: 'Techno',
          mood: 'Driving',
          bpm: 130,
          ai_tone: 'friendly',
          email_subject: 'New techno for your label',
          emails_opened: 9,
          emails_machine_opened: 4,
          emails_clicked: 5,
          emails_unsubscribed: 1,
          completed_sending_at: '2025-03-01T20:00:00.000Z',
        }),
      ],
    });
    const user = userEvent.setup();
    await openDetail(server, 'Midnight Drive');

    expect(statCard('Total Sent')).toBe('20');
    expect(statCard('Opened')).toBe('9');
    expect(statCard('Clicked')).toBe('5');
    expect(statCard('Status')).toBe('Complete');
    expect(statCard('Unsubscribed')).toBe('1');
    // The Opened card explains that machine opens are counted apart, with their number.
    await user.click(screen.getByRole('button', { name: 'About opens' }));
    expect(await screen.findByText(/mail-privacy proxies and link scanners are counted apart and not included: 4 such opens/)).toBeInTheDocument();

    const summary = card('Delivery Summary');
    expect(within(summary).getByText('20 of 20 sent')).toBeInTheDocument();
    expect(valueOf(summary, 'Delivered')).toBe('20');
    expect(valueOf(summary, 'Open rate')).toBe('45%');

    const details = card('Campaign Details');
    expect(valueOf(details, 'Track')).toBe('Midnight Drive');
    expect(within(details).getByRole('link', { name: /midnight-drive/ })).toHaveAttribute('href', 'https://soundcloud.com/robin/midnight-drive');
    expect(valueOf(details, 'Genre')).toBe('Techno');
    expect(valueOf(details, 'Mood')).toBe('Driving');
    expect(valueOf(details, 'BPM')).toBe('130');
    expect(valueOf(details, 'Tone')).toBe('Friendly');
    expect(valueOf(details, 'Subject')).toBe('New techno for your label');
    expect(valueOf(details, 'Completed')).not.toBe('—');
    expect(valueOf(details, 'Send window')).toBe('Any time');

    // Not sending: no queue panel, and neither Pause nor Resume.
    expect(() => card(QUEUE_PANEL_TITLE)).toThrow();
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resume Sending' })).toBeNull();
  });

  it("labels a subject with placeholders 'Subject template' (header and details), and Link shows the uploaded track the emails link to", async () => {
    const server = fakeCampaignsServer({
      campaigns: [
        sendingCampaign(1, 8, 8, {
          status: 'completed',
          sending_status: null,
          track_name: 'Concrete Dawn',
          track_url: 'https://soundcloud.com/norvik/concrete-dawn',
          track_id: '01KAKZ3R0000000000000000TR',
          email_subject: 'New Techno demo for [CONTACT_NAME]',
          send_window: { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 },
        }),
        sendingCampaign(2, 8, 8, {
          status: 'completed',
          sending_status: null,
          track_name: 'Plain',
          email_subject: 'New Techno demo',
          send_window: { days: [2, 4, 7], start_hour: 0, end_hour: 24 },
        }),
      ],
    });
    const { unmount } = await openDetail(server, 'Concrete Dawn');
    // The page header's description.
    expect(screen.getByText('Subject template: New Techno demo for [CONTACT_NAME]', { selector: 'p' })).toBeInTheDocument();
    const details = card('Campaign Details');
    expect(valueOf(details, 'Subject template')).toBe('New Techno demo for [CONTACT_NAME]');
    expect(() => valueOf(details, 'Subject')).toThrow();
    // The emails link to each recipient's listen page, not to the link typed in Compose.
    expect(valueOf(details, 'Link')).toBe('Your uploaded track: each recipient gets their own listen link');
    expect(within(details).queryByRole('link', { name: /soundcloud/ })).toBeNull();
    expect(valueOf(details, 'Send window')).toBe("Recipient's working hours: Monday–Friday, 09:00–17:00 in each recipient's time zone");
    unmount();

    renderCampaigns(server, '/dashboard/campaigns/campaign-2');
    await screen.findByRole('heading', { name: 'Plain', level: 1 });
    expect(screen.getByText('New Techno demo', { selector: 'p' })).toBeInTheDocument();
    expect(valueOf(card('Campaign Details'), 'Subject')).toBe('New Techno demo');
    expect(within(card('Campaign Details')).getByRole('link', { name: /track-2/ })).toBeInTheDocument();
    expect(valueOf(card('Campaign Details'), 'Send window')).toBe("Recipient's working hours: Tue, Thu, Sun, 00:00–24:00 in each recipient's time zone");
  });

  it('with an uploaded track: Listened and Answered stat cards and the sent → opened → listened → answered funnel; without one, neither', async () => {
    const server = fakeCampaignsServer({
      campaigns: [
        sendingCampaign(1, 20, 20, {
          status: 'completed',
          sending_status: null,
          track_name: 'Midnight Drive',
          track_id: '01KAKZ3R0000000000000000TR',
          emails_opened: 10,
          emails_listened: 5,
          emails_answered: 2,
        }),
        sendingCampaign(2, 20, 20, { status: 'completed', sending_status: null, track_name: 'Linked Only', emails_opened: 10 }),
      ],
    });
    const user = userEvent.setup();
    const { unmount } = await openDetail(server, 'Midnight Drive');
    expect(statCard('Listened')).toBe('5');
    expect(statCard('Answered')).toBe('2');
    // Listened says what counts: a play of 25 %+, not a page opened by a scanner.
    await user.click(screen.getByRole('button', { name: 'About listens' }));
    expect(await screen.findByText(/played at least 25 % of the track/)).toBeInTheDocument();

    const funnel = card('Listening funnel');
    const steps = [...funnel.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
    expect(steps).toEqual([
      ['Sent', '20 (100%)'],
      ['Opened', '10 (50%)'],
      ['Listened', '5 (25%)'],
      ['Answered', '2 (10%)'],
    ]);
    unmount();

    renderCampaigns(server, '/dashboard/campaigns/campaign-2');
    await screen.findByRole('heading', { name: 'Linked Only', level: 1 });
    expect(statCard('Opened')).toBe('10');
    expect(() => statCard('Listened')).toThrow();
    expect(() => statCard('Answered')).toThrow();
    expect(() => card('Listening funnel')).toThrow();
  });

  it('shows the Sending badge, Pause, and a queue panel with counts, next send and ETA while sending', async () => {
    const nextSend = new Date(Date.now() + 5 * 60_000).toISOString();
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 135, 10, { emails_failed: 2, emails_skipped: 2, emails_unknown: 1, next_send_at: nextSend })],
    });
    await openDetail(server);
    expect(statCard('Status')).toBe('Sending');
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    const queue = card(QUEUE_PANEL_TITLE);
    expect(valueOf(queue, 'Pending')).toBe('120');
    expect(valueOf(queue, 'Sent')).toBe('10');
    expect(valueOf(queue, 'Failed')).toBe('2');
    expect(valueOf(queue, 'Skipped')).toBe('2');
    expect(valueOf(queue, 'Unknown')).toBe('1');
    expect(valueOf(queue, 'Next send')).toBe(formatDateTime(nextSend));
    // 120 pending at the server's pace (60 s: 60 an hour).
    await waitFor(() => expect(valueOf(queue, 'Estimated time left')).toBe('about 2 h'));
  });

  it('in the recipients’ working hours, counts the ETA over their windows and says when a later zone starts, in the artist’s time', async () => {
    // Tuesday 10:00 in Los Angeles (the artist's zone), Wednesday 03:00 in Tokyo.
    vi.useFakeTimers({ now: new Date('2026-11-24T18:00:00.000Z'), shouldAdvanceTime: true });
    const window = { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 };
    const pending = { status: 'pending' as const, sent_at: null };
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 3, 0, { send_window: window })],
      emails: {
        'campaign-1': [
          campaignEmail(0, { ...pending, time_zone: null }),
          campaignEmail(1, { ...pending, time_zone: 'Asia/Tokyo' }),
          campaignEmail(2, { ...pending, time_zone: 'Asia/Tokyo' }),
        ],
      },
    });
    renderCampaigns(server, DETAIL, { time_zone: 'America/Los_Angeles' });
    await screen.findByRole('heading', { name: 'Track 1', level: 1 });
    const queue = () => card(QUEUE_PANEL_TITLE);
    // The artist's recipient now; Tokyo's two from 09:00 there (16:00 in Los Angeles), a minute apart.
    await waitFor(() => expect(valueOf(queue(), 'Tokyo recipients start')).toBe('16:00 your time'));
    expect(valueOf(queue(), 'Estimated time left')).toBe('about 6 h 1 min');
    expect(valueOf(queue(), 'Last email around')).toBe('16:01');
  });

  it('counts the ETA at the pace the server sends at, not a fixed 60 an hour', async () => {
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 135, 10, { emails_failed: 2, emails_skipped: 2, emails_unknown: 1 })],
      status: sendingStatus({ send_interval_seconds: 5 }),
    });
    await openDetail(server);
    // 120 pending, one every 5 s.
    await waitFor(() => expect(valueOf(card(QUEUE_PANEL_TITLE), 'Estimated time left')).toBe('about 10 min'));
  });

  it('offers Retry failed on a finished campaign with failed emails: the campaign sends again, and says so', async () => {
    const done = campaign(1, { status: 'completed', sending_status: null, emails_sent: 8, emails_failed: 2, completed_sending_at: '2025-03-01T20:00:00.000Z' });
    const server = fakeCampaignsServer({ campaigns: [done, campaign(2, { status: 'completed', sending_status: null, emails_sent: 3 })] });
    const user = userEvent.setup();
    await openDetail(server);
    await user.click(screen.getByRole('button', { name: 'Retry failed' }));
    expect(server.calls('POST', '/api/campaigns/campaign-1/retry-failed')).toHaveLength(1);
    await toast(campaignMessages.retryQueued);
    await waitFor(() => expect(statCard('Status')).toBe('Sending'));
    expect(screen.queryByRole('button', { name: 'Retry failed' })).toBeNull();
  });

  it('offers no Retry failed where nothing failed, and says why a retry was refused', async () => {
    const server = fakeCampaignsServer({
      campaigns: [
        campaign(1, { status: 'completed', sending_status: null, emails_sent: 3 }),
        campaign(2, { status: 'completed', sending_status: null, emails_sent: 1, emails_failed: 1 }),
      ],
    });
    server.fail.retry = { status: 409, message: sendingApiMessages.nothingToRetry };
    const user = userEvent.setup();
    const { unmount } = await openDetail(server);
    expect(screen.queryByRole('button', { name: 'Retry failed' })).toBeNull();
    unmount();
    renderCampaigns(server, '/dashboard/campaigns/campaign-2');
    await user.click(await screen.findByRole('button', { name: 'Retry failed' }));
    await toast(campaignMessages.retryFailedError(sendingApiMessages.nothingToRetry));
  });

  it('never shows a next send already past: it reads —', async () => {
    const server = fakeCampaignsServer({ campaigns: [sendingCampaign(1, 30, 5, { next_send_at: new Date(Date.now() - 60_000).toISOString() })] });
    await openDetail(server);
    expect(valueOf(card(QUEUE_PANEL_TITLE), 'Next send')).toBe('—');
  });

  it('updates the queue panel on the next poll without a reload, and stops polling once the campaign is done', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeCampaignsServer({ campaigns: [sendingCampaign(1, 30, 5)] });
    const { heading } = await openDetail(server);
    expect(valueOf(card(QUEUE_PANEL_TITLE), 'Pending')).toBe('25');
    const reads = campaignReads(server);

    // The sender gets three more out.
    server.update('campaign-1', { emails_sent: 8 });
    await advance(CAMPAIGN_POLL_MS);
    await waitFor(() => expect(valueOf(card(QUEUE_PANEL_TITLE), 'Pending')).toBe('22'));
    expect(valueOf(card(QUEUE_PANEL_TITLE), 'Sent')).toBe('8');
    expect(statCard('Total Sent')).toBe('8');
    // Still the same page: the heading was never replaced, nothing showed a loading state.
    expect(screen.getByRole('heading', { name: 'Track 1', level: 1 })).toBe(heading);
    expect(campaignReads(server)).toBeGreaterThan(reads);

    // The campaign finishes: the panel goes, and so does the polling.
    server.update('campaign-1', { emails_sent: 30, status: 'completed', sending_status: null, completed_sending_at: '2025-03-01T20:00:00.000Z' });
    await advance(CAMPAIGN_POLL_MS);
    await waitFor(() => expect(() => card(QUEUE_PANEL_TITLE)).toThrow());
    expect(statCard('Status')).toBe('Complete');
    const afterDone = campaignReads(server);
    await advance(CAMPAIGN_POLL_MS * 5);
    expect(campaignReads(server)).toBe(afterDone);
  });

  it('stops polling when the page is left', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeCampaignsServer({ campaigns: [sendingCampaign(1, 30, 5)] });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await openDetail(server);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/campaigns'));
    const reads = campaignReads(server);
    await advance(CAMPAIGN_POLL_MS * 5);
    expect(campaignReads(server)).toBe(reads);
  });

  it("pauses: 'Campaign paused', the button becomes 'Resume Sending', the queue panel and polling stop; resuming flips it back", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeCampaignsServer({ campaigns: [sendingCampaign(1, 30, 5)] });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await openDetail(server);

    await user.click(screen.getByRole('button', { name: 'Pause' }));
    await toast(campaignMessages.paused);
    expect(server.calls('POST', '/api/campaigns/campaign-1/pause')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Resume Sending' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(() => card(QUEUE_PANEL_TITLE)).toThrow();
    expect(statCard('Status')).toBe('Paused');
    const reads = campaignReads(server);
    await advance(CAMPAIGN_POLL_MS * 3);
    expect(campaignReads(server)).toBe(reads);
    // Paused by the artist: no mailbox warning.
    expect(screen.queryByText(mailboxDisconnectedText)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Resume Sending' }));
    await toast(campaignMessages.resumed);
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(card(QUEUE_PANEL_TITLE)).toBeInTheDocument();
    // Sending again: the polling is back.
    server.update('campaign-1', { emails_sent: 6 });
    await advance(CAMPAIGN_POLL_MS);
    await waitFor(() => expect(valueOf(card(QUEUE_PANEL_TITLE), 'Sent')).toBe('6'));
  });

  it("says 'Failed to pause: {message}' and 'Failed to resume: {message}', leaving the button as it was", async () => {
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 30, 5), sendingCampaign(2, 30, 5, { track_name: 'Held', sending_status: 'paused', pause_reason: 'user' })],
    });
    server.fail.pause = { status: 500, message: apiMessages.internalError };
    server.fail.resume = { status: 409, message: sendingApiMessages.notPaused };
    const user = userEvent.setup();
    const { unmount } = await openDetail(server);
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    await toast(campaignMessages.pauseFailed(apiMessages.internalError));
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    unmount();

    renderCampaigns(server, '/dashboard/campaigns/campaign-2');
    await screen.findByRole('heading', { name: 'Held', level: 1 });
    await user.click(screen.getByRole('button', { name: 'Resume Sending' }));
    await toast(campaignMessages.resumeFailed(sendingApiMessages.notPaused));
    expect(screen.getByRole('button', { name: 'Resume Sending' })).toBeInTheDocument();
  });

  it('explains that a campaign paused for a disconnected mailbox needs the mailbox reconnected in Settings', async () => {
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 30, 5, { sending_status: 'paused', pause_reason: 'mailbox_disconnected' })],
    });
    const user = userEvent.setup();
    await openDetail(server);
    expect(screen.getByText(mailboxDisconnectedText)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to Settings' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/settings'));
  });

  it('explains a campaign paused at the plan’s monthly limit (after a downgrade): goes on next month, Upgrade leads to the Subscription page', async () => {
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 30, 5, { sending_status: 'paused', pause_reason: 'monthly_limit' })],
    });
    const user = userEvent.setup();
    await openDetail(server);
    expect(statCard('Status')).toBe('Paused');
    // The plan's month, named with the day it resets (the status's month.resets_at: 1 April), never 'tomorrow'.
    const notice = await screen.findByText(monthlyLimitPauseTexts.detail('April 1'));
    expect(notice).toHaveTextContent(
      "Sending paused: no sending capacity left this month. Your plan's limit resets on April 1; sending goes on by itself then, or as soon as you upgrade your plan.",
    );
    expect(screen.getByText(monthlyLimitPauseTexts.header)).toBeInTheDocument();
    expect(screen.queryByText(mailboxDisconnectedText)).toBeNull();
    expect(screen.getByRole('button', { name: 'Resume Sending' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Upgrade' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/subscription'));
  });

  it('a campaign the artist paused shows no monthly-limit notice', async () => {
    const server = fakeCampaignsServer({ campaigns: [sendingCampaign(1, 30, 5, { sending_status: 'paused', pause_reason: 'user' })] });
    await openDetail(server);
    expect(screen.queryByText(/no sending capacity left this month/)).toBeNull();
    expect(screen.queryByText(monthlyLimitPauseTexts.header)).toBeNull();
  });

  it('shows this month’s usage with a warning at 80 % and limit reached at 100 %, refreshed every 60 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 30, 30, { status: 'completed', sending_status: null })],
      status: sendingStatus({ month: { used: 399, limit: 500 } }),
    });
    await openDetail(server);
    const widget = () => within(card(USAGE_WIDGET_TITLE));
    expect(await widget().findByText('399 of 500 emails used')).toBeInTheDocument();
    expect(widget().queryByText(usageTexts.warning)).toBeNull();
    expect(widget().queryByText(new RegExp(usageTexts.limit))).toBeNull();

    server.state.status = sendingStatus({ month: { used: 400, limit: 500 } });
    await advance(USAGE_REFRESH_MS);
    expect(await widget().findByText('400 of 500 emails used')).toBeInTheDocument();
    expect(widget().getByText(usageTexts.warning)).toBeInTheDocument();
    expect(widget().queryByText(new RegExp(usageTexts.limit))).toBeNull();

    server.state.status = sendingStatus({ month: { used: 500, limit: 500 } });
    await advance(USAGE_REFRESH_MS);
    expect(await widget().findByText(`${usageTexts.limit}: your plan's limit resets on April 1`)).toBeInTheDocument();
    expect(widget().queryByText(usageTexts.warning)).toBeNull();
    expect(createWrapper(card(USAGE_WIDGET_TITLE)).findProgressBar()!.findPercentageText()!.getElement().textContent).toBe('100%');
  });

  it('shows one percentage for one figure: 9 of 500 emails is 1 % in the sidebar and in the usage widget', async () => {
    const server = fakeCampaignsServer({ campaigns: [campaign(1)], status: sendingStatus({ month: { used: 9, limit: 500 } }) });
    renderCampaigns(server, DETAIL, { emails_used: 9, email_limit: 500 });
    await screen.findByRole('heading', { name: 'Track 1', level: 1 });
    const widget = await waitFor(() => createWrapper(card(USAGE_WIDGET_TITLE)).findProgressBar()!.findPercentageText()!.getElement());
    const sidebar = createWrapper(screen.getByRole('navigation', { name: 'Dashboard navigation' }))
      .findProgressBar()!
      .findPercentageText()!
      .getElement();
    expect(widget).toHaveTextContent('1%');
    expect(sidebar).toHaveTextContent('1%');
  });

  it("shows 'Campaign not found' with 'Back to Campaigns' for an id that is not the user's", async () => {
    const server = fakeCampaignsServer({ campaigns: [campaign(2)] });
    const user = userEvent.setup();
    renderCampaigns(server, DETAIL);
    expect(await screen.findByRole('heading', { name: campaignMessages.notFound, level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to Campaigns' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/campaigns'));
  });

  it("says 'Failed to load campaign details' when the campaign cannot be read, and Retry loads it", async () => {
    const server = fakeCampaignsServer({ campaigns: [campaign(1)] });
    server.fail.get = { status: 500, message: apiMessages.internalError };
    const user = userEvent.setup();
    renderCampaigns(server, DETAIL);
    expect(await screen.findByText(campaignMessages.detailFailed)).toBeInTheDocument();
    server.fail.get = null;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Track 1', level: 1 })).toBeInTheDocument();
  });

  it('lists the sent emails, and expanding one loads its subject and HTML into an empty-sandbox frame', async () => {
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 2, 1)],
      emails: {
        'campaign-1': [
          campaignEmail(0, { opened_at: '2025-03-01T19:00:00.000Z', open_count: 2, clicked_at: '2025-03-01T19:05:00.000Z', click_count: 1 }),
          campaignEmail(1, { status: 'pending', sent_at: null, subject: null, html: null, text: null }),
        ],
      },
    });
    const user = userEvent.setup();
    await openDetail(server);
    const list = within(await waitFor(() => card(SENT_EMAILS_TITLE)));
    const items = await list.findAllByRole('listitem');
    expect(items).toHaveLength(2);
    const first = within(items[0]!);
    expect(first.getByText('Person 0 <person0@example.com>')).toBeInTheDocument();
    expect(createWrapper(items[0]).findBadge()!.getElement()).toHaveTextContent('Sent');
    expect(first.getByText(/Opened .* \(2×\)/)).toBeInTheDocument();
    expect(first.getByText(/Clicked .* \(1×\)/)).toBeInTheDocument();
    expect(createWrapper(items[1]).findBadge()!.getElement()).toHaveTextContent('Pending');
    expect(server.calls('GET', '/api/campaigns/campaign-1/emails/0')).toHaveLength(0);

    await user.click(first.getByRole('button', { name: 'Email content for person0@example.com' }));
    const frame = await first.findByTitle('Email to person0@example.com');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('Hi Person 0, <a href="https://soundcloud.com/robin">listen</a>');
    expect(first.getByText('Hello Person 0')).toBeInTheDocument();
    expect(server.calls('GET', '/api/campaigns/campaign-1/emails/0')).toHaveLength(1);

    // Not sent yet: nothing to show.
    await user.click(within(items[1]!).getByRole('button', { name: 'Email content for person1@example.com' }));
    expect(await within(items[1]!).findByText('This email has not been sent yet.')).toBeInTheDocument();
  });

  it('says of a recipient waiting alone when it is tried again, which attempt that is, and why', async () => {
    const retryAt = '2025-03-01T19:05:00.000Z';
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 2, 1)],
      emails: {
        'campaign-1': [
          campaignEmail(0, { status: 'pending', sent_at: null, attempts: 1, retry_at: retryAt, detail: 'Gmail was unavailable' }),
          campaignEmail(1),
        ],
      },
    });
    await openDetail(server);
    const items = await within(await waitFor(() => card(SENT_EMAILS_TITLE))).findAllByRole('listitem');
    expect(within(items[0]!).getByText(`Retrying at ${formatTime(retryAt)} (attempt 2 of 5): Gmail was unavailable`)).toBeInTheDocument();
    expect(within(items[1]!).queryByText(/Retrying at/)).toBeNull();
  });

  it("says of a recipient waiting for its working hours 'Outside working hours' and its next possible time, never a retry", async () => {
    const opensAt = '2025-03-03T08:00:00.000Z';
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 2, 1, { send_window: { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 } })],
      emails: {
        'campaign-1': [
          campaignEmail(0, { status: 'pending', sent_at: null, attempts: 0, retry_at: opensAt, detail: 'Outside working hours' }),
          campaignEmail(1),
        ],
      },
    });
    await openDetail(server);
    const items = await within(await waitFor(() => card(SENT_EMAILS_TITLE))).findAllByRole('listitem');
    expect(within(items[0]!).getByText(`Outside working hours: next possible time ${formatDateTime(opensAt)}`)).toBeInTheDocument();
    expect(within(items[0]!).queryByText(/Retrying at/)).toBeNull();
  });

  it('says per email what the recipient did on their listen page: Listened n %, Played n×, Downloaded, the answer and the note; a play under 25 % is Played n×', async () => {
    const server = fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 3, 3, { track_id: '01KAKZ3R0000000000000000TR', emails_listened: 2, emails_answered: 2 })],
      emails: {
        'campaign-1': [
          campaignEmail(0, { play_count: 3, listen_max_percent: 78, download_count: 1, answer: 'send_wavs', answer_note: 'Love the bassline, send stems too' }),
          campaignEmail(1, { answer: 'not_for_us' }),
          campaignEmail(2),
          campaignEmail(3, { play_count: 2, listen_max_percent: 0 }),
        ],
      },
    });
    await openDetail(server);
    const items = await within(await waitFor(() => card(SENT_EMAILS_TITLE))).findAllByRole('listitem');
    expect(items).toHaveLength(4);
    const first = within(items[0]!);
    expect(first.getByText(/Listened 78 % · Played 3× · Downloaded/)).toBeInTheDocument();
    expect(first.getByText('Answer: Send me the WAVs')).toBeInTheDocument();
    expect(first.getByText('— “Love the bassline, send stems too”', { exact: false })).toBeInTheDocument();
    // An answer without a play: the answer alone.
    const second = within(items[1]!);
    expect(second.getByText('Answer: Not for us')).toBeInTheDocument();
    expect(second.queryByText(/Listened|Played|Downloaded/)).toBeNull();
    // Nothing done on the page: no listening line.
    expect(within(items[2]!).queryByText(/Listened|Played|Downloaded|Answer:/)).toBeNull();
    // Plays that stopped before 25 % (where the Listened counter starts): played, not 'Listened 0 %'.
    expect(within(items[3]!).getByText('Played 2×')).toBeInTheDocument();
    expect(within(items[3]!).queryByText(/Listened/)).toBeNull();
  });
});

describe('the artist’s "Replied" mark on the sent emails', () => {
  const server = () =>
    fakeCampaignsServer({
      campaigns: [sendingCampaign(1, 3, 2)],
      emails: {
        'campaign-1': [
          campaignEmail(0),
          campaignEmail(1, { replied_at: '2025-03-01T20:00:00.000Z' }),
          campaignEmail(2, { status: 'pending', sent_at: null, subject: null, html: null, text: null }),
        ],
      },
    });

  it('offers "Mark as replied" on a sent email only, and shows a marked one as Replied with "Undo replied"', async () => {
    await openDetail(server());
    const items = await within(await waitFor(() => card(SENT_EMAILS_TITLE))).findAllByRole('listitem');
    const [first, second, third] = items.map((item) => within(item));
    expect(first!.getByRole('button', { name: 'Mark as replied' })).toBeInTheDocument();
    expect(first!.queryByText('Replied')).toBeNull();
    expect(second!.getByText('Replied')).toBeInTheDocument();
    expect(second!.getByRole('button', { name: 'Undo replied' })).toBeInTheDocument();
    expect(second!.queryByRole('button', { name: 'Mark as replied' })).toBeNull();
    expect(third!.queryByRole('button', { name: /replied/i })).toBeNull();
  });

  it('marks by keyboard, then undoes it: each a request for that email, the row following the answer', async () => {
    const fake = server();
    const user = userEvent.setup();
    await openDetail(fake);
    const items = await within(await waitFor(() => card(SENT_EMAILS_TITLE))).findAllByRole('listitem');
    const first = within(items[0]!);
    first.getByRole('button', { name: 'Mark as replied' }).focus();
    await user.keyboard('{Enter}');
    expect(await first.findByText('Replied')).toBeInTheDocument();
    expect(fake.calls('PUT', '/api/campaigns/campaign-1/emails/0/replied')).toHaveLength(1);
    expect(fake.emails.get('campaign-1')![0]!.replied_at).not.toBeNull();

    await user.click(first.getByRole('button', { name: 'Undo replied' }));
    expect(await first.findByRole('button', { name: 'Mark as replied' })).toBeInTheDocument();
    expect(first.queryByText('Replied')).toBeNull();
    expect(fake.calls('DELETE', '/api/campaigns/campaign-1/emails/0/replied')).toHaveLength(1);
    expect(fake.emails.get('campaign-1')![0]!.replied_at).toBeNull();
  });

  it('shows the button busy while the mark is saved, and the server’s message when it is refused', async () => {
    const fake = server();
    let release!: () => void;
    fake.hold.replied = new Promise((resolve) => (release = resolve));
    const user = userEvent.setup();
    await openDetail(fake);
    const items = await within(await waitFor(() => card(SENT_EMAILS_TITLE))).findAllByRole('listitem');
    await user.click(within(items[0]!).getByRole('button', { name: 'Mark as replied' }));
    await waitFor(() => expect(createWrapper(items[0]).findButton()!.findLoadingIndicator()).not.toBeNull());
    release();
    expect(await within(items[0]!).findByText('Replied')).toBeInTheDocument();

    fake.hold.replied = undefined;
    fake.fail.replied = { status: 409, message: sendingApiMessages.repliedNotSent };
    await user.click(within(items[0]!).getByRole('button', { name: 'Undo replied' }));
    expect(await within(items[0]!).findByRole('alert')).toHaveTextContent(sendingApiMessages.repliedNotSent);
    // Still marked: nothing changed.
    expect(within(items[0]!).getByText('Replied')).toBeInTheDocument();
  });
});

describe('follow-ups on the campaign page', () => {
  const FUTURE = '2099-03-05T17:00:00.000Z';
  const PAST_DUE = '2025-03-05T17:00:00.000Z';
  const STEP_SENT = '2025-03-05T18:00:00.000Z';
  const withSteps = (overrides: Partial<Campaign> = {}) =>
    sendingCampaign(1, 4, 4, {
      status: 'completed',
      sending_status: null,
      track_id: '01KAKZ3R0000000000000000TR',
      emails_opened: 2,
      emails_listened: 1,
      emails_answered: 1,
      follow_ups: {
        steps: [
          { after_days: 4, writer: 'ai', text: null },
          { after_days: 9, writer: 'own', text: 'Hi [CONTACT_NAME]' },
        ],
        condition: 'not_answered',
      },
      ...overrides,
    });
  const emails = () => [
    campaignEmail(0, {
      answer: 'interested',
      follow_ups: [
        { step: 1, state: 'stopped', reason: 'answered' },
        { step: 2, state: 'stopped', reason: 'answered' },
      ],
    }),
    campaignEmail(1, {
      follow_ups: [
        { step: 1, state: 'sent', sent_at: STEP_SENT },
        { step: 2, state: 'waiting', due_at: FUTURE },
      ],
    }),
    campaignEmail(2, {
      replied_at: '2025-03-02T10:00:00.000Z',
      follow_ups: [
        { step: 1, state: 'stopped', reason: 'replied' },
        { step: 2, state: 'waiting', due_at: PAST_DUE },
      ],
    }),
    campaignEmail(3, {
      status: 'pending',
      sent_at: null,
      follow_ups: [
        { step: 1, state: 'waiting', due_at: null },
        { step: 2, state: 'waiting', due_at: null },
      ],
    }),
  ];
  const figuresOf = (container: HTMLElement) => [...container.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);

  it('shows a Follow-ups card with a row per step: sent, stopped with the reasons, waiting and the next due', async () => {
    const server = fakeCampaignsServer({ campaigns: [withSteps()], emails: { 'campaign-1': emails() } });
    await openDetail(server);
    const followUps = await waitFor(() => card('Follow-ups'));
    // The stopping condition the artist chose, under the title.
    expect(followUps).toHaveTextContent('Only if they did not answer');
    const first = await within(followUps).findByRole('region', { name: 'Follow-up 1 · after 4 days' });
    expect(figuresOf(first)).toEqual([
      ['Sent', '1'],
      ['Stopped', '2'],
      ['Waiting', '1'],
      ['Next due', '—'],
    ]);
    const reasons = within(first).getByRole('list', { name: 'Follow-up 1 · after 4 days: why stopped' });
    expect(
      within(reasons)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Answered on the listen page: 1', 'Marked Replied: 1']);

    const second = within(followUps).getByRole('region', { name: 'Follow-up 2 · after 9 days' });
    expect(figuresOf(second)).toEqual([
      ['Sent', '0'],
      ['Stopped', '1'],
      ['Waiting', '3'],
      ['Next due', formatDateTime(PAST_DUE)],
    ]);
    expect(within(second).getByRole('list', { name: 'Follow-up 2 · after 9 days: why stopped' })).toHaveTextContent('Answered on the listen page: 1');
  });

  it("the funnel and the Delivery Summary gain each step's sent count", async () => {
    const server = fakeCampaignsServer({ campaigns: [withSteps()], emails: { 'campaign-1': emails() } });
    await openDetail(server);
    await waitFor(() => expect(valueOf(card('Delivery Summary'), 'Follow-up 1 sent')).toBe('1'));
    expect(valueOf(card('Delivery Summary'), 'Follow-up 2 sent')).toBe('0');
    expect(figuresOf(card('Listening funnel'))).toEqual([
      ['Sent', '4 (100%)'],
      ['Follow-up 1 sent', '1 (25%)'],
      ['Follow-up 2 sent', '0 (0%)'],
      ['Opened', '2 (50%)'],
      ['Listened', '1 (25%)'],
      ['Answered', '1 (25%)'],
    ]);
  });

  it('says per email what became of each step: stopped and why, sent when, waiting until when (or due, or for the first email)', async () => {
    const server = fakeCampaignsServer({ campaigns: [withSteps()], emails: { 'campaign-1': emails() } });
    await openDetail(server);
    const items = await within(await waitFor(() => card(SENT_EMAILS_TITLE))).findAllByRole('listitem');
    expect(items).toHaveLength(4);
    const [answered, stepSent, replied, pending] = items.map((item) => within(item));
    expect(answered!.getByText('Follow-up 1: Stopped — Answered on the listen page')).toBeInTheDocument();
    expect(answered!.getByText('Follow-up 2: Stopped — Answered on the listen page')).toBeInTheDocument();
    expect(stepSent!.getByText(`Follow-up 1: Sent ${formatDateTime(STEP_SENT)}`)).toBeInTheDocument();
    expect(stepSent!.getByText(`Follow-up 2: Waiting until ${formatDateTime(FUTURE)}`)).toBeInTheDocument();
    expect(replied!.getByText('Follow-up 1: Stopped — Marked Replied')).toBeInTheDocument();
    // Planned for a time already past (held by the pace, a pause or the send window): still waiting.
    expect(replied!.getByText(`Follow-up 2: Waiting, due ${formatDateTime(PAST_DUE)}`)).toBeInTheDocument();
    expect(pending!.getByText('Follow-up 1: Waiting for the first email to go')).toBeInTheDocument();
    expect(pending!.getByText('Follow-up 2: Waiting for the first email to go')).toBeInTheDocument();
  });

  it('shows loading while the emails are read, then the counts; a failed read says so; no emails yet says so', async () => {
    const server = fakeCampaignsServer({ campaigns: [withSteps()], emails: { 'campaign-1': emails() } });
    let release!: () => void;
    server.hold.emails = new Promise((resolve) => (release = resolve));
    const { unmount } = await openDetail(server);
    expect(within(card('Follow-ups')).getByText('Loading follow-ups')).toBeInTheDocument();
    expect(valueOf(card('Listening funnel'), 'Follow-up 1 sent')).toBe('—');
    release();
    expect(await within(card('Follow-ups')).findByRole('region', { name: 'Follow-up 1 · after 4 days' })).toBeInTheDocument();
    unmount();

    server.hold.emails = undefined;
    server.fail.emails = { status: 500, message: apiMessages.internalError };
    const failed = await openDetail(server);
    expect(await within(card('Follow-ups')).findByText(`Failed to load the follow-ups: ${apiMessages.internalError}`)).toBeInTheDocument();
    failed.unmount();

    server.fail.emails = null;
    server.emails.set('campaign-1', []);
    await openDetail(server);
    expect(await within(card('Follow-ups')).findByText('No emails yet. Each step is counted here once the emails are queued.')).toBeInTheDocument();
  });

  it('a completed campaign still paused (paused while its last email was in flight) offers Resume Sending and says its steps wait for it', async () => {
    const server = fakeCampaignsServer({ campaigns: [withSteps({ sending_status: 'paused', pause_reason: 'user' })], emails: { 'campaign-1': emails() } });
    await openDetail(server);
    expect(await within(await waitFor(() => card('Follow-ups'))).findByText(FOLLOW_UPS_PAUSED)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume Sending' })).toBeInTheDocument();
  });

  it('a completed campaign not paused says nothing of a pause', async () => {
    const server = fakeCampaignsServer({ campaigns: [withSteps()], emails: { 'campaign-1': emails() } });
    await openDetail(server);
    expect(await within(await waitFor(() => card('Follow-ups'))).findByRole('region', { name: 'Follow-up 1 · after 4 days' })).toBeInTheDocument();
    expect(screen.queryByText(FOLLOW_UPS_PAUSED)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resume Sending' })).toBeNull();
  });

  it('a campaign without follow-ups shows none of it: no card, no funnel steps, no lines on its emails', async () => {
    const server = fakeCampaignsServer({
      campaigns: [withSteps({ follow_ups: { steps: [], condition: 'not_listened' } })],
      emails: { 'campaign-1': emails().map((email) => ({ ...email, follow_ups: [] })) },
    });
    await openDetail(server);
    const items = await within(await waitFor(() => card(SENT_EMAILS_TITLE))).findAllByRole('listitem');
    expect(items).toHaveLength(4);
    expect(() => card('Follow-ups')).toThrow();
    expect(figuresOf(card('Listening funnel')).map(([label]) => label)).toEqual(['Sent', 'Opened', 'Listened', 'Answered']);
    expect(figuresOf(card('Delivery Summary')).map(([label]) => label)).not.toContain('Follow-up 1 sent');
    expect(screen.queryByText(/Follow-up/)).toBeNull();
  });
});
