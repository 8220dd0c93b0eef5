import { expect, test, type Page } from '@playwright/test';
import { openSubscription, payAtCheckout, planBanner, subscribeToPro } from './billingTwin';
import { selectEntries, signedIn, toast } from './helpers';

/**
 * Plans and billing through the local billing twin (issue 14): its test Checkout and billing portal
 * pages emit the events Stripe would, signed, to the real webhook route, and the Subscription page syncs
 * with the twin when it loads. Webhook delivery is not instant: every check waits for what the page
 * shows (auto-retrying assertions), never for a fixed time.
 */

const PORTAL = 'Trackpitch test billing portal';
/** A date as the banner prints it: 'December 26, 2026'. */
const DATE = String.raw`[A-Z][a-z]+ \d{1,2}, \d{4}`;

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Dashboard navigation' });

/** From the Subscription page's Manage Billing to the twin's portal: `action`, then back to Trackpitch. */
async function inBillingPortal(page: Page, action: string) {
  await page.getByRole('button', { name: 'Manage Billing' }).first().click();
  await doInPortal(page, action);
}

async function doInPortal(page: Page, action: string) {
  await expect(page).toHaveURL(/\/local\/billing\/portal/);
  await expect(page.getByRole('heading', { name: PORTAL, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: action, exact: true }).click();
  await expect(page.getByRole('heading', { name: PORTAL, level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Trackpitch' }).click();
  await expect(page).toHaveURL(/\/dashboard\/subscription/);
  await expect(planBanner(page)).toBeVisible({ timeout: 15_000 });
}

test('a free user upgrades to Pro: the banner, 500 emails a month, the sidebar, and LabelFinder past 5', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await openSubscription(page);
  await expect(planBanner(page)).toContainText("You're on the Free plan");
  await expect(page.getByRole('group', { name: 'Emails Used' })).toContainText('of 50 this month');
  await expect(page.getByRole('button', { name: 'Manage Billing' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await payAtCheckout(page);

  await expect(toast(page, 'Subscription activated! Welcome to your new plan.')).toBeVisible({ timeout: 15_000 });
  // The flag leaves the URL once shown: a reload does not repeat the toast.
  await expect(page).toHaveURL(/\/dashboard\/subscription$/);
  await expect(planBanner(page)).toContainText("You're on the Pro plan", { timeout: 15_000 });
  await expect(planBanner(page)).toContainText(new RegExp(`Renews on ${DATE}`));
  await expect(planBanner(page)).toContainText('Emails remaining: 500');
  await expect(page.getByRole('group', { name: 'Emails Used' })).toContainText('of 500 this month');
  await expect(page.getByRole('region', { name: 'Pro plan' }).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Free plan' }).getByRole('button', { name: 'Cancel Subscription' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Manage Billing' })).toBeVisible();
  // The sidebar follows at once.
  await expect(sidebar(page).getByText('Pro', { exact: true })).toBeVisible();
  await expect(sidebar(page).getByText('0 / 500 sent')).toBeVisible();

  // The Pro directory allowance: six at once, more than the free five.
  await page.goto('/dashboard/labelfinder');
  await expect(page.getByText('Directory additions: 0 of 1000 used', { exact: true })).toBeVisible({ timeout: 15_000 });
  await selectEntries(page, 6);
  await page.getByRole('button', { name: 'Add Selected to Contacts' }).click();
  const summary = page.getByRole('dialog', { name: 'Contacts added' });
  await expect(summary).toContainText('6 contacts added');
  await summary.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByText('Directory additions: 6 of 1000 used', { exact: true })).toBeVisible();
});

test('leaving Checkout with Cancel: the canceled toast, and the user stays on Free', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await openSubscription(page);
  await page.getByRole('button', { name: 'Upgrade to Expert' }).click();
  await payAtCheckout(page, 'Cancel');
  await expect(toast(page, 'Subscription canceled. You can try again anytime.')).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/dashboard\/subscription$/);
  await expect(planBanner(page)).toContainText("You're on the Free plan");
});

test('Manage Billing: cancel at period end shows "Cancels on …", resume renews again, and the period end returns the user to Free', async ({
  page,
  baseURL,
}) => {
  await signedIn(page, baseURL!);
  await subscribeToPro(page);

  await inBillingPortal(page, 'Cancel at period end');
  await expect(planBanner(page)).toContainText(new RegExp(`Cancels on ${DATE}`), { timeout: 15_000 });
  await expect(planBanner(page)).toContainText("You're on the Pro plan");

  await inBillingPortal(page, 'Resume subscription');
  await expect(planBanner(page)).toContainText(new RegExp(`Renews on ${DATE}`), { timeout: 15_000 });

  await inBillingPortal(page, 'Cancel at period end');
  await expect(planBanner(page)).toContainText(/Cancels on/, { timeout: 15_000 });
  await inBillingPortal(page, 'Advance to period end');
  await expect(planBanner(page)).toContainText("You're on the Free plan", { timeout: 15_000 });
  await expect(page.getByRole('group', { name: 'Emails Used' })).toContainText('of 50 this month');
  await expect(page.getByRole('button', { name: 'Manage Billing' })).toHaveCount(0);
  await expect(sidebar(page).getByText('Free', { exact: true })).toBeVisible();
});

test('a failed renewal payment shows the payment-failed banner with Manage Billing, and the plan is kept', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await subscribeToPro(page);

  await inBillingPortal(page, 'Simulate failed renewal payment');
  const warning = page.getByTestId('payment-failed');
  await expect(warning).toContainText('Your last payment failed', { timeout: 15_000 });
  await expect(warning.getByRole('button', { name: 'Manage Billing' })).toBeEnabled();
  await expect(planBanner(page)).toContainText("You're on the Pro plan");

  // Its Manage Billing opens the portal too.
  await warning.getByRole('button', { name: 'Manage Billing' }).click();
  await expect(page.getByRole('heading', { name: PORTAL, level: 1 })).toBeVisible();
});

test('a Pro subscriber switches to Expert: Upgrade to Expert opens the billing portal, then unlimited emails', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await subscribeToPro(page);

  // One subscription per customer: the server sends a subscriber to the portal rather than a second Checkout.
  await page.getByRole('button', { name: 'Upgrade to Expert' }).click();
  await doInPortal(page, 'Switch to Expert');
  await expect(planBanner(page)).toContainText("You're on the Expert plan", { timeout: 15_000 });
  await expect(planBanner(page)).toContainText('Emails remaining: Unlimited');
  await expect(page.getByRole('group', { name: 'Emails Used' })).toContainText('of Unlimited this month');
  await expect(page.getByRole('region', { name: 'Pro plan' }).getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled();
  await expect(sidebar(page).getByText('Expert', { exact: true })).toBeVisible();
  await expect(sidebar(page).getByText('0 sent (no monthly limit)')).toBeVisible();
});
