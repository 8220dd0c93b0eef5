import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { chooseComposeMode, idTokenFor, newUser, signedIn, toast, type TestUser } from './helpers';

/**
 * Compose (issue 5) in Chromium against the local stack: the local writer writes the AI preview, the
 * server sanitizes HTML, and previews render in sandboxed frames.
 */

interface Recipient {
  name: string;
  email: string;
  label_name: string;
  contact_type: 'Label' | 'DJ' | 'Fan';
}

const recipients: Recipient[] = [
  { name: 'Mara Velvet', email: 'mara@velvet-records.example', label_name: 'Velvet Records', contact_type: 'Label' },
  { name: 'Theo Kern', email: 'theo@kern-sound.example', label_name: 'Kern Sound', contact_type: 'DJ' },
];

/** A signed-in artist with a name, links and two contacts, made through the API (the UI for those is tested elsewhere). */
async function artistWithContacts(page: Page, request: APIRequestContext, baseURL: string): Promise<TestUser> {
  const user = await signedIn(page, baseURL, newUser('composer'));
  const headers = { authorization: `Bearer ${await idTokenFor(user)}` };
  const profile = await request.patch('/api/profile', {
    headers,
    data: { artist_name: 'Nova Pulse', soundcloud_url: 'https://soundcloud.com/nova-pulse' },
  });
  expect(profile.status()).toBe(200);
  for (const contact of recipients) {
    expect((await request.post('/api/contacts', { headers, data: contact })).status()).toBe(201);
  }
  return user;
}

/** The user's campaigns, newest first, each read whole (the list answers summaries without the body). */
async function campaignsOf(request: APIRequestContext, user: TestUser) {
  const headers = { authorization: `Bearer ${await idTokenFor(user)}` };
  const response = await request.get('/api/campaigns', { headers });
  expect(response.status()).toBe(200);
  const { campaigns } = (await response.json()) as { campaigns: { id: string }[] };
  return Promise.all(
    campaigns.map(async ({ id }) => {
      const campaign = await request.get(`/api/campaigns/${id}`, { headers });
      expect(campaign.status()).toBe(200);
      return (await campaign.json()) as { email_subject: string; email_body: string; mode: string; total_recipients: number };
    }),
  );
}

async function selectEveryRecipient(page: Page) {
  const list = page.getByRole('group', { name: 'Recipients' });
  await expect(list.getByRole('checkbox')).toHaveCount(recipients.length);
  await page.getByRole('button', { name: 'Select All', exact: true }).click();
  await expect(page.getByText(`${recipients.length} contacts match your filters (${recipients.length} selected)`)).toBeVisible();
}

test('AI preview: generate for the first recipient, step through each recipient, edit and save', async ({ page, request, baseURL }) => {
  const user = await artistWithContacts(page, request, baseURL!);
  await page.goto('/dashboard/compose');
  await expect(page.getByRole('heading', { name: 'Compose Campaign', level: 1 })).toBeVisible();

  const generate = page.getByRole('button', { name: 'Generate Email Preview' });
  await expect(generate).toBeDisabled();
  await expect(page.getByText('Please fill in track name, description, and select at least one contact.')).toBeVisible();

  await page.getByLabel('Track Name *').fill('Midnight Drive');
  await page.getByLabel('Track URL *').fill('https://soundcloud.com/nova-pulse/midnight-drive');
  await page.getByRole('button', { name: /Genre \*/ }).click();
  await page.getByRole('option', { name: 'Techno', exact: true }).click();
  await page.getByLabel('Track Description *').fill('A rolling, hypnotic warehouse cut with a slow-building acid line.');
  await selectEveryRecipient(page);

  await expect(generate).toBeEnabled();
  await generate.click();
  // The preview was written for the first recipient in the list (the newest contact, Theo), greeted by
  // first name: it became the placeholder each recipient's own first name fills.
  await expect(page.getByText('[FIRST_NAME]').first()).toBeVisible();
  await expect(page.getByText('Midnight Drive').first()).toBeVisible();
  const [draft] = await campaignsOf(request, user);
  expect(draft).toMatchObject({ mode: 'ai', total_recipients: 2 });
  expect(draft!.email_body).toContain('[FIRST_NAME]');
  expect(draft!.email_body).not.toMatch(/\bTheo\b/);

  // Each recipient's own final email, in a sandboxed frame.
  const recipientFrame = page.frameLocator('iframe[title="Recipient email preview"]');
  await expect(page.getByText('Theo Kern <theo@kern-sound.example>')).toBeVisible();
  await expect(recipientFrame.getByText(/Theo/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Next recipient' }).click();
  await expect(page.getByText('Mara Velvet <mara@velvet-records.example>')).toBeVisible();
  await expect(recipientFrame.getByText(/Mara/).first()).toBeVisible();
  await expect(recipientFrame.getByText('Unsubscribe from future emails')).toBeVisible();

  // Edit and save: the draft's subject and body change on the server.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByLabel('Subject').first().fill('Midnight Drive for [LABEL_NAME]');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast(page, 'Your email changes have been saved.')).toBeVisible();
  await expect(page.getByText('Midnight Drive for [LABEL_NAME]')).toBeVisible();
  const [saved] = await campaignsOf(request, user);
  expect(saved!.email_subject).toBe('Midnight Drive for [LABEL_NAME]');
  // The recipient shown (Mara) now gets the edited subject with her label filled in.
  await expect(page.getByText('Midnight Drive for Velvet Records')).toBeVisible();
});

test('HTML mode: a Bold template with a preset accent colour becomes a sanitized draft and renders', async ({ page, request, baseURL }) => {
  const user = await artistWithContacts(page, request, baseURL!);
  await page.goto('/dashboard/compose');
  await page.getByLabel('Track Name').fill('Neon Tides');
  await selectEveryRecipient(page);
  await chooseComposeMode(page, 'HTML Mode');

  await page.getByRole('radio', { name: /Bold/ }).check();
  await expect(page.getByLabel('Email Subject')).toHaveValue('Demo Submission: Neon Tides');
  await page.getByRole('button', { name: /#10b981/ }).click();
  await page.getByRole('button', { name: 'Create Preview' }).click();
  await expect(toast(page, 'HTML Email Preview Created')).toBeVisible();

  const [draft] = await campaignsOf(request, user);
  expect(draft).toMatchObject({ mode: 'html', total_recipients: 2, email_subject: 'Demo Submission: Neon Tides' });
  expect(draft!.email_body.toLowerCase()).toContain('#10b981');

  const saved = page.frameLocator('iframe[title="Email preview"]');
  await expect(saved.getByText('Neon Tides').first()).toBeVisible();
  const accent = await saved.locator('[style*="10b981" i]').count();
  expect(accent).toBeGreaterThan(0);
});

test('a script in custom HTML never runs, in the composer preview or in the saved preview', async ({ page, request, baseURL }) => {
  const user = await artistWithContacts(page, request, baseURL!);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto('/dashboard/compose');
  await selectEveryRecipient(page);
  await chooseComposeMode(page, 'HTML Mode');
  await page.getByRole('radio', { name: /Custom HTML/ }).check();

  const hostile =
    '<!DOCTYPE html><html><body><p id="greeting">Hello [NAME]</p>' +
    '<script>document.getElementById("greeting").textContent = "SCRIPT RAN"; alert("script");</script>' +
    '<img src="https://example.invalid/x.png" onerror="alert(\'onerror\')" alt="">' +
    '<a href="javascript:alert(1)">Listen</a></body></html>';
  await page.getByLabel('Subject', { exact: true }).fill('Custom pitch');
  await page.getByRole('textbox', { name: 'HTML Body' }).fill(hostile);
  await page.getByRole('toolbar', { name: 'HTML Body view' }).getByRole('button', { name: 'Preview' }).click();

  const composerFrame = page.frameLocator('iframe[title="HTML body preview"]');
  await expect(composerFrame.getByText('Hello [NAME]')).toBeVisible();
  await expect(composerFrame.getByText('SCRIPT RAN')).toHaveCount(0);

  await page.getByRole('button', { name: 'Create Preview' }).click();
  await expect(toast(page, 'HTML Email Preview Created')).toBeVisible();
  const savedFrame = page.frameLocator('iframe[title="Email preview"]');
  await expect(savedFrame.getByText('Hello [NAME]')).toBeVisible();
  await expect(savedFrame.getByText('SCRIPT RAN')).toHaveCount(0);

  const [draft] = await campaignsOf(request, user);
  expect(draft!.email_body).not.toMatch(/<script|onerror|javascript:/i);
  expect(dialogs).toEqual([]);
});
