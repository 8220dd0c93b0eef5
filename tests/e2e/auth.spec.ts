import { expect, test, type Page } from '@playwright/test';
import { PASSWORD_RULE_MESSAGE } from '../../schema/passwordRule.mjs';
import { createAccount, newUser, signInViaUi, toast, tourTakenBefore } from './helpers';

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

/** A form field by its exact label (a toast's group is named by its text, e.g. 'Login Failed Incorrect email…'). */
const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

test('a wrong password and an unknown email get the same answer: Incorrect email or password', async ({ page, baseURL }) => {
  const user = newUser();
  await createAccount(baseURL!, user);
  await page.goto('/auth');
  const emails = [user.email, newUser('nobody').email];
  for (const [index, email] of emails.entries()) {
    await field(page, 'Email').fill(email);
    await field(page, 'Password').fill('not-the-password-1');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(toast(page, 'Incorrect email or password')).toHaveCount(index + 1);
    await expect(page).toHaveURL(/\/auth$/);
  }
  await expect(toast(page, 'Login Failed')).toHaveCount(2);
});

test('a weak password is refused on sign-up with the rule shown under the field', async ({ page }) => {
  const user = newUser();
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await field(page, 'Full Name').fill(user.name);
  await field(page, 'Email').fill(user.email);
  await field(page, 'Password').fill('password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText(PASSWORD_RULE_MESSAGE)).toHaveCount(2); // the hint and the error
  await expect(page).toHaveURL(/\/auth$/);
});

test('forgot password: the local code sets a new password; the old one is refused', async ({ page, baseURL }) => {
  const user = newUser('reset');
  await createAccount(baseURL!, user);
  await tourTakenBefore(page, user);
  await page.goto('/auth');
  await field(page, 'Email').fill(user.email);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  await expect(field(page, 'Email')).toHaveValue(user.email);
  await page.getByRole('button', { name: 'Send code' }).click();

  const code = page.getByTestId('local-reset-code');
  await expect(code).toHaveText(/^\d{6}$/);
  await field(page, 'Code').fill((await code.textContent())!);
  const newPassword = 'Reset-pitch-5678';
  await field(page, 'New password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(toast(page, 'Your password has been changed. Sign in with your new password.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();

  await field(page, 'Email').fill(user.email);
  await field(page, 'Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toast(page, 'Incorrect email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  await signInViaUi(page, { ...user, password: newPassword });
  await expect(page.getByText(user.email).first()).toBeVisible();
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
