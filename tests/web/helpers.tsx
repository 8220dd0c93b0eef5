import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { render, screen, waitFor } from '@testing-library/react';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import type { Profile } from '../../schema/api/profile';
import { buildProfile } from '../fakes/builders';
import type { RuntimeConfig } from '../../schema/api/runtimeConfig';
import { createApiClient } from '../../web/src/api/client';
import { AuthContext } from '../../web/src/auth/AuthContext';
import type { AuthContextValue, AuthUser } from '../../web/src/auth/types';
import { ConfigContext } from '../../web/src/config/ConfigContext';
import { NotificationsProvider } from '../../web/src/notifications/NotificationsContext';
import { AppRoutes } from '../../web/src/routes';

export const localConfig: RuntimeConfig = {
  mode: 'local',
  region: 'us-east-1',
  userPoolId: 'us-east-1_localpool',
  userPoolClientId: 'localclient',
  userPoolEndpoint: 'http://127.0.0.1:9229',
  contactEmails: { support: 'support@trackpitch.example', privacy: 'privacy@trackpitch.example' },
};

export const awsConfigWithGoogle: RuntimeConfig = {
  ...localConfig,
  mode: 'aws',
  userPoolEndpoint: undefined,
  oauth: {
    domain: 'auth.trackpitch.example',
    redirectSignIn: 'https://app.trackpitch.example/',
    redirectSignOut: 'https://app.trackpitch.example/',
  },
};

export const testUser: AuthUser = { userId: 'user-1', email: 'dj@example.com', name: 'Robin Example' };

/** The test user's month-old free profile (so the tour does not auto-start). */
export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  const createdAt = new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString();
  return buildProfile({ id: testUser.userId, created_at: createdAt, email: testUser.email, full_name: testUser.name, ...overrides });
}

export type FakeAuth = AuthContextValue;

/** A fake auth context: signIn signs the test user in, signOut signs out. Override anything. */
export function makeFakeAuth(overrides: Partial<AuthContextValue> = {}): AuthContextValue {
  return {
    user: null,
    profile: null,
    profileError: null,
    isAdmin: false,
    loading: false,
    signIn: vi.fn(() => Promise.resolve({ error: null })),
    signUp: vi.fn(() => Promise.resolve({ error: null, confirmedLocally: true as const })),
    confirmSignUp: vi.fn(() => Promise.resolve({ error: null })),
    resetPassword: vi.fn(() => Promise.resolve({ error: null, localCode: '123456' })),
    confirmResetPassword: vi.fn(() => Promise.resolve({ error: null })),
    signInWithGoogle: vi.fn(() => Promise.resolve({ error: null })),
    signOut: vi.fn(async () => {}),
    refreshProfile: vi.fn(async () => {}),
    patchProfile: vi.fn(),
    api: createApiClient(() => Promise.resolve('test-token'), vi.fn()),
    ...overrides,
  };
}

/**
 * Holds the fake's user and profile in state so that signIn/signOut change what the guards see and
 * patchProfile changes what every page (the sidebar too) shows.
 */
function StatefulFakeAuth({ initial, children }: { initial: AuthContextValue; children: ReactNode }) {
  const [user, setUser] = useState(initial.user);
  const [profile, setProfile] = useState(initial.profile);
  const { patchProfile: recordPatch } = initial;
  // Stable, as the real one is.
  const patchProfile = useCallback(
    (patch: Partial<Profile>) => {
      recordPatch(patch);
      setProfile((current) => (current ? { ...current, ...patch } : current));
    },
    [recordPatch],
  );
  const value: AuthContextValue = {
    ...initial,
    user,
    profile: user ? profile : null,
    patchProfile,
    signIn: async (email, password) => {
      const result = await initial.signIn(email, password);
      if (!result.error) setUser(testUser);
      return result;
    },
    signOut: async () => {
      await initial.signOut();
      setUser(null);
    },
  };
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** Every location the router has been at since the last renderApp, in order. */
const visited: string[] = [];

function LocationProbe() {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (visited[visited.length - 1] !== here) visited.push(here);
  }, [here]);
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function currentPath(): string {
  return screen.getByTestId('location').textContent;
}

export function visitedPaths(): readonly string[] {
  return [...visited];
}

/**
 * Renders the app's routes at `path` with a fake auth context. By default signIn/signOut change the
 * fake's user; `stateful: false` keeps the context exactly as given (e.g. to see that a page does not
 * navigate by itself after signing in).
 */
export function renderApp(path: string, options: { auth?: AuthContextValue; config?: RuntimeConfig; stateful?: boolean; strict?: boolean } = {}) {
  const auth = options.auth ?? makeFakeAuth();
  visited.length = 0;
  const routes = (
    <>
      <AppRoutes />
      <LocationProbe />
    </>
  );
  const result = render(
    <ConfigContext.Provider value={options.config ?? localConfig}>
      <MemoryRouter initialEntries={[path]}>
        <NotificationsProvider>
          {options.stateful === false ? (
            <AuthContext.Provider value={auth}>{routes}</AuthContext.Provider>
          ) : (
            <StatefulFakeAuth initial={auth}>{routes}</StatefulFakeAuth>
          )}
        </NotificationsProvider>
      </MemoryRouter>
    </ConfigContext.Provider>,
    { reactStrictMode: options.strict ?? false },
  );
  return { ...result, auth };
}

/**
 * Imports every lazily loaded route module once, so the first test that renders a route does not spend
 * its findBy timeout waiting for vitest to transform the Cloudscape modules behind it.
 */
export async function preloadRoutes(): Promise<void> {
  await Promise.all([
    import('../../web/src/pages/landing/LandingPage'),
    import('../../web/src/pages/auth/AuthPage'),
    import('../../web/src/pages/legal/PrivacyPage'),
    import('../../web/src/pages/legal/TermsPage'),
    import('../../web/src/pages/unsubscribe/UnsubscribePage'),
    import('../../web/src/pages/notfound/NotFoundPage'),
    import('../../web/src/pages/admin/BetaWaitlistPage'),
    import('../../web/src/pages/dashboard/DashboardLayout'),
    import('../../web/src/pages/dashboard/DashboardHome'),
    import('../../web/src/pages/analytics/AnalyticsPage'),
    import('../../web/src/pages/contacts/ContactsPage'),
    import('../../web/src/pages/labelfinder/LabelFinderPage'),
    import('../../web/src/pages/settings/SettingsPage'),
    import('../../web/src/pages/subscription/SubscriptionPage'),
    import('../../web/src/notifications/Toasts'),
    import('../../web/src/tour/TourPopover'),
  ]);
}

/** A toast (Flashbar item) whose header is `title`. */
export async function toast(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const item = createWrapper()
      .findFlashbar()
      ?.findItems()
      .find((candidate) => candidate.findHeader()?.getElement().textContent === title);
    if (!item) throw new Error(`no toast '${title}'`);
    return item.getElement();
  });
}
