import { expect, test, type Locator, type Page } from '@playwright/test';
import { boxOf, intersects } from './boxes';
import { connectLocalMailbox } from './artistApi';
import { addContactByForm, idTokenFor, signedIn, toast } from './helpers';

/**
 * Layout faults of issue 25 §5, measured in the browser: the mailbox status on a phone, and a toast
 * beside the page header's buttons. Runs in the desktop project (1280 px) and the phone project (360 px);
 * the admin waitlist's columns at 1280 px are admin-columns.spec.ts (desktop only).
 */

/** How many lines `text` takes inside `container` (the tops of its characters' boxes, counted). */
async function linesOf(container: Locator, text: string): Promise<number> {
  return container.evaluate((element, wanted) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size;
    }
    return -1;
  }, text);
}

test('"Gmail connected" on the dashboard stays whole on one line, however long the address', async ({ page, baseURL, playwright }) => {
  const user = await signedIn(page, baseURL!);
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${await idTokenFor(user)}` } });
  try {
    await connectLocalMailbox(api, baseURL!, 'a.rather.long.mailbox-address.for-demos@studio-of-nova-pulse.example');
  } finally {
    await api.dispose();
  }
  await page.goto('/dashboard');
  const status = page.getByTestId('mailbox-status');
  await expect(status).toContainText('Gmail connected');
  expect(await linesOf(status, 'Gmail connected')).toBe(1);
  expect(await linesOf(status, 'studio-of-nova-pulse')).toBeGreaterThanOrEqual(1);
  // The card fits the screen: nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});

async function expectToastClearOf(page: Page, toastText: string, buttonNames: string[]) {
  const shown = toast(page, toastText);
  await expect(shown).toBeVisible();
  const toastBox = await boxOf(shown);
  for (const name of buttonNames) {
    const button = page.getByRole('button', { name, exact: true });
    expect(intersects(toastBox, await boxOf(button)), `the toast covers the header's "${name}" button`).toBe(false);
    // And the button is still the element a click there reaches.
    const box = await boxOf(button);
    const reached = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent.trim() ?? null, {
      x: box.x + box.width / 2,
      y: box.y + box.height / 2,
    });
    expect(reached).toBe(name);
  }
}

test('a toast does not cover the page header’s buttons', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard/contacts');
  await expect(page.getByText('No contacts yet')).toBeVisible();
  await addContactByForm(page, { name: 'Nia Dusk', email: 'nia@dusk-audio.example' });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeInViewport();
  await expectToastClearOf(page, 'Contact added', ['Import CSV', 'Add Contact']);
});
