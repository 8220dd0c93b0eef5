/**
 * The Analytics page (issue 15 point 3; spec §2 Analytics; DESIGN §6, §11) against an in-memory insights
 * API: the period in the URL, the per-day figures behind the charts (their table alternatives), machine
 * opens apart with the reason, the funnel, the sortable campaigns and a campaign's links, the activity
 * with its filters and what each recipient did on the listen page, Free's lock (no calls to the locked
 * routes), the empty, error and loading states, and the CSV export.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { insightsMessages, type Activity } from '../../schema/api/insights';
import { csvLines, fileSaver, formatDateStamp } from '../../web/src/lib/csv';
import { activityCsvColumns, dayAsDate, formatDayLong, formatDayShort, funnelOf, periodFromParam } from '../../web/src/pages/analytics/analyticsView';
import { activityRow, analyticsCampaign, dayBefore, fakeInsights, renderAnalytics, TODAY, type InsightsData } from './analytics-fake-server';
import { currentPath, preloadRoutes } from './helpers';

// West of Greenwich, where formatting a server day as a local date would show the day before.
vi.hoisted(() => {
  process.env.TZ = 'America/Los_Angeles';
});

beforeAll(preloadRoutes, 60_000);

/** 30 days: three days with sends; the last 7 days hold two of them. */
const days: InsightsData['days'] = {
  0: { emails_sent: 10, emails_opened: 4, emails_machine_opened: 3, emails_clicked: 2, emails_unsubscribed: 1 },
  6: { emails_sent: 20, emails_opened: 6, emails_machine_opened: 5, emails_clicked: 1, emails_unsubscribed: 0 },
  20: { emails_sent: 30, emails_opened: 10, emails_machine_opened: 2, emails_clicked: 3, emails_unsubscribed: 1 },
};

const campaigns = [
  analyticsCampaign('c-1', 'Midnight Drive', {
    emails_sent: 40,
    emails_opened: 12,
    emails_machine_opened: 6,
    emails_clicked: 4,
    emails_unsubscribed: 1,
    open_rate: 30,
    click_rate: 10,
  }),
  analyticsCampaign('c-2', 'Sunrise', { emails_sent: 15, emails_opened: 9, emails_clicked: 1, emails_unsubscribed: 0, open_rate: 60, click_rate: 7 }),
  analyticsCampaign('c-3', '=Evil()', { emails_sent: 5, emails_opened: 1, emails_clicked: 1, emails_unsubscribed: 3, open_rate: 20, click_rate: 20 }),
];

const EVIL_NAME = '=HYPERLINK("http://evil.example","x")';
const EVIL_NOTE = '@SUM(1+1)*cmd|\' /C calc\'!A0, "lossless" please';
/**
 * Newest first: three people who opened, clicked or listened, one email nobody opened. Person 1 clicked,
 * listened to 75 % over two plays, downloaded twice and answered 'Send me the WAVs' with a note; Mara
 * never loaded the open pixel but played the track (50 %) and answered 'Interested'.
 */
const activity: Activity[] = [
  activityRow(1, {
    clicked_at: '2026-11-25T19:00:00.000Z',
    last_clicked_at: '2026-11-25T19:00:00.000Z',
    click_count: 1,
    listen_max_percent: 75,
    play_count: 2,
    download_count: 2,
    answer: 'send_wavs',
    answer_note: EVIL_NOTE,
  }),
  activityRow(2, {
    recipient_name: 'Mara Velvet',
    recipient_email: 'mara@velvet-records.example',
    track_name: 'Sunrise',
    campaign_id: 'c-2',
    opened_at: null,
    last_opened_at: null,
    open_count: 0,
    listen_max_percent: 50,
    play_count: 1,
    answer: 'interested',
  }),
  activityRow(3, { recipient_name: EVIL_NAME }),
  activityRow(4, { opened_at: null, last_opened_at: null, open_count: 0, machine_open_count: 2 }),
];

const fullServer = (overrides: Partial<InsightsData> = {}) =>
  fakeInsights({
    days,
    campaigns,
    activity,
    links: {
      'c-1': [
        { index: 0, url: 'https://soundcloud.com/robin/midnight-drive', click_count: 7 },
        { index: 1, url: 'https://robin.example/press', click_count: 2 },
      ],
    },
    ...overrides,
  });

const periodSelect = () => createWrapper().findSelect('[data-testid="analytics-period"]')!;
function choosePeriod(id: string) {
  act(() => periodSelect().openDropdown());
  act(() => periodSelect().selectOptionByValue(id));
}
const funnelStage = (name: string) => screen.getByTestId(`funnel-${name}`);
const campaignsTable = () => createWrapper().findTable('[data-testid="analytics-campaigns"]')!;
const campaignNames = () =>
  campaignsTable()
    .findRows()
    .map((row) => row.findAll('td, th')[0]!.getElement().textContent);
const activityTable = () => createWrapper().findTable('[data-testid="analytics-activity"]')!;
/** The recipients' emails in the activity table's rows, in order. */
const activityEmails = () =>
  activityTable()
    .findRows()
    .map((row) => activity.map((entry) => entry.recipient_email).find((email) => row.getElement().textContent.includes(email)));
/** The page once the analytics answer is in. */
const loaded = () => screen.findByRole('heading', { name: 'Funnel' });

describe('day strings and the funnel', () => {
  it('formats a Pacific day string as that calendar day whatever the browser time zone', () => {
    expect(dayAsDate('2026-11-01').toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(formatDayShort('2026-11-01')).toBe('Nov 1');
    expect(formatDayLong('2026-03-08')).toBe('Sun, Mar 8, 2026');
  });

  it('reads ?period= and falls back to the default for anything else', () => {
    expect(periodFromParam('7d')).toBe('7d');
    expect(periodFromParam('1y')).toBe('1y');
    expect(periodFromParam(null)).toBe('30d');
    expect(periodFromParam('365d')).toBe('30d');
  });

  it('gives each stage its percent of sent, and stops at opened on basic analytics', () => {
    const totals = {
      emails_sent: 60,
      emails_opened: 20,
      emails_machine_opened: 10,
      emails_clicked: 6,
      emails_unsubscribed: 2,
      emails_listened: 12,
      emails_answered: 3,
    };
    expect(funnelOf(totals)).toEqual([
      { label: 'Sent', count: 60, percent: 100 },
      { label: 'Opened', count: 20, percent: 33 },
      { label: 'Clicked', count: 6, percent: 10 },
      { label: 'Listened', count: 12, percent: 20 },
      { label: 'Answered', count: 3, percent: 5 },
      { label: 'Unsubscribed', count: 2, percent: 3 },
    ]);
    expect(
      funnelOf({ ...totals, emails_clicked: null, emails_unsubscribed: null, emails_listened: null, emails_answered: null }).map((stage) => stage.label),
    ).toEqual(['Sent', 'Opened']);
    expect(funnelOf({ ...totals, emails_sent: 0, emails_opened: 0 })[1]).toEqual({ label: 'Opened', count: 0, percent: 0 });
  });
});

describe('the period', () => {
  it('starts at Last 30 days, switches to Last 7 days with the URL, and a reload keeps it', async () => {
    const server = fullServer();
    const first = renderAnalytics(server);
    await loaded();
    expect(server.calls('/api/analytics')).toEqual([{ period: '30d' }]);
    expect(periodSelect().findTrigger().getElement()).toHaveTextContent('Last 30 days');
    expect(funnelStage('sent')).toHaveTextContent('60 of 60 sent');

    act(() => periodSelect().openDropdown());
    const labels = periodSelect()
      .findDropdown()
      .findOptions()
      .map((option) => option.getElement().textContent);
    expect(labels).toEqual(['Last 7 days', 'Last 30 days', 'Last 3 months', 'Last year']);
    let release = () => {};
    server.data.holdAnalytics = new Promise<void>((resolve) => (release = resolve));
    act(() => periodSelect().selectOptionByValue('7d'));
    // The last period's figures stay while the next come.
    expect(await screen.findByText('Loading last 7 days')).toBeInTheDocument();
    expect(funnelStage('sent')).toHaveTextContent('60 of 60 sent');
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled();
    release();
    await waitFor(() => expect(funnelStage('sent')).toHaveTextContent('30 of 30 sent'));
    expect(screen.queryByText('Loading last 7 days')).toBeNull();
    expect(server.calls('/api/analytics')).toEqual([{ period: '30d' }, { period: '7d' }]);
    expect(currentPath()).toBe('/dashboard/analytics?period=7d');
    expect(periodSelect().findTrigger().getElement()).toHaveTextContent('Last 7 days');
    // The activity follows the period.
    await waitFor(() => expect(server.calls('/api/analytics/activity').at(-1)).toEqual({ period: '7d', filter: 'engaged' }));
    first.unmount();

    const reloaded = fullServer();
    renderAnalytics(reloaded, { path: '/dashboard/analytics?period=3m' });
    await loaded();
    expect(reloaded.calls('/api/analytics')).toEqual([{ period: '3m' }]);
    expect(periodSelect().findTrigger().getElement()).toHaveTextContent('Last 3 months');
  });

  it('shows the default period for an unknown ?period=', async () => {
    const server = fullServer();
    renderAnalytics(server, { path: '/dashboard/analytics?period=forever' });
    await loaded();
    expect(server.calls('/api/analytics')).toEqual([{ period: '30d' }]);
  });
});

describe('full analytics (Pro)', () => {
  it('shows the funnel with percents of sent, people only', async () => {
    renderAnalytics(fullServer());
    await loaded();
    expect(funnelStage('sent')).toHaveTextContent('60 of 60 sent');
    expect(funnelStage('opened')).toHaveTextContent('20 of 60 sent');
    expect(funnelStage('opened')).toHaveTextContent('33%');
    expect(funnelStage('clicked')).toHaveTextContent('6 of 60 sent');
    expect(funnelStage('clicked')).toHaveTextContent('10%');
    expect(funnelStage('unsubscribed')).toHaveTextContent('2 of 60 sent');
    expect(funnelStage('unsubscribed')).toHaveTextContent('3%');
  });

  it("shows the per-day figures as a table under each chart, days as the server's Pacific days", async () => {
    renderAnalytics(fullServer(), { path: '/dashboard/analytics?period=7d' });
    await loaded();
    expect(screen.getByRole('heading', { name: 'Emails per day' })).toBeInTheDocument();
    expect(screen.getByText(insightsMessages.machineOpensWhy)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'View emails per day as table' }));
    const table = screen.getByRole('table', { name: 'Emails per day' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toHaveLength(8);
    expect(rows[0]).toBe('DaySentOpenedClickedListenedUnsubscribed');
    // Newest first: today on top.
    expect(rows[1]).toBe('Thu, Nov 26, 2026104' + '201');
    expect(rows[7]).toBe(`${formatDayLong(dayBefore(6))}206100`);
    expect(rows[7]).toMatch(/^Fri, Nov 20, 2026/);
    expect(dayBefore(0)).toBe(TODAY);

    await userEvent.setup().click(screen.getByRole('button', { name: 'View machine opens per day as table' }));
    const machine = within(screen.getByRole('table', { name: 'Machine opens per day' }))
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(machine[0]).toBe('DayMachine opens');
    expect(machine[1]).toBe('Thu, Nov 26, 20263');
    expect(machine[7]).toBe('Fri, Nov 20, 20265');
  });

  it('sorts the campaigns by sent (default, descending), open rate, click rate and unsubscribes', async () => {
    renderAnalytics(fullServer());
    await loaded();
    expect(campaignNames()).toEqual(['Midnight Drive', 'Sunrise', '=Evil()']);
    const headers = campaignsTable()
      .findColumnHeaders()
      .map((header) => header.getElement().textContent);
    expect(headers).toEqual([
      'Campaign',
      'Sent',
      'Opened',
      'Open rate',
      'Machine opens',
      'Clicked',
      'Click rate',
      'Unsubscribes',
      'Listened',
      'Answered',
      'Links',
    ]);
    expect(campaignsTable().findBodyCell(1, 4)!.getElement()).toHaveTextContent('30%');

    act(() => campaignsTable().findColumnSortingArea(4)!.click());
    expect(campaignNames()).toEqual(['=Evil()', 'Midnight Drive', 'Sunrise']);
    act(() => campaignsTable().findColumnSortingArea(4)!.click());
    expect(campaignNames()).toEqual(['Sunrise', 'Midnight Drive', '=Evil()']);
    act(() => campaignsTable().findColumnSortingArea(7)!.click());
    expect(campaignNames()).toEqual(['Sunrise', 'Midnight Drive', '=Evil()']);
    act(() => campaignsTable().findColumnSortingArea(8)!.click());
    expect(campaignNames()).toEqual(['Sunrise', 'Midnight Drive', '=Evil()']);
    act(() => campaignsTable().findColumnSortingArea(8)!.click());
    expect(campaignNames()).toEqual(['=Evil()', 'Midnight Drive', 'Sunrise']);
    act(() => campaignsTable().findColumnSortingArea(2)!.click());
    expect(campaignNames()).toEqual(['=Evil()', 'Sunrise', 'Midnight Drive']);
  });

  it("loads a campaign's links and their clicks when asked", async () => {
    const server = fullServer();
    renderAnalytics(server);
    await loaded();
    expect(server.pathsCalled().filter((path) => path.includes('/links'))).toEqual([]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Links of Midnight Drive' }));
    const links = await screen.findByRole('table', { name: 'Links in Midnight Drive' });
    await waitFor(() =>
      expect(
        within(links)
          .getAllByRole('row')
          .map((row) => row.textContent),
      ).toEqual([
        'LinkClicks',
        expect.stringContaining('https://soundcloud.com/robin/midnight-drive') as string,
        expect.stringContaining('https://robin.example/press') as string,
      ]),
    );
    expect(within(links).getAllByRole('row')[1]).toHaveTextContent(/7$/);
    expect(within(links).getAllByRole('row')[2]).toHaveTextContent(/2$/);
    expect(server.pathsCalled().filter((path) => path.includes('/links'))).toEqual(['/api/analytics/campaigns/c-1/links']);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Links of Sunrise' }));
    expect(await screen.findByText("This campaign's email has no links.")).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close links' }));
    expect(screen.queryByRole('table', { name: 'Links in Sunrise' })).toBeNull();
  });

  it('lists who opened or clicked, page by page, filters by text and shows every email on request', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = fullServer({ activityPageSize: 2, holdLaterActivity: held });
    renderAnalytics(server);
    await loaded();
    expect(await screen.findByText('Loading activity (2 so far)')).toBeInTheDocument();
    release();
    await waitFor(() => expect(activityEmails()).toEqual(['person1@example.com', 'mara@velvet-records.example', 'person3@example.com']));
    expect(screen.queryByText(/Loading activity/)).toBeNull();
    expect(server.calls('/api/analytics/activity')).toEqual([
      { period: '30d', filter: 'engaged' },
      { period: '30d', filter: 'engaged', cursor: '2' },
    ]);
    expect(activityTable().findHeaderSlot()!.getElement()).toHaveTextContent('(3)');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Find recipients'), 'velvet');
    await waitFor(() => expect(activityEmails()).toEqual(['mara@velvet-records.example']));
    expect(activityTable().findHeaderSlot()!.getElement()).toHaveTextContent('(1/3)');
    await user.clear(screen.getByLabelText('Find recipients'));
    await user.type(screen.getByLabelText('Find recipients'), 'sunrise');
    await waitFor(() => expect(activityEmails()).toEqual(['mara@velvet-records.example']));
    await user.clear(screen.getByLabelText('Find recipients'));

    const show = activityTable().findFilterSlot()!.findSelect('[data-testid="activity-show"]')!;
    act(() => show.openDropdown());
    act(() => show.selectOptionByValue('all'));
    await waitFor(() => expect(activityEmails()).toHaveLength(4));
    expect(activityEmails()[3]).toBe('person4@example.com');
    expect(server.calls('/api/analytics/activity').map((query) => query.filter)).toEqual(['engaged', 'engaged', 'all', 'all']);
  });

  it('shows what each recipient did on the listen page: how far, how often, downloads and the answer with its note', async () => {
    renderAnalytics(fullServer());
    await loaded();
    await waitFor(() => expect(activityEmails()).toEqual(['person1@example.com', 'mara@velvet-records.example', 'person3@example.com']));
    const table = activityTable();
    expect(table.findColumnHeaders().map((header) => header.getElement().textContent)).toEqual([
      'Recipient',
      'Campaign',
      'Sent',
      'Opened',
      'Clicked',
      'Machine opens',
      'Listened',
      'Answer',
    ]);
    const listenCells = (row: number) => [7, 8].map((column) => table.findBodyCell(row, column)!.getElement().textContent);
    expect(listenCells(1)).toEqual(['75 %2 plays · Downloaded (2 times)', `Send me the WAVs“${EVIL_NOTE}”`]);
    // Listened without the open pixel: still in 'Opened, clicked or listened'.
    expect(table.findBodyCell(2, 4)!.getElement()).toHaveTextContent('Not opened');
    expect(listenCells(2)).toEqual(['50 %1 play', 'Interested']);
    expect(listenCells(3)).toEqual(['—', '—']);

    const show = table.findFilterSlot()!.findSelect('[data-testid="activity-show"]')!;
    expect(show.findTrigger().getElement()).toHaveTextContent('Opened, clicked or listened');
  });

  it('shows a play that stopped before 25 % (where Listened starts counting) as Played, not 0 %; the export keeps the number', async () => {
    const early = activityRow(1, { opened_at: null, last_opened_at: null, open_count: 0, play_count: 2, listen_max_percent: 0 });
    renderAnalytics(fullServer({ activity: [early] }));
    await loaded();
    await waitFor(() => expect(activityEmails()).toEqual(['person1@example.com']));
    expect(activityTable().findBodyCell(1, 7)!.getElement().textContent).toBe('Played2 plays');

    const [header = '', line = ''] = csvLines(activityCsvColumns, [early]);
    const cells = Papa.parse<string[]>(`${header}\r\n${line}`).data;
    const column = (name: string) => cells[1]![cells[0]!.indexOf(name)];
    expect([column('Listened %'), column('Plays')]).toEqual(['0', '2']);
  });

  it('says when the activity fails and loads it again on Retry', async () => {
    const server = fullServer({ fail: { activity: 500 } });
    renderAnalytics(server);
    await loaded();
    const table = await screen.findByTestId('analytics-activity');
    expect(await within(table).findByText('Internal error')).toBeInTheDocument();
    server.data.fail = {};
    await userEvent.setup().click(within(table).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(activityEmails()).toHaveLength(3));
    expect(within(table).queryByText('Internal error')).toBeNull();
  });

  it('keeps the pages that came when a later page fails, and Retry loads them all', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = fullServer({ activityPageSize: 2, holdLaterActivity: held });
    renderAnalytics(server);
    await loaded();
    expect(await screen.findByText('Loading activity (2 so far)')).toBeInTheDocument();
    server.data.fail = { activity: 500 };
    release();
    const table = screen.getByTestId('analytics-activity');
    expect(await within(table).findByText('Internal error')).toBeInTheDocument();
    expect(activityEmails()).toEqual(['person1@example.com', 'mara@velvet-records.example']);
    server.data.fail = {};
    await userEvent.setup().click(within(table).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(activityEmails()).toHaveLength(3));
  });
});

describe('basic analytics (Free)', () => {
  it('shows sent, opens and machine opens, locks the rest with Upgrade, and never asks for links or activity', async () => {
    const server = fullServer({ depth: 'basic' });
    renderAnalytics(server, { tier: 'free' });
    await loaded();
    expect(funnelStage('sent')).toHaveTextContent('60 of 60 sent');
    expect(funnelStage('opened')).toHaveTextContent('20 of 60 sent');
    expect(screen.queryByTestId('funnel-clicked')).toBeNull();
    expect(screen.queryByTestId('funnel-unsubscribed')).toBeNull();
    expect(screen.getByText(insightsMessages.machineOpensWhy)).toBeInTheDocument();

    const prompts = screen.getAllByTestId('analytics-upgrade');
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) expect(prompt).toHaveTextContent(insightsMessages.upgradeForAnalytics);
    expect(
      campaignsTable()
        .findColumnHeaders()
        .map((header) => header.getElement().textContent),
    ).toEqual(['Campaign', 'Sent', 'Opened', 'Open rate', 'Machine opens']);
    expect(screen.queryByRole('button', { name: /^Links of/ })).toBeNull();
    expect(screen.queryByTestId('analytics-activity')).toBeNull();

    await userEvent.setup().click(screen.getByRole('button', { name: 'View emails per day as table' }));
    expect(within(screen.getByRole('table', { name: 'Emails per day' })).getAllByRole('row')[0]!.textContent).toBe('DaySentOpened');

    // Switching the period asks for the analytics only: never a campaign's links or the activity (the
    // layout's own reads, such as the sidebar's usage, are not the page's).
    choosePeriod('7d');
    await waitFor(() => expect(funnelStage('sent')).toHaveTextContent('30 of 30 sent'));
    expect(new Set(server.pathsCalled().filter((path) => path.startsWith('/api/analytics')))).toEqual(new Set(['/api/analytics']));

    await userEvent.setup().click(within(screen.getAllByTestId('analytics-upgrade')[1]!).getByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByRole('heading', { name: 'Subscription', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard/subscription');
  });
});

describe('listens and answers by email (issue 27 §1)', () => {
  const nudged = analyticsCampaign('c-4', 'Two Nudges', {
    emails_sent: 9,
    emails_listened: 3,
    emails_answered: 2,
    by_email: [
      { step: 0, emails_listened: 1, emails_answered: 1 },
      { step: 1, emails_listened: 2, emails_answered: 0 },
      { step: 2, emails_listened: 0, emails_answered: 1 },
    ],
  });
  const byEmailTable = () => createWrapper().findTable('[data-testid="analytics-by-email"]');

  it('shows, for each campaign with follow-ups, its listens and answers by First email, Follow-up 1 and Follow-up 2', async () => {
    renderAnalytics(fullServer({ campaigns: [...campaigns, nudged] }));
    await loaded();
    expect(screen.getByRole('heading', { name: 'Listens and answers by email' })).toBeInTheDocument();
    const table = byEmailTable()!;
    expect(table.findColumnHeaders().map((header) => header.getElement().textContent)).toEqual(['Campaign', 'Email', 'Listened', 'Answered']);
    expect(table.findRows().map((row) => row.findAll('td, th').map((cell) => cell.getElement().textContent))).toEqual([
      ['Two Nudges', 'First email', '1', '1'],
      ['Two Nudges', 'Follow-up 1', '2', '0'],
      ['Two Nudges', 'Follow-up 2', '0', '1'],
    ]);
    // The campaigns table is as it was: the campaign's own totals.
    expect(campaignNames()).toContain('Two Nudges');
  });

  it('shows nothing of it without follow-ups, nor on basic analytics (Free)', async () => {
    renderAnalytics(fullServer());
    await loaded();
    expect(byEmailTable()).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Listens and answers by email' })).toBeNull();
    cleanup();
    renderAnalytics(fullServer({ depth: 'basic', campaigns: [...campaigns, nudged] }), { tier: 'free' });
    await loaded();
    expect(byEmailTable()).toBeNull();
  });
});

describe('states', () => {
  it('shows the empty state with Compose and no charts for an account that never sent', async () => {
    renderAnalytics(fakeInsights());
    expect(await screen.findByText(insightsMessages.empty)).toBeInTheDocument();
    expect(screen.getByText(insightsMessages.emptyDetail)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Emails per day' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Funnel' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Compose' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/compose'));
  });

  it('shows a period without sends (but an account that sent before) as zeros, not the empty state', async () => {
    renderAnalytics(fakeInsights({ days: { 60: { emails_sent: 3 } }, campaigns: [analyticsCampaign('c-1', 'Old Track', { emails_sent: 3 })] }));
    await loaded();
    expect(screen.queryByText(insightsMessages.empty)).toBeNull();
    expect(funnelStage('sent')).toHaveTextContent('0 of 0 sent');
  });

  it('says when the analytics fail and loads them on Retry', async () => {
    const server = fullServer({ fail: { analytics: 500 } });
    renderAnalytics(server);
    expect(await screen.findByText(insightsMessages.analyticsFailed)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled();
    server.data.fail = {};
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await loaded();
    expect(server.calls('/api/analytics')).toEqual([{ period: '30d' }, { period: '30d' }]);
  });
});

describe('funnelOf', () => {
  it("rounds as the server's rates do (29 of 200 is 15 %), and never shows more than 100 % of the period's sent", () => {
    const totals = {
      emails_sent: 200,
      emails_opened: 29,
      emails_machine_opened: 0,
      emails_clicked: 250,
      emails_listened: 9,
      emails_answered: 3,
      emails_unsubscribed: 1,
    };
    expect(funnelOf(totals).map((stage) => [stage.label, stage.percent])).toEqual([
      ['Sent', 100],
      ['Opened', 15],
      ['Clicked', 100],
      ['Listened', 5],
      ['Answered', 2],
      ['Unsubscribed', 1],
    ]);
    expect(funnelOf({ ...totals, emails_sent: 0 }).map((stage) => stage.percent)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe('export', () => {
  const exported = async () => {
    const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => {});
    const button = screen.getByRole('button', { name: 'Export' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup().click(button);
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const [filename, content] = save.mock.calls[0]!;
    expect(content.startsWith('\uFEFF')).toBe(true);
    const tables = content
      .slice(1)
      .split('\r\n\r\n')
      .map((table) => Papa.parse<string[]>(table).data);
    return { filename, tables };
  };

  it("writes the period's days and the recipients' activity as two tables of one CSV, formulas neutralised", async () => {
    renderAnalytics(fullServer(), { path: '/dashboard/analytics?period=7d' });
    await loaded();
    await waitFor(() => expect(activityEmails()).toHaveLength(3));
    const { filename, tables } = await exported();
    expect(filename).toBe(`trackpitch-analytics-7d-${formatDateStamp(new Date())}.csv`);
    expect(tables).toHaveLength(2);
    const [dayTable, activityTableRows] = tables as [string[][], string[][]];
    expect(dayTable[0]).toEqual(['Day', 'Sent', 'Opened', 'Machine Opens', 'Clicked', 'Unsubscribed', 'Listened', 'Answered']);
    expect(dayTable).toHaveLength(8);
    expect(dayTable[1]).toEqual([dayBefore(6), '20', '6', '5', '1', '0', '0', '0']);
    expect(dayTable[7]).toEqual([TODAY, '10', '4', '3', '2', '1', '0', '0']);

    expect(activityTableRows[0]).toEqual([
      'Track',
      'Recipient Name',
      'Recipient Email',
      'Sent',
      'First Opened',
      'Last Opened',
      'Opens',
      'Machine Opens',
      'First Clicked',
      'Last Clicked',
      'Clicks',
      'Listened %',
      'Plays',
      'Downloads',
      'Answer',
      'Answer Note',
    ]);
    // Every email sent in the period, not only the engaged ones the table shows by default.
    expect(activityTableRows.slice(1).map((row) => row[2])).toEqual([
      'person1@example.com',
      'mara@velvet-records.example',
      'person3@example.com',
      activity[3]!.recipient_email,
    ]);
    expect(activityTableRows[1]![10]).toBe('1');
    // The listen page: the furthest milestone as a number, plays, downloads, the answer as the page names it
    // and the note as written, formula-neutralised; nothing where the recipient never played or answered.
    expect(activityTableRows[1]!.slice(11)).toEqual(['75', '2', '2', 'Send me the WAVs', `'${EVIL_NOTE}`]);
    expect(activityTableRows[2]!.slice(11)).toEqual(['50', '1', '0', 'Interested', '']);
    expect(activityTableRows[3]!.slice(11)).toEqual(['', '0', '0', '', '']);
    // Pacific wall-clock times here (the test's time zone): 17:00Z is 09:00 on Nov 20.
    expect(activityTableRows[1]![3]).toBe('2026-11-20 09:00');
    expect(activityTableRows[3]![1]).toBe(`'${EVIL_NAME}`);
  });

  it('says so when the export cannot read every email, and saves nothing', async () => {
    const server = fullServer();
    renderAnalytics(server, { path: '/dashboard/analytics?period=7d' });
    await loaded();
    await waitFor(() => expect(activityEmails()).toHaveLength(3));
    server.data.fail = { activity: 500 };
    const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => {});
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByTestId('analytics-export-error')).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();
    // The table keeps what it showed.
    expect(activityEmails()).toHaveLength(3);
  });

  it('on Free writes the basic per-day table only', async () => {
    renderAnalytics(fullServer({ depth: 'basic' }), { tier: 'free' });
    await loaded();
    const { filename, tables } = await exported();
    expect(filename).toBe(`trackpitch-analytics-30d-${formatDateStamp(new Date())}.csv`);
    expect(tables).toHaveLength(1);
    expect(tables[0]![0]).toEqual(['Day', 'Sent', 'Opened', 'Machine Opens']);
    expect(tables[0]).toHaveLength(31);
    expect(tables[0]![30]).toEqual([TODAY, '10', '4', '3']);
  });
});
