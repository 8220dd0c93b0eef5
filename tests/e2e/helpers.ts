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

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/**
 * A new profile starts the tour (spec §4). Tests about other things mark it taken before the app loads,
 * as finishing it would: a tour that opened after a test had looked for it covered the page it then clicked.
 */
export async function tourTakenBefore(page: Page, user: TestUser) {
  const { idToken } = await signInOverApi(user);
  await page.addInitScript((key) => window.localStorage.setItem(key, 'true'), tourFlagKey(String(claimsOf(idToken).sub)));
}

export async function signInViaUi(page: Page, user: TestUser) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Signed in with the tour taken before: the state most tests start from. The tokens come from cognito-local
 * over its API and go where Amplify keeps a signed-in session (its localStorage keys), so the test opens
 * the dashboard directly: the sign-in form has its own tests (auth.spec.ts), and skipping it here saves
 * a page load and the browser's SRP work in every other test.
 */
export async function signedIn(page: Page, baseURL: string, user = newUser()) {
  await createAccount(baseURL, user);
  return signedInAs(page, user);
}

/** As signedIn, for an account that exists already (made once for several tests). */
export async function signedInAs(page: Page, user: TestUser) {
  const tokens = await signInOverApi(user);
  const username = String(claimsOf(tokens.accessToken).username ?? claimsOf(tokens.accessToken).sub);
  const prefix = `CognitoIdentityServiceProvider.${process.env.E2E_USER_POOL_CLIENT_ID!}`;
  const stored: Record<string, string> = {
    [`${prefix}.LastAuthUser`]: username,
    [`${prefix}.${username}.idToken`]: tokens.idToken,
    [`${prefix}.${username}.accessToken`]: tokens.accessToken,
    [`${prefix}.${username}.refreshToken`]: tokens.refreshToken,
    [`${prefix}.${username}.clockDrift`]: '0',
    [tourFlagKey(String(claimsOf(tokens.idToken).sub))]: 'true',
  };
  // Only into a fresh page: a test that signs out must not be signed back in by its next navigation.
  await page.addInitScript((entries) => {
    if (window.sessionStorage.getItem('e2e-signed-in')) return;
    window.sessionStorage.setItem('e2e-signed-in', '1');
    for (const [key, value] of Object.entries(entries)) window.localStorage.setItem(key, value);
  }, stored);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  return user;
}

/**
 * A toast: the Flashbar's item with `text`. Found as a list item because the Flashbar's aria-live announcer
 * repeats a new message for screen readers for a moment, and the text alone then matches twice.
 */
export const toast = (page: Page, text: string) => page.getByRole('listitem').filter({ hasText: text });

/** On the Contacts page: 'Add Contact', the form filled with a name and an address, 'Save Contact'. */
export async function addContactByForm(page: Page, contact: { name: string; email: string }) {
  await page.getByRole('button', { name: 'Add Contact', exact: true }).click();
  const form = page.getByRole('form', { name: 'Add New Contact' });
  await form.getByLabel('Full Name *').fill(contact.name);
  await form.getByLabel('Email *').fill(contact.email);
  await form.getByRole('button', { name: 'Save Contact' }).click();
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
 * Compose's track details as an artist types them: the name, the track (a streaming link, or a track
 * uploaded before and chosen in 'My tracks'), genre Techno, and a description.
 */
export async function fillTrackDetails(page: Page, track: { name: string; url?: string; uploaded?: RegExp; description?: string }) {
  await page.getByLabel('Track Name *').fill(track.name);
  if (track.url) await page.getByLabel('Track URL *').fill(track.url);
  if (track.uploaded) {
    await page.getByRole('button', { name: 'My tracks' }).click();
    const picker = page.getByRole('dialog', { name: 'My tracks' });
    await picker.getByRole('radio', { name: track.uploaded }).check();
    await picker.getByRole('button', { name: 'Use track' }).click();
  }
  await page.getByRole('button', { name: /Genre \*/ }).click();
  await page.getByRole('option', { name: 'Techno', exact: true }).click();
  await page.getByLabel('Track Description *').fill(track.description ?? 'A rolling, hypnotic warehouse cut with a slow-building acid line.');
}

/** 'Select All' (checking how many were selected, when given), then the AI preview of the first recipient. */
export async function previewForAll(page: Page, { selected, timeout }: { selected?: number; timeout?: number } = {}) {
  await page.getByRole('button', { name: 'Select All', exact: true }).click();
  if (selected !== undefined) await expect(page.getByText(`${selected} contacts match your filters (${selected} selected)`)).toBeVisible();
  await page.getByRole('button', { name: 'Generate Email Preview' }).click();
  await expect(page.getByText('[CONTACT_NAME]').first()).toBeVisible(timeout === undefined ? {} : { timeout });
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
