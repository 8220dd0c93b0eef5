import { expect, test, type Page } from '@playwright/test';
import { signedIn } from './helpers';

/** Sidebar items of spec §2 and the page heading each shows. */
const sections = [
  ['Contacts', '/dashboard/contacts', 'Contacts'],
  ['Compose', '/dashboard/compose', 'Compose Campaign'],
  ['Tracks', '/dashboard/tracks', 'Tracks'],
  ['Campaigns', '/dashboard/campaigns', 'Campaigns'],
  ['LabelFinder', '/dashboard/labelfinder', 'LabelFinder'],
  ['Analytics', '/dashboard/analytics', 'Analytics'],
  ['Settings', '/dashboard/settings', 'Settings'],
  ['Subscription', '/dashboard/subscription', 'Subscription'],
  ['Dashboard', '/dashboard', 'Dashboard'],
] as const;

async function openNavigationIfDrawer(page: Page, isMobile: boolean) {
  if (isMobile) await page.getByRole('button', { name: 'Open navigation' }).first().click();
}

test('the sidebar reaches every section and highlights the active one', async ({ page, baseURL, isMobile }) => {
  await signedIn(page, baseURL!);
  for (const [item, path, heading] of sections) {
    await openNavigationIfDrawer(page, isMobile);
    const link = page.getByRole('link', { name: item, exact: true }).last();
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await openNavigationIfDrawer(page, isMobile);
    await expect(page.getByRole('link', { name: item, exact: true }).last()).toHaveAttribute('aria-current', 'page');
    if (isMobile) await page.keyboard.press('Escape');
  }
});

test('a campaign detail path highlights Campaigns', async ({ page, baseURL, isMobile }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard/campaigns/01JCAMPAIGN');
  await openNavigationIfDrawer(page, isMobile);
  await expect(page.getByRole('link', { name: 'Campaigns', exact: true }).last()).toHaveAttribute('aria-current', 'page');
});

test('Sign out from the sidebar (the drawer on a phone) ends the session', async ({ page, baseURL, isMobile }) => {
  await signedIn(page, baseURL!);
  await openNavigationIfDrawer(page, isMobile);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/dashboard/settings');
  await expect(page).toHaveURL(/\/auth$/);
});
