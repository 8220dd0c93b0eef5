import { expect, test, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium';
import { idTokenFor, newUser, signedIn } from './helpers';

/**
 * Sending (issue 6) in Chromium against the local stack, whose ticker sends every second: connect the
 * local mailbox through its consent page, compose and send to three contacts, watch them arrive in the
 * outbox, open one (its pixel loads), click its link (through the tracking redirect), unsubscribe from
 * it, and see all of it on the campaign's page and in Contacts' Unsubscribed tab.
 */

// Headless Chromium says "HeadlessChrome", which the open classifier rightly counts as a machine; a
// person's browser does not. The email's frame is sandboxed, and Chromium ignores Playwright's
// per-page user agent there, so the browser itself is started with a person's one.
const PERSON_BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
test.use({ userAgent: PERSON_BROWSER, launchOptions: { executablePath: chromiumPath(), args: [...chromiumArgs, `--user-agent=${PERSON_BROWSER}`] } });

const TRACK_URL = 'https://soundcloud.com/nova-pulse/midnight-drive';
const recipients = [
  { name: 'Mara Velvet', email: 'mara@velvet-records.example', label_name: 'Velvet Records', contact_type: 'Label' },
  { name: 'Theo Kern', email: 'theo@kern-sound.example', label_name: 'Kern Sound', contact_type: 'DJ' },
  { name: 'Ines Tidal', email: 'ines@tidal-audio.example', label_name: 'Tidal Audio', contact_type: 'Label' },
] as const;

async function connectLocalMailbox(page: Page) {
  await page.goto('/dashboard/settings');
  await page.getByRole('button', { name: 'Connect Gmail' }).click();
  await expect(page.getByRole('heading', { name: 'Connect a test mailbox' })).toBeVisible();
  await page.getByLabel('Mailbox address').fill('nova@local.test');
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByText('Gmail Connected!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await expect(page.getByText('nova@local.test')).toBeVisible();
}

test('connect the local mailbox, send to 3 contacts, then open, click and unsubscribe from the outbox', async ({ page, context, request, baseURL }) => {
  test.setTimeout(180_000);
  const user = await signedIn(page, baseURL!, newUser('sender'));
  const headers = { authorization: `Bearer ${await idTokenFor(user)}` };
  expect((await request.patch('/api/profile', { headers, data: { artist_name: 'Nova Pulse' } })).status()).toBe(200);
  for (const contact of recipients) expect((await request.post('/api/contacts', { headers, data: contact })).status()).toBe(201);
  // The track's page is on the internet; the browser gets a stand-in (this machine has no internet).
  await context.route('https://soundcloud.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Midnight Drive</title><h1>Midnight Drive</h1>' }));

  await connectLocalMailbox(page);

  // Compose and send.
  await page.goto('/dashboard/compose');
  await page.getByLabel('Track Name *').fill('Midnight Drive');
  await page.getByLabel('Track URL *').fill(TRACK_URL);
  await page.getByRole('button', { name: /Genre \*/ }).click();
  await page.getByRole('option', { name: 'Techno', exact: true }).click();
  await page.getByLabel('Track Description *').fill('A rolling, hypnotic warehouse cut with a slow-building acid line.');
  await page.getByRole('button', { name: 'Select All', exact: true }).click();
  await expect(page.getByText('3 contacts match your filters (3 selected)')).toBeVisible();
  await page.getByRole('button', { name: 'Generate Email Preview' }).click();
  await expect(page.getByText('[CONTACT_NAME]').first()).toBeVisible();

  await page.getByRole('button', { name: 'Send Campaign', exact: true }).click();
  const capacity = page.getByRole('dialog', { name: 'Send Campaign' });
  await expect(capacity.getByText('Send now')).toBeVisible();
  await capacity.getByRole('button', { name: 'Start Sending' }).click();
  await expect(page.getByText('Campaign Started!')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'View campaign' }).click();
  await expect(page).toHaveURL(/\/dashboard\/campaigns\/[0-9A-Z]{26}$/);
  const campaignUrl = page.url();

  // The local mailbox sends one a second (SEND_INTERVAL_SECONDS in the browser run's stack).
  await page.goto('/dashboard/outbox');
  const sent = page.getByRole('table', { name: 'Sent messages' });
  await expect(sent.getByRole('row')).toHaveCount(recipients.length + 1, { timeout: 60_000 });
  for (const contact of recipients) await expect(sent.getByText(contact.email)).toBeVisible();

  // Open the message to Mara: its pixel loads in the frame (an open).
  // (Playwright does not report a sandboxed frame's requests: the campaign's Opened count below shows it.)
  await sent.getByRole('row').filter({ hasText: 'mara@velvet-records.example' }).getByRole('link').click();
  const email = page.frameLocator('iframe[title="Email message"]');
  await expect(email.getByText(/Midnight Drive/).first()).toBeVisible();
  const pixel = email.locator('img[width="1"][height="1"]');
  await expect(pixel).toHaveCount(1);
  await expect(pixel).toHaveAttribute('src', /\/api\/t\/o\//);

  // Click the track link: it goes through the click route, which redirects to the stored link only.
  const trackLink = email.locator('a[href*="/api/t/c/"]').first();
  const clickRedirect = page.context().waitForEvent('response', (response) => new URL(response.url()).pathname.startsWith('/api/t/c/'));
  const trackTab = page.context().waitForEvent('page');
  await trackLink.click();
  const redirect = await clickRedirect;
  expect(redirect.status()).toBe(302);
  expect(redirect.headers().location).toBe(TRACK_URL);
  const track = await trackTab;
  await expect(track).toHaveURL(TRACK_URL);
  await track.close();

  // Unsubscribe through the email's footer link: the page asks first, the confirm button unsubscribes.
  const unsubscribeTab = page.context().waitForEvent('page');
  await email.getByRole('link', { name: 'Unsubscribe from future emails' }).click();
  const unsubscribe = await unsubscribeTab;
  await expect(unsubscribe.getByRole('heading', { name: 'Unsubscribe from Nova Pulse' })).toBeVisible();
  await unsubscribe.getByRole('radio', { name: 'Wrong genre' }).check();
  await unsubscribe.getByRole('button', { name: 'Confirm Unsubscribe' }).click();
  await expect(unsubscribe.getByText("You've been unsubscribed")).toBeVisible();
  await expect(unsubscribe.getByText("You won't receive any more emails from Nova Pulse.")).toBeVisible();
  await unsubscribe.close();

  // The campaign's page counts the open, the click and the unsubscribe, and lists the three emails.
  await page.goto(campaignUrl);
  await expect(page.getByRole('heading', { name: 'Midnight Drive', level: 1 })).toBeVisible();
  const stat = (label: string) => page.getByRole('group', { name: label, exact: true });
  await expect(stat('Total Sent')).toContainText('3');
  await expect(stat('Opened')).toContainText('1');
  await expect(stat('Clicked')).toContainText('1');
  await expect(stat('Unsubscribed')).toContainText('1');

  // And Contacts' Unsubscribed tab names the campaign's track.
  await page.goto('/dashboard/contacts');
  await page.getByRole('tab', { name: /Unsubscribed \(1\)/ }).click();
  const unsubscribed = page.getByRole('list', { name: 'Unsubscribed contacts' });
  await expect(unsubscribed.getByText('mara@velvet-records.example')).toBeVisible();
  await expect(unsubscribed.getByText('From campaign: Midnight Drive')).toBeVisible();
});
