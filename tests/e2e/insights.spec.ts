import { expect, test, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { connectLocalMailbox, ok, sendCampaign, until, type SentMessage } from './artistApi';
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
}) => {
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

  const recent = page.getByRole('list', { name: 'Recent sends' });
  await expect(recent.getByTestId('recent-send')).toHaveCount(4);
  const maraRow = recent.getByTestId('recent-send').filter({ hasText: 'Mara Velvet' });
  await expect(maraRow).toContainText('Clicked');
  await expect(recent.getByTestId('recent-send').filter({ hasText: 'Theo Kern' })).toContainText('Opened');
  await expect(recent.getByTestId('recent-send').filter({ hasText: 'Ines Tidal' })).toContainText('Not opened');
  await maraRow.getByRole('link', { name: TRACK_NAME }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/campaigns/${campaignId}$`));
});
