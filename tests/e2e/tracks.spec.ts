import { expect, test } from '@playwright/test';
import { wavBytes } from '../support/audio';
import { signedIn, newUser } from './helpers';

/**
 * Tracks (issue 16) in Chromium against the local stack: 'Upload track' posts a generated WAV straight
 * to the local AudioStore with the presigned form, Web Audio computes the waveform, the server reads
 * the file; My tracks lists it and deletes it after confirmation.
 */
test('upload a track with progress and a waveform, find it in My tracks, delete it', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!, newUser('uploader'));
  await page.goto('/dashboard/compose');

  const completed = page.waitForRequest((request) => request.method() === 'POST' && /\/api\/tracks\/[^/]+\/complete$/.test(request.url()));
  await page
    .getByLabel('Track file')
    .setInputFiles({ name: 'Night Drive.wav', mimeType: 'audio/wav', buffer: Buffer.from(wavBytes({ seconds: 2.4, sampleRate: 8000 })) });
  const { peaks } = (await completed).postDataJSON() as { peaks?: number[] };
  expect(peaks).toHaveLength(800);
  expect(Math.max(...(peaks ?? []))).toBeGreaterThan(0.3);
  await expect(page.getByText('Night Drive · 0:02 · WAV')).toBeVisible();
  // The track names the pitch when the name was blank.
  await expect(page.getByLabel('Track Name')).toHaveValue('Night Drive');

  await page.getByRole('button', { name: 'My tracks' }).click();
  const picker = page.getByRole('dialog', { name: 'My tracks' });
  await expect(picker.getByRole('row', { name: /Night Drive/ })).toContainText('0:02');
  await picker.getByRole('radio', { name: 'Night Drive' }).check();
  await picker.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete track' }).getByRole('button', { name: 'Delete' }).click();
  await expect(picker.getByText('No tracks yet.', { exact: false })).toBeVisible();
  await picker.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Night Drive · 0:02 · WAV')).toHaveCount(0);
});

test('a text file renamed .mp3 is refused with a clear message', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!, newUser('uploader'));
  await page.goto('/dashboard/compose');
  await page
    .getByLabel('Track file')
    .setInputFiles({ name: 'lyrics.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('Not a song, just words.\n'.repeat(50)) });
  await expect(page.getByText('This file is not audio we can play', { exact: false })).toBeVisible();
});
