import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import Papa from 'papaparse';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { admin, signInViaUi, toast, tourTakenBefore } from './helpers';

const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

async function joinByApi(request: APIRequestContext, email: string, extra: Record<string, string> = {}) {
  const response = await request.post('/api/waitlist', {
    data: { email, artist_name: `Artist ${email.split('@')[0]}`, music_style: 'Techno', ...extra },
  });
  expect(response.status()).toBe(201);
}

async function fillWaitlistForm(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Artist Name').fill('Nova Pulse');
  await page.getByLabel('Music Style').selectOption('Deep House');
  await page.getByLabel('SoundCloud/Spotify Link').fill('https://soundcloud.com/nova-pulse');
  await page.getByLabel('Why are you interested?').fill('I pitch every EP to 40 labels by hand.');
}

test('a visitor joins the beta from the landing page', async ({ page, request }) => {
  const before = (await (await request.get('/api/waitlist/spots')).json()) as { taken: number };
  await page.goto('/');
  await page.getByRole('button', { name: 'Start Free Trial' }).first().click();
  await expect(page.getByLabel('Email')).toBeInViewport();
  const email = uniqueEmail('visitor');
  await fillWaitlistForm(page, email);
  await page.getByRole('button', { name: 'Join the Beta' }).click();
  await expect(page.getByText("You're In The Beta")).toBeVisible();
  const after = (await (await request.get('/api/waitlist/spots')).json()) as { taken: number };
  expect(after.taken).toBeGreaterThan(before.taken);
  // This visitor's entry is stored: the same email again is a duplicate.
  const again = await request.post('/api/waitlist', { data: { email, artist_name: 'Nova Pulse', music_style: 'Techno' } });
  expect(again.status()).toBe(409);
});

test('a second sign-up with the same email (other case) is refused with the spec text', async ({ page, request }) => {
  const email = uniqueEmail('twice');
  await joinByApi(request, email);
  await page.goto('/');
  await fillWaitlistForm(page, email.toUpperCase());
  await page.getByRole('button', { name: 'Join the Beta' }).click();
  await expect(page.getByText("You're already on the list! We'll contact you soon with your access details.")).toBeVisible();
  // Nothing the visitor typed is lost.
  await expect(page.getByLabel('Artist Name')).toHaveValue('Nova Pulse');
});

test('an admin approves, rejects, writes notes and exports the waitlist as CSV', async ({ page, request }) => {
  const approveEmail = uniqueEmail('approve');
  const rejectEmail = uniqueEmail('reject');
  await joinByApi(request, approveEmail, { soundcloud_spotify_url: 'https://soundcloud.com/approve-me', why_interested: '=HYPERLINK("x")' });
  await joinByApi(request, rejectEmail);

  await tourTakenBefore(page, admin());
  await signInViaUi(page, admin());
  await page.goto('/admin/beta-waitlist');
  await expect(page.getByRole('heading', { name: 'Beta Waitlist Management' })).toBeVisible();

  const rowOf = (email: string) => page.getByRole('row').filter({ hasText: email });
  const filter = page.getByRole('searchbox').first();

  await filter.fill(approveEmail);
  await rowOf(approveEmail).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Entry approved')).toBeVisible();
  await expect(rowOf(approveEmail).getByRole('button', { name: 'Approve' })).toHaveCount(0);

  await rowOf(approveEmail).getByRole('button', { name: 'Add Internal Notes' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill('Great demo, onboard first.');
  await dialog.getByRole('button', { name: 'Save Notes' }).click();
  await expect(toast(page, 'Notes saved')).toBeVisible();

  await filter.fill(rejectEmail);
  await rowOf(rejectEmail).getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText('Entry rejected')).toBeVisible();
  await expect(rowOf(rejectEmail).getByRole('button', { name: 'Reject' })).toHaveCount(0);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^beta-waitlist-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = Papa.parse<Record<string, string>>(readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
  });
  expect(csv.errors).toEqual([]);
  expect(csv.meta.fields).toEqual(['Email', 'Artist Name', 'Music Style', 'URL', 'Why Interested', 'Status', 'Submitted Date', 'Approved Date', 'Notes']);
  const approved = csv.data.find((row) => row.Email === approveEmail);
  const rejected = csv.data.find((row) => row.Email === rejectEmail);
  expect(approved).toMatchObject({ Status: 'approved', URL: 'https://soundcloud.com/approve-me', Notes: 'Great demo, onboard first.' });
  expect(approved?.['Why Interested']).toBe(`'=HYPERLINK("x")`);
  expect(approved?.['Approved Date']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  expect(rejected).toMatchObject({ Status: 'rejected', 'Approved Date': '' });
  expect(rejected?.['Submitted Date']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
});
