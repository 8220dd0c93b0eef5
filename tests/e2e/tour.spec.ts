import { expect, test } from '@playwright/test';
import { createAccount, newUser, signInViaUi } from './helpers';

/** The tour as a new account meets it (spec §4): it opens by itself, points at the page, and once skipped stays away. */
test('a new account gets the tour: it highlights its anchors, Next advances, Skip ends it for good', async ({ page, baseURL, isMobile }) => {
  const user = newUser('tour');
  await createAccount(baseURL!, user);
  await signInViaUi(page, user);

  const tour = page.getByRole('dialog', { name: 'Welcome to Trackpitch' });
  await expect(tour).toBeVisible({ timeout: 30_000 });
  await expect(tour.getByText(isMobile ? 'Step 1 of 3' : 'Step 1 of 10', { exact: true })).toBeVisible();
  await expect(tour).toBeFocused();

  // The first step points at the page heading: marked, and outlined while highlighted.
  const heading = page.getByRole('heading', { name: 'Dashboard', level: 1 });
  await expect(heading).toHaveAttribute('data-tour-anchor', 'welcome');
  await expect(heading).toHaveAttribute('data-tour-highlight', '');
  await expect(heading).toHaveCSS('outline-style', 'solid');
  // ...for 3 s, then the outline goes and the panel stays.
  await expect(heading).not.toHaveAttribute('data-tour-highlight', { timeout: 5_000 });
  await expect(tour).toBeVisible();

  await tour.getByRole('button', { name: 'Next' }).click();
  const overview = page.getByRole('dialog', { name: 'Your dashboard' });
  await expect(overview).toBeVisible();
  const content = page.locator('main [data-tour-area="content"]');
  await expect(content).toHaveAttribute('data-tour-anchor', 'overview');
  await expect(content).toContainText('Emails Remaining');
  await expect(heading).not.toHaveAttribute('data-tour-anchor');

  if (!isMobile) {
    // On a desktop the sidebar's items follow, the panel beside each.
    await overview.getByRole('button', { name: 'Next' }).click();
    const contacts = page.getByRole('dialog', { name: 'Contacts' });
    const link = page.locator('[data-tour-anchor="contacts"]');
    await expect(link).toHaveAttribute('href', '/dashboard/contacts');
    const [linkBox, panelBox] = [await link.boundingBox(), await contacts.boundingBox()];
    expect(panelBox!.x).toBeGreaterThanOrEqual(linkBox!.x + linkBox!.width);
  }

  await page.getByRole('button', { name: 'Skip tour' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('[data-tour-anchor], [data-tour-highlight]')).toHaveCount(0);

  // Skipped for good: a reload, once the profile is in, brings no tour.
  const profileLoaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/profile' && response.request().method() === 'GET');
  await page.reload();
  await profileLoaded;
  await expect(heading).toBeVisible();
  await expect(page.getByText('Emails Remaining')).toBeVisible();
  await page.waitForTimeout(500);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('Show Tour replays the tour once a page session, from the keyboard too', async ({ page, baseURL, isMobile }) => {
  const user = newUser('tour');
  await createAccount(baseURL!, user);
  await signInViaUi(page, user);
  await expect(page.getByRole('dialog', { name: 'Welcome to Trackpitch' })).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  if (isMobile) await page.getByRole('button', { name: 'Open navigation' }).first().click();
  const showTour = page.getByRole('button', { name: 'Show Tour' });
  await showTour.focus();
  await page.keyboard.press('Enter');
  const tour = page.getByRole('dialog', { name: 'Welcome to Trackpitch' });
  await expect(tour).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Your dashboard' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Once per page session: Show Tour is now unavailable until a reload.
  if (isMobile) await page.getByRole('button', { name: 'Open navigation' }).first().click();
  await expect(showTour).toBeDisabled();
  await page.reload();
  if (isMobile) await page.getByRole('button', { name: 'Open navigation' }).first().click();
  await expect(showTour).toBeEnabled();
});
