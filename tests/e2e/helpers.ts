import { expect, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { accounts } from '../support/accounts';

export const PASSWORD = 'Pitch-test-1234';

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

export const newUser = (prefix = 'artist'): TestUser => ({
  name: `Test ${prefix} ${randomUUID().slice(0, 6)}`,
  email: `${prefix}-${randomUUID().slice(0, 8)}@example.com`,
  password: PASSWORD,
});

export const admin = (): TestUser => ({
  name: 'Local Admin',
  email: process.env.E2E_ADMIN_EMAIL!,
  password: process.env.E2E_ADMIN_PASSWORD!,
});

/** Accounts on the browser run's stack, confirmed by the local server as the web app does. */
const accountsAt = (baseURL: string) =>
  accounts({
    cognitoEndpoint: process.env.E2E_COGNITO_ENDPOINT!,
    userPoolClientId: process.env.E2E_USER_POOL_CLIENT_ID!,
    confirm: { via: 'local-server', appUrl: baseURL },
  });

/** Creates a confirmed account without the UI (for tests about something else than sign-up). */
export async function createAccount(baseURL: string, user: TestUser): Promise<void> {
  const users = accountsAt(baseURL);
  try {
    await users.signUp(user);
    await users.confirm(user.email); // throws unless POST /local/confirm-signup answers 204
  } finally {
    users.close();
  }
}

async function signInOverApi(user: TestUser) {
  const users = accountsAt(process.env.E2E_BASE_URL!);
  try {
    return await users.signIn(user.email, user.password);
  } finally {
    users.close();
  }
}

/** The ID token the web app sends as its bearer token. */
export async function idTokenFor(user: TestUser): Promise<string> {
  return (await signInOverApi(user)).idToken;
}

/**
 * A new profile starts the tour (spec §4). Tests about other things mark it taken before the app loads,
 * as finishing it would: a tour that opened after a test had looked for it covered the page it then clicked.
 */
export async function tourTakenBefore(page: Page, user: TestUser) {
  const { idToken } = await signInOverApi(user);
  const { sub } = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  await page.addInitScript((key) => window.localStorage.setItem(key, 'true'), tourFlagKey(sub));
}

export async function signInViaUi(page: Page, user: TestUser) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Signed in with the tour taken before: the state most tests start from. */
export async function signedIn(page: Page, baseURL: string, user = newUser()) {
  await createAccount(baseURL, user);
  await tourTakenBefore(page, user);
  await signInViaUi(page, user);
  return user;
}

/** Switches Compose to `mode`: a segmented control on a desktop, a select on a phone (Cloudscape's narrow form). */
export async function chooseComposeMode(page: Page, mode: 'AI Mode' | 'HTML Mode', { phone = false } = {}) {
  if (phone) {
    await page.getByRole('button', { name: /Compose mode/ }).click();
    await page.getByRole('option', { name: mode }).click();
    return;
  }
  await page
    .getByRole('radio', { name: mode })
    .or(page.getByRole('button', { name: mode }))
    .first()
    .click();
}

/**
 * `count` directory entries that can still be added (as far as the page knows), by their card
 * checkboxes in page order, after leaving out the first `skip` of them.
 */
export async function selectEntries(page: Page, count: number, { skip = 0 } = {}) {
  const boxes = page.getByRole('checkbox', { name: /^Select (?!All$)/ });
  let seen = 0;
  let selected = 0;
  for (let i = 0; selected < count; i++) {
    const box = boxes.nth(i);
    if (await box.isDisabled()) continue;
    if (seen++ < skip) continue;
    await box.check();
    selected++;
  }
}
