import { expect, test } from '@playwright/test';
import { wavBytes } from '../support/audio';
import { pngBytes } from '../support/images';
import { connectLocalMailbox, ok, until } from './artistApi';
import { checkPage } from './axe';
import { idTokenFor, newUser, signedIn } from './helpers';

/**
 * The private listen page (issue 16) in Chromium against the local stack: a WAV made in code is
 * uploaded with Compose's 'Track file' (its progress shown) with cover art, an AI campaign with that track and no Track
 * URL is sent with Compose's Send Campaign to one contact by the local mailbox, the recipient follows
 * the email's track link from the outbox to their own /l/<token> page, plays past 50 %, answers
 * 'Interested' with a note, and the artist's campaign page shows it.
 */
test('upload → send → open the listen page from the outbox → play to 50 % → answer → the campaign shows it', async ({
  page,
  baseURL,
  playwright,
}, testInfo) => {
  test.setTimeout(180_000);
  const user = await signedIn(page, baseURL!, newUser('listen'));
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${await idTokenFor(user)}` } });
  try {
    await ok(api.patch('/api/profile', { data: { artist_name: 'Nova Pulse' } }));
    await ok(api.post('/api/contacts', { data: { name: 'Mara Velvet', email: 'mara@velvet-records.example', contact_type: 'Label' } }), 201);
    await connectLocalMailbox(api, baseURL!);

    // The artist composes in AI mode: uploads the track (its progress shown while the file goes to
    // storage, held back a moment so the bar can be seen), needs no Track URL, and sends.
    await page.goto('/dashboard/compose');
    await page.getByLabel('Track Name *').fill('Night Drive');
    let releaseUpload = () => {};
    const uploadHeld = new Promise<void>((resolve) => (releaseUpload = resolve));
    await page.route('**/local/audio/upload', async (route) => {
      await uploadHeld;
      await route.continue();
    });
    await page
      .getByLabel('Track file')
      .setInputFiles({ name: 'Night Drive.wav', mimeType: 'audio/wav', buffer: Buffer.from(wavBytes({ seconds: 4, sampleRate: 8000 })) });
    await expect(page.getByRole('progressbar', { name: 'Night Drive.wav' })).toBeVisible();
    releaseUpload();
    await expect(page.getByText('Night Drive · 0:04 · WAV')).toBeVisible();
    // Cover art (issue 25 §5): the same upload and complete, shown on the listen page.
    await page.getByLabel('Cover art file').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: Buffer.from(pngBytes()) });
    await expect(page.getByText('Cover art added')).toBeVisible();
    await expect(page.getByLabel('Track URL')).toHaveValue('');
    await page.getByRole('checkbox', { name: 'Allow downloads' }).check();
    await page.getByLabel('Listen link valid for (days)').fill('30');
    await page.getByRole('button', { name: /Genre \*/ }).click();
    await page.getByRole('option', { name: 'Techno', exact: true }).click();
    await page.getByLabel('Track Description *').fill('A rolling late-night groove.');
    await page.getByRole('button', { name: 'Select All', exact: true }).click();
    await page.getByRole('button', { name: 'Generate Email Preview' }).click();
    await expect(page.getByText('[CONTACT_NAME]').first()).toBeVisible();
    await page.getByRole('button', { name: 'Send Campaign', exact: true }).click();
    await page.getByRole('dialog', { name: 'Send Campaign' }).getByRole('button', { name: 'Start Sending' }).click();
    await expect(page.getByText('Campaign Started!')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'View campaign' }).click();
    await expect(page).toHaveURL(/\/dashboard\/campaigns\/[0-9A-Z]{26}$/);
    const campaign = { id: new URL(page.url()).pathname.split('/').pop()! };
    expect(await ok(api.get(`/api/campaigns/${campaign.id}`))).toMatchObject({ allow_download: true, listen_days: 30 });
    await until(
      async () => (await ok(api.get(`/api/campaigns/${campaign.id}`))) as { status: string },
      (c) => c.status === 'completed',
      'the campaign to be sent',
      60_000,
    );

    // Mara opens the email in the outbox and follows its track link: her own listen page.
    await page.goto('/dashboard/outbox');
    await page.getByRole('treegrid', { name: 'Sent messages' }).getByRole('row').filter({ hasText: 'mara@velvet-records.example' }).getByRole('link').click();
    // The email the writer wrote for Mara carries one tracked link: her own listen page, behind click tracking.
    const link = page.frameLocator('iframe[title="Email message"]').locator('a[href*="/api/t/c/"]');
    await expect(link).toHaveCount(1);
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/\/api\/t\/c\/[A-Za-z0-9_-]{43}\/0$/);
    // The page and its audio set no cookie: every response from the click on is watched for one.
    const cookiesSet: string[] = [];
    page.on('response', (response) => {
      void response.headerValue('set-cookie').then((value) => value && cookiesSet.push(`${response.url()}: ${value}`));
    });
    await page.goto(new URL(href).pathname);
    await expect(page).toHaveURL(/\/l\/[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Night Drive' })).toBeVisible();
    await expect(page.getByText('By Nova Pulse')).toBeVisible();
    await expect(page.getByText('A rolling late-night groove.')).toBeVisible();
    const cover = page.getByRole('img', { name: 'Cover art for Night Drive' });
    await expect(cover).toBeVisible();
    // Loaded from its signed URL (a broken image has no natural size), in a square box.
    await expect.poll(() => cover.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    const box = await cover.boundingBox();
    expect(box && Math.abs(box.width - box.height)).toBeLessThanOrEqual(1);
    await expect(page.getByRole('link', { name: 'Download' })).toBeVisible();
    await checkPage(page, testInfo, 'listen page');
    // On a phone (the phone project runs this spec too) the page fits the screen: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    // Nothing is counted for opening the page.
    const emailOf = async () => ((await ok(api.get(`/api/campaigns/${campaign.id}/emails`))) as { emails: Record<string, unknown>[] }).emails[0]!;
    expect(await emailOf()).toMatchObject({ play_count: 0, listen_max_percent: 0 });

    // Play (keyboard) past half of the track.
    await page.getByRole('button', { name: 'Play Night Drive' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('listen-position')).toHaveText(/^0:0[3-4] \/ 0:04$/, { timeout: 15_000 });
    await until(emailOf, (email) => Number(email.listen_max_percent) >= 50, 'the listen to be counted', 15_000);
    expect(await emailOf()).toMatchObject({ play_count: 1 });

    await page.getByLabel('Note (optional)').fill('Love the groove, send more.');
    await page.getByRole('button', { name: 'Interested' }).click();
    await expect(page.getByText('Thanks, your answer was sent to the artist.')).toBeVisible();
    expect(cookiesSet).toEqual([]);

    // The artist sees it on the campaign.
    await page.goto(`/dashboard/campaigns/${campaign.id}`);
    await expect(page.getByRole('group', { name: 'Listened', exact: true })).toContainText('1');
    await expect(page.getByRole('group', { name: 'Answered', exact: true })).toContainText('1');
    await expect(page.getByText(/Listened (50|75|100) % · Played 1×/)).toBeVisible();
    await expect(page.getByText('Answer: Interested')).toBeVisible();
    await expect(page.getByText('Love the groove, send more.', { exact: false })).toBeVisible();
  } finally {
    await api.dispose();
  }
});
