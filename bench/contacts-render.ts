/**
 * One measurement for bench/contacts.ts: sign in through the UI in a fresh Chromium context, then time
 * from navigating to /dashboard/contacts until the first contact card is on screen.
 */
import { chromium as playwright } from '@playwright/test';
import { chromiumArgs } from '../tests/e2e/chromium';

export async function measureFirstRender(options: { chromium: string; appUrl: string; email: string; password: string }): Promise<number> {
  const browser = await playwright.launch({ executablePath: options.chromium, args: chromiumArgs });
  try {
    const page = await browser.newPage({ baseURL: options.appUrl, viewport: { width: 1280, height: 800 } });
    await page.goto('/auth');
    await page.getByLabel('Email').fill(options.email);
    await page.getByLabel('Password').fill(options.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(/\/dashboard$/);
    const skip = page.getByRole('button', { name: 'Skip tour' });
    if (await skip.isVisible().catch(() => false)) await skip.click();
    const t = Date.now();
    await page.goto('/dashboard/contacts');
    await page.getByText(/@example\.net/).first().waitFor({ state: 'visible', timeout: 30_000 });
    return Date.now() - t;
  } finally {
    await browser.close();
  }
}
