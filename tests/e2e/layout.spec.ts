import { expect, test, type Locator, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { connectLocalMailbox } from './artistApi';
import { admin, idTokenFor, signedIn, signInViaUi, toast, tourTakenBefore } from './helpers';

/**
 * Layout faults of issue 25 §5, measured in the browser: the admin waitlist's columns at 1280 px, the
 * mailbox status on a phone, and a toast beside the page header's buttons. Runs in the desktop project
 * (1280 px) and the phone project (360 px).
 */

type Box = { x: number; y: number; width: number; height: number };

const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'the element has a box').not.toBeNull();
  return box!;
}

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

test('the admin waitlist at 1280 px: every column is in view, none under the sticky Actions column', async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'a 1280 px screen');
  const email = `layout-${randomUUID().slice(0, 8)}@example.com`;
  const joined = await request.post('/api/waitlist', {
    data: {
      email,
      artist_name: 'Nova Pulse',
      music_style: 'Progressive House',
      soundcloud_spotify_url: 'https://soundcloud.com/nova-pulse/a-rather-long-track-name',
    },
  });
  expect(joined.status()).toBe(201);

  await tourTakenBefore(page, admin());
  await signInViaUi(page, admin());
  await page.goto('/admin/beta-waitlist');
  await page.getByRole('searchbox').first().fill(email);
  const table = page.getByRole('table', { name: 'Beta waitlist entries' }).first();
  const row = table.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);

  // The table's visible area: its scrolling wrapper (the closest ancestor that clips it).
  const visible = await table.evaluate((element) => {
    let node = element.parentElement;
    while (node && getComputedStyle(node).overflowX === 'visible') node = node.parentElement;
    const rect = (node ?? element).getBoundingClientRect();
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  });
  const headers = table.getByRole('columnheader');
  const names = (await headers.allInnerTexts()).map((text) => text.trim());
  expect(names).toEqual(['Email', 'Artist Name', 'Music Style', 'URL', 'Submitted', 'Status', 'Actions']);
  const actions = await boxOf(headers.filter({ hasText: 'Actions' }));
  const actionsCell = await boxOf(row.getByRole('cell').last());
  for (const name of names) {
    const box = await boxOf(headers.filter({ hasText: name }));
    // In the table's visible area, whole.
    expect(box.x, `${name} starts in view`).toBeGreaterThanOrEqual(visible.x - 1);
    expect(box.x + box.width, `${name} ends in view`).toBeLessThanOrEqual(visible.x + visible.width + 1);
    if (name === 'Actions') continue;
    // Left of the Actions column, not under it.
    expect(box.x + box.width, `${name} ends before Actions`).toBeLessThanOrEqual(actions.x + 1);
  }
  const cells = row.getByRole('cell');
  for (let i = 0; i < (await cells.count()) - 1; i++) {
    expect(intersects(await boxOf(cells.nth(i)), { ...actionsCell, x: actionsCell.x + 1, width: actionsCell.width - 2 })).toBe(false);
  }
  // The row's buttons are whole and can be used.
  await expect(row.getByRole('button', { name: 'Approve' })).toBeInViewport({ ratio: 1 });
  await expect(row.getByRole('button', { name: 'Add Internal Notes' })).toBeInViewport({ ratio: 1 });
});

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
  await page.getByRole('button', { name: 'Add Contact', exact: true }).click();
  const form = page.getByRole('form', { name: 'Add New Contact' });
  await form.getByLabel('Full Name *').fill('Nia Dusk');
  await form.getByLabel('Email *').fill('nia@dusk-audio.example');
  await form.getByRole('button', { name: 'Save Contact' }).click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeInViewport();
  await expectToastClearOf(page, 'Contact added', ['Import CSV', 'Add Contact']);
});
