import { expect, test } from '@playwright/test';
import { wavBytes } from '../support/audio';
import { connectLocalMailbox, ok, until } from './artistApi';
import { checkPage } from './axe';
import { idTokenFor, newUser, signedIn } from './helpers';

/**
 * The private listen page (issue 16) in Chromium against the local stack: a WAV made in code is
 * uploaded with Compose's 'Track file', a campaign with that track is sent to one contact by the local
 * mailbox, the recipient follows the email's track link from the outbox to their own /l/<token> page,
 * plays past 50 %, answers 'Interested' with a note, and the artist's campaign page shows it.
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
    const contact = (await ok(
      api.post('/api/contacts', { data: { name: 'Mara Velvet', email: 'mara@velvet-records.example', contact_type: 'Label' } }),
      201,
    )) as {
      id: string;
    };
    await connectLocalMailbox(api, baseURL!);

    // The artist uploads the track in Compose.
    await page.goto('/dashboard/compose');
    await page
      .getByLabel('Track file')
      .setInputFiles({ name: 'Night Drive.wav', mimeType: 'audio/wav', buffer: Buffer.from(wavBytes({ seconds: 4, sampleRate: 8000 })) });
    await expect(page.getByText('Night Drive · 0:04 · WAV')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Allow downloads' })).toBeVisible();
    const [track] = ((await ok(api.get('/api/tracks'))) as { tracks: { id: string }[] }).tracks;

    // A campaign linking to it, sent at once to Mara.
    const campaign = (await ok(
      api.post('/api/campaigns', {
        data: {
          mode: 'html',
          track: { track_name: 'Night Drive', description: 'A rolling late-night groove.', track_id: track!.id, allow_download: true, listen_days: 30 },
          email_subject: 'Night Drive for [NAME]',
          email_body: '<!DOCTYPE html><html><body><p>Hi [NAME], <a href="[TRACK_URL]">listen to Night Drive</a>.</p></body></html>',
          total_recipients: 1,
        },
      }),
      201,
    )) as { id: string };
    await ok(api.post(`/api/campaigns/${campaign.id}/send`, { data: { contact_ids: [contact.id], mode: 'immediate', batch_start: 0, total: 1 } }));
    await until(
      async () => (await ok(api.get(`/api/campaigns/${campaign.id}`))) as { status: string },
      (c) => c.status === 'completed',
      'the campaign to be sent',
      60_000,
    );

    // Mara opens the email in the outbox and follows its track link: her own listen page.
    await page.goto('/dashboard/outbox');
    await page.getByRole('table', { name: 'Sent messages' }).getByRole('row').filter({ hasText: 'mara@velvet-records.example' }).getByRole('link').click();
    const link = page.frameLocator('iframe[title="Email message"]').getByRole('link', { name: 'listen to Night Drive' });
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/\/api\/t\/c\/[A-Za-z0-9_-]{43}\/0$/);
    await page.goto(new URL(href).pathname);
    await expect(page).toHaveURL(/\/l\/[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Night Drive' })).toBeVisible();
    await expect(page.getByText('By Nova Pulse')).toBeVisible();
    await expect(page.getByText('A rolling late-night groove.')).toBeVisible();
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
