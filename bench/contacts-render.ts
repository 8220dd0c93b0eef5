/**
 * One measurement for bench/contacts.ts: sign in through the UI in a fresh Chromium context, then time
 * until the first contact card is on screen, twice: opening Contacts from the sidebar (the page's chunk,
 * the first API page and the render), and loading /dashboard/contacts afresh (the whole app as well).
 */
import { chromium as playwright } from '@playwright/test';
import { chromiumArgs } from '../tests/e2e/chromium';

export async function measureFirstRender(options: {
  chromium: string;
  appUrl: string;
  email: string;
  password: string;
}): Promise<{ fromSidebar: number; fullLoad: number }> {
  const browser = await playwright.launch({ executablePath: options.chromium, args: chromiumArgs });
  try {
    const page = await browser.newPage({ baseURL: options.appUrl, viewport: { width: 1280, height: 800 } });
    await page.goto('/auth');
    await page.getByLabel('Email').fill(options.email);
    await page.getByLabel('Password').fill(options.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(/\/dashboard$/);
    // A new account's tour opens a moment after sign-in; close it so it does not cover the sidebar.
    const skip = page.getByRole('button', { name: 'Skip tour' });
    await skip.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => skip.click(),
      () => undefined,
    );
    const firstCard = page.getByText(/@example\.net/).first();
    let t = Date.now();
    await page.getByRole('link', { name: 'Contacts', exact: true }).click();
    await firstCard.waitFor({ state: 'visible', timeout: 30_000 });
    const fromSidebar = Date.now() - t;
    t = Date.now();
    await page.goto('/dashboard/contacts');
    await firstCard.waitFor({ state: 'visible', timeout: 30_000 });
    return { fromSidebar, fullLoad: Date.now() - t };
  } finally {
    await browser.close();
  }
}
