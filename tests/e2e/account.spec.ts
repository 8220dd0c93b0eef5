/**
 * Settings → 'Your data' in the browser (issue 26 §3): the data export is stored, and the browser
 * downloads it from the URL the API answers: a zip holding contacts.csv (with the contact added) and campaigns.json; deleting the account with its email typed
 * lands on the landing page signed out, and the account can no longer sign in.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { readZip } from '../support/zip';
import { idTokenFor, newUser, signedIn, type TestUser } from './helpers';

async function addContact(baseURL: string, user: TestUser, email: string) {
  const response = await fetch(`${baseURL}/api/contacts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await idTokenFor(user)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Mara Velvet', email }),
  });
  expect(response.status).toBe(201);
}

test('Download my data saves a zip of contacts.csv and campaigns.json', async ({ page, baseURL }) => {
  const user = await signedIn(page, baseURL!, newUser('export'));
  await addContact(baseURL!, user, 'mara@velvet-records.example');
  await page.goto('/dashboard/settings');
  await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();
  const [download, answer] = await Promise.all([
    page.waitForEvent('download'),
    page.waitForResponse((response) => new URL(response.url()).pathname === '/api/account/export'),
    page.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  // The API answers where the zip is stored; the browser downloads it from there (the local audio store's signed URL).
  const { url, file_name } = (await answer.json()) as { url: string; file_name: string };
  expect(download.url()).toBe(url);
  expect(new URL(url).searchParams.get('key')).toMatch(/^exports\/[^/]+\/[0-9A-Z]{26}$/);
  expect(download.suggestedFilename()).toBe(file_name);
  expect(download.suggestedFilename()).toMatch(/^trackpitch-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = readZip(await readFile(await download.path()));
  expect([...files.keys()]).toEqual(['contacts.csv', 'campaigns.json']);
  expect(files.get('contacts.csv')!.toString('utf8')).toContain('Mara Velvet,mara@velvet-records.example');
  expect(JSON.parse(files.get('campaigns.json')!.toString('utf8'))).toEqual([]);
});

test('Delete account: typing the email deletes it, lands signed out on the landing page, and the sign-in fails', async ({ page, baseURL }) => {
  const user = await signedIn(page, baseURL!, newUser('delete'));
  await addContact(baseURL!, user, 'jo@label.example');
  await page.goto('/dashboard/settings');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account?' });
  const confirm = dialog.getByRole('button', { name: 'Delete account' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type your email to confirm').fill(user.email);
  await confirm.click();
  await expect(page).toHaveURL(/\/landing$/);
  await expect(page.getByRole('heading', { name: 'Get your tracks heard', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  // Signed out: the dashboard asks for a sign-in.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth/);
  await expect(idTokenFor(user)).rejects.toThrow();
});
