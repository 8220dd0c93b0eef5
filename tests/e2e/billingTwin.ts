import { expect, type Page } from '@playwright/test';

/** The Subscription page and the local billing twin's Checkout, as a user goes through them. */

const CHECKOUT = 'Trackpitch test checkout';

export const planBanner = (page: Page) => page.getByTestId('plan-banner');

export async function openSubscription(page: Page) {
  await page.goto('/dashboard/subscription');
  await expect(page.getByRole('heading', { name: 'Subscription', level: 1 })).toBeVisible();
  await expect(planBanner(page)).toBeVisible({ timeout: 15_000 });
}

/** On the twin's Checkout page: the test card, then Pay or Cancel. */
export async function payAtCheckout(page: Page, button: 'Pay' | 'Cancel' = 'Pay') {
  await expect(page).toHaveURL(/\/local\/billing\/checkout/);
  await expect(page.getByRole('heading', { name: CHECKOUT, level: 1 })).toBeVisible();
  if (button === 'Pay') {
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
  }
  await page.getByRole('button', { name: button, exact: true }).click();
}

/** A free user subscribes to Pro through Checkout and is back on the Subscription page on the Pro plan. */
export async function subscribeToPro(page: Page) {
  await openSubscription(page);
  await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await payAtCheckout(page);
  await expect(page).toHaveURL(/\/dashboard\/subscription$/, { timeout: 15_000 });
  await expect(planBanner(page)).toContainText("You're on the Pro plan", { timeout: 15_000 });
}
