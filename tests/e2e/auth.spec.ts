import { expect, test } from '@playwright/test';
import { createAccount, newUser, signInViaUi, tourTakenBefore } from './helpers';

test('a visitor creates an account and lands on the dashboard with a free profile', async ({ page }) => {
  const user = newUser('signup');
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByLabel('Full Name').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Skip tour' }).click(); // a new profile gets the tour
  await expect(page.getByText(user.name).first()).toBeVisible();
  await expect(page.getByText(user.email).first()).toBeVisible();
  await expect(page.getByText('Free', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Gmail not connected').first()).toBeVisible();
  await expect(page.getByText('0 / 50 sent').first()).toBeVisible();
});

test('create account needs a full name', async ({ page }) => {
  const user = newUser();
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Please enter your full name')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test('a wrong password is refused with Login Failed', async ({ page, baseURL }) => {
  const user = newUser();
  await createAccount(baseURL!, user);
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('not-the-password-1');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Login Failed')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test('a user signs out, is sent to sign-in, and signs in again', async ({ page, baseURL }) => {
  const user = newUser();
  await createAccount(baseURL!, user);
  await tourTakenBefore(page, user);
  await signInViaUi(page, user);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);

  await signInViaUi(page, user);
  await expect(page.getByText(user.email).first()).toBeVisible();
});

test('Google sign-in says it is not configured locally', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByText('Google sign-in is not configured for this environment.')).toBeVisible();
});
