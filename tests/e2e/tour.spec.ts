import { expect, test, type Page } from '@playwright/test';
import { TOUR_HIGHLIGHT_MS } from '../../web/src/tour/tourRules';
import { createAccount, newUser, signInViaUi } from './helpers';

interface Highlight {
  tag: string;
  text: string;
  /** The outline's style while highlighted, read as the attribute appeared. */
  outlineStyle: string;
  /** How long the highlight stayed (null while it still shows). */
  shownMs: number | null;
}

/** From before the app loads, records every element the tour highlights: what, how it looked, for how long. */
async function recordHighlights(page: Page) {
  await page.addInitScript(() => {
    const seen: (Highlight & { element: Element; since: number })[] = [];
    (window as unknown as { __highlights: typeof seen }).__highlights = seen;
    new MutationObserver((mutations) => {
      for (const { target } of mutations) {
        if (!(target instanceof HTMLElement)) continue;
        const open = seen.find((entry) => entry.element === target && entry.shownMs === null);
        if (target.hasAttribute('data-tour-highlight') && !open) {
          const outlineStyle = getComputedStyle(target).outlineStyle;
          seen.push({ element: target, since: performance.now(), tag: target.tagName, text: target.textContent, outlineStyle, shownMs: null });
        } else if (!target.hasAttribute('data-tour-highlight') && open) {
          open.shownMs = performance.now() - open.since;
        }
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-tour-highlight'] });
  });
}

const highlightsRecorded = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __highlights: (Highlight & { element?: Element; since?: number })[] }).__highlights.map(({ tag, text, outlineStyle, shownMs }) => ({
      tag,
      text,
      outlineStyle,
      shownMs,
    })),
  );

/** The tour as a new account meets it (spec §4): it opens by itself, points at the page, and once skipped stays away. */
test('a new account gets the tour: it highlights its anchors, Next advances, Skip ends it for good', async ({ page, baseURL, isMobile }) => {
  const user = newUser('tour');
  await createAccount(baseURL!, user);
  await recordHighlights(page);
  await signInViaUi(page, user);

  const tour = page.getByRole('dialog', { name: 'Welcome to Trackpitch' });
  await expect(tour).toBeVisible({ timeout: 30_000 });
  await expect(tour.getByText(isMobile ? 'Step 1 of 3' : 'Step 1 of 11', { exact: true })).toBeVisible();
  await expect(tour).toBeFocused();

  // The first step points at the page heading: marked, and outlined for 3 s, then the outline goes and
  // the panel stays. The outline is recorded as it comes and goes: a busy machine can take longer than
  // 3 s between two checks, and the window would be missed.
  const heading = page.getByRole('heading', { name: 'Dashboard', level: 1 });
  await expect(heading).toHaveAttribute('data-tour-anchor', 'welcome');
  await expect(heading).not.toHaveAttribute('data-tour-highlight', { timeout: 10_000 });
  const [welcomeHighlight] = await highlightsRecorded(page);
  expect(welcomeHighlight).toMatchObject({ tag: 'H1', text: 'Dashboard', outlineStyle: 'solid' });
  expect(welcomeHighlight!.shownMs).toBeGreaterThanOrEqual(TOUR_HIGHLIGHT_MS - 50);
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
