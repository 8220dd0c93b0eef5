import { expect, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
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

/** The ID token the web app sends as its bearer token. */
export async function idTokenFor(user: TestUser): Promise<string> {
  const users = accountsAt(process.env.E2E_BASE_URL!);
  try {
    return (await users.signIn(user.email, user.password)).idToken;
  } finally {
    users.close();
  }
}

/** A new profile starts the tour (spec §4); tests about other things skip it. */
export async function skipTourIfShown(page: Page) {
  const skip = page.getByRole('button', { name: 'Skip tour' });
  try {
    await skip.waitFor({ state: 'visible', timeout: 5_000 });
    await skip.click();
  } catch {
    // no tour this time
  }
}

export async function signInViaUi(page: Page, user: TestUser) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Signed in with the tour skipped: the state most tests start from. */
export async function signedIn(page: Page, baseURL: string, user = newUser()) {
  await createAccount(baseURL, user);
  // The tour starts once the profile has loaded (spec §4): on a cold stack that can take longer than
  // skipTourIfShown waits, and a tour that opens later covers the page the test then clicks on.
  const profileLoaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/profile' && response.request().method() === 'GET', {
    timeout: 30_000,
  });
  await signInViaUi(page, user);
  await profileLoaded.catch(() => undefined);
  await skipTourIfShown(page);
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
