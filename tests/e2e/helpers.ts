import { expect, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';

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

/** Calls cognito-local's API as the Cognito SDK would (JSON over POST with an X-Amz-Target). */
async function cognito<T>(action: string, body: unknown): Promise<T> {
  const response = await fetch(process.env.E2E_COGNITO_ENDPOINT!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${action} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Creates a confirmed account without the UI (for tests about something else than sign-up). */
export async function createAccount(baseURL: string, user: TestUser): Promise<void> {
  await cognito('SignUp', {
    ClientId: process.env.E2E_USER_POOL_CLIENT_ID,
    Username: user.email,
    Password: user.password,
    UserAttributes: [
      { Name: 'email', Value: user.email },
      { Name: 'name', Value: user.name },
    ],
  });
  const confirmed = await fetch(`${baseURL}/local/confirm-signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email }),
  });
  expect(confirmed.status).toBe(204);
}

/** The ID token the web app sends as its bearer token. */
export async function idTokenFor(user: TestUser): Promise<string> {
  const result = await cognito<{ AuthenticationResult: { IdToken: string } }>('InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: process.env.E2E_USER_POOL_CLIENT_ID,
    AuthParameters: { USERNAME: user.email, PASSWORD: user.password },
  });
  return result.AuthenticationResult.IdToken;
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
  await signInViaUi(page, user);
  await skipTourIfShown(page);
  return user;
}
