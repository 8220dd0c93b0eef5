import { expect, test, type Page } from '@playwright/test';
import { addContactByForm, chooseComposeMode, signedIn } from './helpers';

/** Runs in the phone project (360 px): the page fits the screen's width, nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test('Contacts on a phone: filters folded, a contact added from the form, no sideways scroll', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard/contacts');
  await expect(page.getByText('No contacts yet')).toBeVisible();
  await addContactByForm(page, { name: 'Nia Dusk', email: 'nia@dusk-audio.example' });
  await expect(page.getByText('nia@dusk-audio.example')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'false');
  await expectNoSidewaysScroll(page);
});

test('LabelFinder on a phone: one card per row, filters folded, no sideways scroll', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard/labelfinder');
  await expect(page.getByRole('heading', { name: /All Contacts/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'false');
  // Cards stack: the second card's checkbox is below the first, not beside it.
  const boxes = page.getByRole('checkbox', { name: /^Select (?!All$)/ });
  const [first, second] = [await boxes.nth(0).boundingBox(), await boxes.nth(1).boundingBox()];
  expect(second!.x).toBeCloseTo(first!.x, 0);
  expect(second!.y).toBeGreaterThan(first!.y);
  await expectNoSidewaysScroll(page);
});

test('Compose on a phone: one column, both modes fit the screen', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard/compose');
  await expect(page.getByRole('heading', { name: 'Compose Campaign', level: 1 })).toBeVisible();
  await expect(page.getByText('No contacts found')).toBeVisible();
  // The track form sits above the templates: one column.
  const track = await page.getByLabel('Track Name *').boundingBox();
  const templates = await page.getByRole('heading', { name: 'Campaign Templates' }).boundingBox();
  expect(templates!.y).toBeGreaterThan(track!.y);
  await expectNoSidewaysScroll(page);
  await chooseComposeMode(page, 'HTML Mode', { phone: true });
  await expect(page.getByRole('radio', { name: /Minimal/ })).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test('Subscription on a phone: the plan cards stack, their buttons fit, no sideways scroll', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard/subscription');
  await expect(page.getByTestId('plan-banner')).toBeVisible({ timeout: 15_000 });
  const [free, pro, expert] = [
    await page.getByRole('region', { name: 'Free plan' }).boundingBox(),
    await page.getByRole('region', { name: 'Pro plan' }).boundingBox(),
    await page.getByRole('region', { name: 'Expert plan' }).boundingBox(),
  ];
  expect(pro!.x).toBeCloseTo(free!.x, 0);
  expect(pro!.y).toBeGreaterThan(free!.y);
  expect(expert!.y).toBeGreaterThan(pro!.y);
  await page.getByRole('button', { name: 'Upgrade to Pro' }).scrollIntoViewIfNeeded();
  await expect(page.getByRole('button', { name: 'Upgrade to Pro' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
});

test('Dashboard home on a phone: the stat cards two a row, no sideways scroll', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const card = (label: string) => page.getByRole('group', { name: label, exact: true }).boundingBox();
  const [contacts, sent, remaining] = [await card('Total Contacts'), await card('Emails Sent'), await card('Emails Remaining')];
  expect(sent!.y).toBeCloseTo(contacts!.y, 0);
  expect(remaining!.y).toBeGreaterThan(contacts!.y);
  await expect(page.getByText('No emails sent yet').first()).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test('Analytics on a phone: the period select and Export fit, no sideways scroll', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard/analytics');
  await expect(page.getByTestId('analytics-empty')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export' })).toBeInViewport();
  await expect(page.getByTestId('analytics-period')).toBeInViewport();
  await expectNoSidewaysScroll(page);
});
