import { expect, test } from '@playwright/test';
import { signedIn } from './helpers';

test.describe('signed out', () => {
  for (const path of ['/dashboard', '/dashboard/contacts', '/dashboard/campaigns/some-id', '/admin/beta-waitlist']) {
    test(`${path} redirects to /auth`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    });
  }

  test('an unknown path, under /admin too, shows the 404 page with Return to Home', async ({ page }) => {
    await page.goto('/admin/no-such-screen');
    await expect(page.getByText('Oops! Page not found')).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page.getByText('Oops! Page not found')).toBeVisible();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  for (const [path, title] of [
    ['/privacy', 'Privacy Policy'],
    ['/terms', 'Terms of Service'],
  ] as const) {
    test(`${path} shows the ${title} with Back to Home`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      await page.getByRole('button', { name: 'Back to Home' }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  }
});

test.describe('signed in', () => {
  test('/, /auth and unknown dashboard paths lead to the dashboard', async ({ page, baseURL }) => {
    await signedIn(page, baseURL!);
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/dashboard/not-a-page');
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
