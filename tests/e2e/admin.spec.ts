import { expect, test } from '@playwright/test';
import { admin, idTokenFor, signInViaUi, signedIn, tourTakenBefore } from './helpers';

test('a non-admin is refused the waitlist screen and its API', async ({ page, baseURL, request }) => {
  const user = await signedIn(page, baseURL!);
  await page.goto('/admin/beta-waitlist');
  await expect(page.getByRole('heading', { name: 'Not authorised' })).toBeVisible();
  await expect(page.getByText('Beta Waitlist Management')).toHaveCount(0);

  const response = await request.get('/api/admin/waitlist', { headers: { authorization: `Bearer ${await idTokenFor(user)}` } });
  expect(response.status()).toBe(403);
});

test('an admin opens the waitlist screen and its API answers', async ({ page, request }) => {
  await tourTakenBefore(page, admin());
  await signInViaUi(page, admin());
  await page.goto('/admin/beta-waitlist');
  await expect(page.getByRole('heading', { name: 'Beta Waitlist Management' })).toBeVisible();

  const response = await request.get('/api/admin/waitlist', { headers: { authorization: `Bearer ${await idTokenFor(admin())}` } });
  expect(response.status()).toBe(200);
  expect(await response.json()).toHaveProperty('entries');
});

test('the API refuses a request without a token', async ({ request }) => {
  expect((await request.get('/api/profile')).status()).toBe(401);
});
