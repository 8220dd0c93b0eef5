import { expect, test } from '@playwright/test';
import { selectEntries, signedIn } from './helpers';

const FREE_LIMIT_REACHED = "You've reached the free limit (5 contacts). Upgrade to Premium to access all 743+ industry contacts!";

test('a free user bulk-adds up to the free limit, is refused beyond it and is offered the upgrade', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard/labelfinder');
  await expect(page.getByRole('heading', { name: 'LabelFinder', level: 1 })).toBeVisible();
  await expect(page.getByText('Directory additions: 0 of 5 used', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Featured Contacts/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /All Contacts/ })).toBeVisible();

  // Six is more than the five the free tier allows: refused before anything is added.
  await selectEntries(page, 6);
  await expect(page.getByText('6 selected', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add Selected to Contacts' }).click();
  await expect(page.getByText('You can only add 5 more contacts. Please select fewer contacts or upgrade to Premium.')).toBeVisible();
  await expect(page.getByText('Directory additions: 0 of 5 used', { exact: true })).toBeVisible();

  // Five fit: the progress dialog, then the summary.
  await page
    .getByRole('checkbox', { name: /^Select (?!All$)/, checked: true })
    .first()
    .uncheck();
  await expect(page.getByText('5 selected', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add Selected to Contacts' }).click();
  const summary = page.getByRole('dialog', { name: 'Contacts added' });
  await expect(summary).toBeVisible();
  await expect(summary).toContainText('5 contacts added');
  await summary.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByText('Directory additions: 5 of 5 used', { exact: true })).toBeVisible();

  // At the limit, one more is refused with the free-limit text and an Upgrade action to the plans.
  await selectEntries(page, 1);
  await page.getByRole('button', { name: 'Add Selected to Contacts' }).click();
  const freeLimit = page.getByRole('listitem').filter({ hasText: FREE_LIMIT_REACHED });
  await expect(freeLimit).toBeVisible();
  await freeLimit.getByRole('link', { name: 'Upgrade', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/subscription$/);

  // The five are the user's contacts now.
  await page.goto('/dashboard/contacts');
  await expect(page.getByRole('tab', { name: 'Contacts (5)' })).toBeVisible();
});

test('two tabs: the server refuses an add the other tab used the allowance for, shown as the free-limit toast with Upgrade', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  const first = page;
  await first.goto('/dashboard/labelfinder');
  await expect(first.getByText('Directory additions: 0 of 5 used', { exact: true })).toBeVisible();

  // A second tab of the same browser (same session, same user) uses the whole free allowance.
  const second = await first.context().newPage();
  await second.goto('/dashboard/labelfinder');
  await expect(second.getByText('Directory additions: 0 of 5 used', { exact: true })).toBeVisible();
  await selectEntries(second, 5);
  await second.getByRole('button', { name: 'Add Selected to Contacts' }).click();
  const summary = second.getByRole('dialog', { name: 'Contacts added' });
  await expect(summary).toContainText('5 contacts added');
  await expect(second.getByText('Directory additions: 5 of 5 used', { exact: true })).toBeVisible();

  // The first tab still shows 0 of 5, so its own check lets an entry the other tab did not add through:
  // the server is the one to refuse it.
  await first.bringToFront();
  await expect(first.getByText('Directory additions: 0 of 5 used', { exact: true })).toBeVisible();
  await selectEntries(first, 1, { skip: 5 });
  await expect(first.getByText('1 selected', { exact: true })).toBeVisible();
  const answer = first.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/directory/contacts');
  await first.getByRole('button', { name: 'Add Selected to Contacts' }).click();
  expect((await answer).status()).toBe(403);

  const refusal = first.getByRole('listitem').filter({ hasText: FREE_LIMIT_REACHED });
  await expect(refusal).toBeVisible();
  await expect(refusal.getByRole('link', { name: 'Upgrade', exact: true })).toHaveAttribute('href', '/dashboard/subscription');
  // The page then reads the real allowance.
  await expect(first.getByText('Directory additions: 5 of 5 used', { exact: true })).toBeVisible();
});
