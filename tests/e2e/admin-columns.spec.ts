import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { boxOf, intersects } from './boxes';
import { admin, signInViaUi, tourTakenBefore } from './helpers';

/** Issue 25 §5: the admin waitlist's columns at 1280 px (the desktop project's width; the phone project does not run this file). */

test('the admin waitlist at 1280 px: every column is in view, none under the sticky Actions column', async ({ page, request }) => {
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
