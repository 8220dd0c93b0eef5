import { expect, test, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { formatDayLong } from '../../web/src/pages/analytics/analyticsView';
import { connectLocalMailbox, ok, sendCampaign, until, type SentMessage } from './artistApi';
import { checkPage, settled } from './axe';
import { subscribeToPro } from './billingTwin';
import { idTokenFor, newUser, signedIn, type TestUser } from './helpers';

/**
 * The dashboard home and Analytics (issue 15) against the local stack: an artist sends a campaign of 4,
 * and the recipients act as mail clients would, by fetching the messages' tracking links: two people open
 * (one of them also clicks), a privacy proxy opens a third, the fourth unsubscribes. The pages must then
 * show exactly those figures.
 */

/** A person's desktop browser (headless Chromium's own agent is, rightly, a machine to the open classifier). */
const PERSON_BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** Yahoo's image proxy fetches every image on delivery: a machine open. */
const MAIL_PROXY = 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html';

const TRACK_NAME = 'Midnight Drive';
const contacts = [
  { name: 'Mara Velvet', email: 'mara@velvet-records.example', label_name: 'Velvet Records', contact_type: 'Label' },
  { name: 'Theo Kern', email: 'theo@kern-sound.example', label_name: 'Kern Sound', contact_type: 'DJ' },
  { name: 'Ines Tidal', email: 'ines@tidal-audio.example', label_name: 'Tidal Audio', contact_type: 'Label' },
  { name: 'Rio Static', email: 'rio@static-lab.example', label_name: 'Static Lab', contact_type: 'DJ' },
] as const;

interface Pitched {
  user: TestUser;
  campaignId: string;
  /** By recipient: opened and clicked, opened, machine-opened, unsubscribed. */
  clicker: SentMessage;
  opener: SentMessage;
}

/** Fetches a tracking link as `agent` would, without following the redirect, and checks the answer. */
async function fetchAs(request: APIRequestContext, path: string, agent: string, status: number) {
  const answer = await request.get(path, { headers: { 'user-agent': agent }, maxRedirects: 0 });
  expect(answer.status(), `${path}: ${await answer.text()}`).toBe(status);
}

/** A signed-in artist (tour skipped) whose campaign of 4 was sent, opened by two, clicked by one, proxy-opened and unsubscribed once. */
async function pitchedArtist(page: Page, request: APIRequestContext, baseURL: string, playwright: PlaywrightWorkerArgs['playwright']): Promise<Pitched> {
  const user = await signedIn(page, baseURL, newUser('insights'));
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${await idTokenFor(user)}` } });
  try {
    await ok(api.patch('/api/profile', { data: { artist_name: 'Nova Pulse' } }));
    const ids: string[] = [];
    for (const contact of contacts) ids.push(((await ok(api.post('/api/contacts', { data: contact }), 201)) as { id: string }).id);
    await connectLocalMailbox(api, baseURL);
    const { campaignId, messages } = await sendCampaign(api, { trackName: TRACK_NAME, contactIds: ids });
    const to = (email: string) => messages.find((message) => message.to.includes(email))!;
    const [clicker, opener, proxied, leaver] = contacts.map((contact) => to(contact.email)) as [SentMessage, SentMessage, SentMessage, SentMessage];

    await fetchAs(request, clicker.pixel, PERSON_BROWSER, 200);
    await fetchAs(request, clicker.links[0]!, PERSON_BROWSER, 302);
    await fetchAs(request, opener.pixel, PERSON_BROWSER, 200);
    await fetchAs(request, proxied.pixel, MAIL_PROXY, 200);
    await ok(request.post('/api/unsubscribe', { data: { token: leaver.unsubscribeToken, reason: 'Wrong genre' } }));
    // Every event is counted before the pages are read (the tracking routes answer before they record).
    await until(
      async () => (await ok(api.get(`/api/campaigns/${campaignId}`))) as Record<string, number>,
      (c) => c.emails_opened === 2 && c.emails_clicked === 1 && c.emails_machine_opened === 1 && c.emails_unsubscribed === 1,
      'the opens, the click and the unsubscribe to be counted',
    );
    return { user, campaignId, clicker, opener };
  } finally {
    await api.dispose();
  }
}

const card = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });

test('a user with sent, opened and clicked emails sees the nine cards with the right numbers, and the last sends', async ({
  page,
  request,
  baseURL,
  playwright,
}, testInfo) => {
  test.setTimeout(120_000);
  const { campaignId } = await pitchedArtist(page, request, baseURL!, playwright);

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(card(page, 'Total Contacts')).toContainText('4');
  await expect(card(page, 'Emails Sent')).toContainText('4');
  await expect(card(page, 'Emails Remaining')).toContainText('46');
  await expect(card(page, 'Emails Remaining')).toContainText('4 of 50 this month');
  await expect(card(page, 'Total Campaigns')).toContainText('1');
  await expect(card(page, 'Campaigns This Month')).toContainText('1');
  await expect(card(page, 'Emails This Week')).toContainText('4');
  await expect(card(page, 'Emails Opened')).toContainText('2');
  await expect(card(page, 'Emails Opened')).toContainText('+ 1 machine open');
  // 2 of 4 opened by a person: the proxy's open is not one.
  await expect(card(page, 'Average Open Rate')).toContainText('50%');
  await expect(card(page, 'Current Plan')).toContainText('Free');
  await expect(page.getByTestId('mailbox-card')).toContainText('Gmail connected');
  await checkPage(page, testInfo, 'dashboard (with figures)');

  const recent = page.getByRole('list', { name: 'Recent sends' });
  await expect(recent.getByTestId('recent-send')).toHaveCount(4);
  const maraRow = recent.getByTestId('recent-send').filter({ hasText: 'Mara Velvet' });
  await expect(maraRow).toContainText('Clicked');
  await expect(recent.getByTestId('recent-send').filter({ hasText: 'Theo Kern' })).toContainText('Opened');
  await expect(recent.getByTestId('recent-send').filter({ hasText: 'Ines Tidal' })).toContainText('Not opened');
  await maraRow.getByRole('link', { name: TRACK_NAME }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/campaigns/${campaignId}$`));
});

/** Today's Pacific day, as the server keys its day counters. */
const pacificToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());

async function choosePeriod(page: Page, label: string) {
  await page.getByTestId('analytics-period').getByRole('button').click();
  await page.getByRole('option', { name: label }).click();
}

const stage = (page: Page, name: string) => page.getByTestId(`funnel-${name}`);

test('Analytics: Free sees opens with the rest locked; on Pro each period shows the charts, tables, links and activity, and the export parses', async ({
  page,
  request,
  baseURL,
  playwright,
}, testInfo) => {
  test.setTimeout(180_000);
  await pitchedArtist(page, request, baseURL!, playwright);
  const today = formatDayLong(pacificToday());

  // Free: basic analytics, opens only, and an Upgrade prompt where clicks, links and activity would be.
  await page.goto('/dashboard/analytics');
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await expect(stage(page, 'sent')).toContainText('4');
  await expect(stage(page, 'opened')).toContainText('2');
  await expect(page.getByTestId('analytics-upgrade').first()).toContainText('Upgrade to Pro');
  await expect(stage(page, 'clicked')).toHaveCount(0);
  await expect(page.getByTestId('analytics-activity')).toHaveCount(0);
  await page.getByTestId('analytics-upgrade').first().getByRole('button', { name: 'Upgrade' }).click();
  await expect(page).toHaveURL(/\/dashboard\/subscription$/);

  await subscribeToPro(page);

  // Pro: every period holds today's figures, in the funnel, the charts' tables and the campaigns table.
  await page.goto('/dashboard/analytics');
  for (const [label, id] of [
    ['Last 7 days', '7d'],
    ['Last 30 days', '30d'],
    ['Last 3 months', '3m'],
    ['Last year', '1y'],
  ] as const) {
    await choosePeriod(page, label);
    await expect(page).toHaveURL(new RegExp(`[?&]period=${id}`));
    await expect(page.getByTestId('analytics-period')).toContainText(label);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expect(stage(page, 'sent')).toContainText('4');
    await expect(stage(page, 'opened')).toContainText('2');
    await expect(stage(page, 'clicked')).toContainText('1');
    await expect(stage(page, 'unsubscribed')).toContainText('1');
    await expect(page.getByRole('heading', { name: 'Emails per day' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Machine opens per day' })).toBeVisible();
  }

  await page.getByRole('button', { name: 'View emails per day as table' }).click();
  const todayRow = page.getByRole('table', { name: 'Emails per day' }).getByRole('row', { name: new RegExp(today) });
  // Sent, opened, clicked, listened (no listen page in this campaign), unsubscribed.
  await expect(todayRow.getByRole('cell')).toHaveText(['4', '2', '1', '0', '1']);
  await page.getByRole('button', { name: 'View machine opens per day as table' }).click();
  await expect(page.getByRole('table', { name: 'Machine opens per day' }).getByRole('row', { name: new RegExp(today) })).toContainText('1');

  const campaigns = page.getByTestId('analytics-campaigns');
  await expect(campaigns.getByRole('row', { name: new RegExp(TRACK_NAME) })).toContainText('50%');
  await campaigns.getByRole('button', { name: `Links of ${TRACK_NAME}` }).click();
  const links = page.getByRole('table', { name: `Links in ${TRACK_NAME}` });
  await expect(links.getByRole('row', { name: /soundcloud\.com\/nova-pulse\/midnight-drive/ })).toContainText('1');

  // Who opened or clicked: the two people, not the proxy-opened or the unsubscribed recipient; all four on request.
  const activity = page.getByTestId('analytics-activity');
  await expect(activity.getByText('mara@velvet-records.example')).toBeVisible();
  await expect(activity.getByText('theo@kern-sound.example')).toBeVisible();
  await expect(activity.getByText('ines@tidal-audio.example')).toHaveCount(0);
  await page.getByTestId('activity-show').getByRole('button').click();
  await page.getByRole('option', { name: 'All emails sent' }).click();
  await expect(activity.getByText('rio@static-lab.example')).toBeVisible();
  await settled(page);
  await checkPage(page, testInfo, 'analytics (Pro, tables and links open)');
  await activity.getByLabel('Find recipients').fill('theo');
  await expect(activity.getByText('mara@velvet-records.example')).toHaveCount(0);
  await expect(activity.getByText('theo@kern-sound.example')).toBeVisible();

  // The export: the period's days and every email's activity, as two CSV tables a spreadsheet reads.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^trackpitch-analytics-1y-\d{4}-\d{2}-\d{2}\.csv$/);
  const [daysCsv, activityCsv] = readFileSync(await file.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n\r?\n/);
  const days = Papa.parse<Record<string, string>>(daysCsv!, { header: true, skipEmptyLines: true });
  expect(days.errors).toEqual([]);
  expect(days.data).toHaveLength(365);
  expect(days.data.find((row) => row.Day === pacificToday())).toMatchObject({ Sent: '4', Opened: '2', 'Machine Opens': '1', Clicked: '1', Unsubscribed: '1' });
  const rows = Papa.parse<Record<string, string>>(activityCsv!, { header: true, skipEmptyLines: true });
  expect(rows.errors).toEqual([]);
  expect(rows.data.map((row) => row['Recipient Email']).sort()).toEqual(contacts.map((contact) => contact.email).sort());
  expect(rows.data.find((row) => row['Recipient Email'] === 'mara@velvet-records.example')).toMatchObject({ Track: TRACK_NAME, Opens: '1', Clicks: '1' });
});
