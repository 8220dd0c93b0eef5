import { screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { afterSignInPath } from '../../web/src/auth/guards';
import { currentPath, visitedPaths, localConfig, makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser } from './helpers';

beforeAll(preloadRoutes, 60_000);

const signedIn = (overrides = {}) => makeFakeAuth({ user: testUser, profile: makeProfile(), ...overrides });

describe('route guards', () => {
  it.each(['/dashboard', '/dashboard/contacts', '/dashboard/campaigns/abc', '/admin/beta-waitlist'])(
    'sends a signed-out visitor from %s to /auth',
    async (path) => {
      renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
      expect(currentPath()).toBe('/auth');
    },
  );

  it.each(['/', '/auth'])('sends a signed-in user from %s to /dashboard', async (path) => {
    renderApp(path, { auth: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Dashboard', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
  });

  it('shows a full-screen spinner and does not redirect while auth is loading', async () => {
    renderApp('/dashboard', { auth: makeFakeAuth({ loading: true }) });
    expect(await screen.findByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
  });

  it('shows the landing page to a visitor, with Login going to /auth', async () => {
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Get your tracks heard' })).toBeInTheDocument();
    expect(screen.getByText('Trackpitch')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(currentPath()).toBe('/auth'));
  });

  it('returns a signed-in user to the admin page they first asked for', async () => {
    renderApp('/admin/beta-waitlist', { auth: makeFakeAuth({ isAdmin: true }) });
    await screen.findByRole('heading', { name: 'Sign In' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Beta Waitlist Management' })).toBeInTheDocument();
    expect(currentPath()).toBe('/admin/beta-waitlist');
  });

  it('leaves /auth only through the guard: the page itself does not navigate after signing in', async () => {
    // A context whose signIn succeeds but whose user never changes: the guard sees no user, so /auth stays.
    const auth = makeFakeAuth();
    renderApp('/auth', { auth, stateful: false });
    await screen.findByRole('heading', { name: 'Sign In' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(auth.signIn).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' })).not.toHaveAttribute('aria-disabled'));
    expect(visitedPaths()).toEqual(['/auth']);
    expect(screen.getByLabelText('Email')).toHaveValue('dj@example.com');
  });

  it('returns a signed-in user to the page they first asked for', async () => {
    renderApp('/dashboard/compose');
    await screen.findByRole('heading', { name: 'Sign In' });
    // Sign in through the form: the fake signs the test user in.
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Compose Campaign' })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard/compose');
  });
});

describe('post-sign-in target', () => {
  it.each([
    [{ from: '/dashboard/compose' }, '/dashboard/compose'],
    [{ from: '/dashboard' }, '/dashboard'],
    [{ from: '/dashboard/campaigns/01H?tab=sent#top' }, '/dashboard/campaigns/01H?tab=sent#top'],
    [{ from: '/admin/beta-waitlist' }, '/admin/beta-waitlist'],
    [{ from: '/admin/other' }, '/dashboard'],
    [{ from: '/dashboardx' }, '/dashboard'],
    [{ from: 'https://evil.example/dashboard' }, '/dashboard'],
    [{ from: '//evil.example/dashboard' }, '/dashboard'],
    [{ from: 42 }, '/dashboard'],
    [null, '/dashboard'],
    [undefined, '/dashboard'],
  ])('state %j goes to %s', (state, target) => {
    expect(afterSignInPath(state)).toBe(target);
  });
});

describe('dashboard routes', () => {
  it('redirects an unknown dashboard path to /dashboard', async () => {
    renderApp('/dashboard/does-not-exist', { auth: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Dashboard', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
  });

  it('/dashboard/analytics is the Analytics page with its period and Export (tests/web/analytics-page.test.tsx has the rest)', async () => {
    renderApp('/dashboard/analytics', { auth: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Analytics', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
    expect(screen.queryByText('This page is coming in a later release.')).toBeNull();
    expect(currentPath()).toBe('/dashboard/analytics');
  });

  it('shows the real profile facts on the dashboard home, and the limit notice for a free plan at its limit', async () => {
    renderApp('/dashboard', { auth: signedIn({ profile: makeProfile({ emails_used: 50, email_limit: 50 }) }) });
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    const home = createWrapper().findContentLayout()!.getElement();
    expect(home).toHaveTextContent('Current Plan');
    expect(home).toHaveTextContent('Free');
    expect(home).toHaveTextContent('Emails Remaining0');
    expect(screen.getByText('Email Limit Reached')).toBeInTheDocument();
    // Its Upgrade leads to the plans.
    await userEvent.setup().click(screen.getByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByRole('heading', { name: 'Subscription', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard/subscription');
  });
});

describe('public pages', () => {
  it('shows the 404 page with a Return to Home link', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByText('Oops! Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  it('says the unsubscribe link is invalid without a token', async () => {
    renderApp('/unsubscribe');
    expect(await screen.findByText('Invalid unsubscribe link')).toBeInTheDocument();
  });

  it('shows the confirm form for an unsubscribe link with a token (public: no sign-in)', async () => {
    const fetchImpl = vi.fn<typeof fetch>(() =>
      Promise.resolve(
        new Response(JSON.stringify({ artistName: 'DJ Nova', alreadyUnsubscribed: false }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
      ),
    );
    vi.stubGlobal('fetch', fetchImpl);
    try {
      renderApp('/unsubscribe?token=abc');
      expect(await screen.findByRole('heading', { name: 'Unsubscribe from DJ Nova' })).toBeInTheDocument();
      expect(screen.queryByText('Invalid unsubscribe link')).not.toBeInTheDocument();
      expect(currentPath()).toBe('/unsubscribe?token=abc');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows the landing page on /landing even to a signed-in user', async () => {
    renderApp('/landing', { auth: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Get your tracks heard' })).toBeInTheDocument();
    expect(currentPath()).toBe('/landing');
  });

  it('has a Privacy Policy with the legal facts, the contact addresses and Back to Home', async () => {
    renderApp('/privacy');
    const heading = await screen.findByRole('heading', { name: 'Privacy Policy', level: 1 });
    const text = document.body.textContent;
    for (const fact of ['13', '18', '2 years', '1 year', 'within 30 days', 'within 72 hours', 'after 6 months']) {
      expect(text).toContain(fact);
    }
    expect(screen.getAllByRole('link', { name: localConfig.contactEmails.privacy }).length).toBeGreaterThan(0);
    expect(heading).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back to Home' }));
    await waitFor(() => expect(currentPath()).toBe('/'));
  });

  it('has Terms of Service with the legal facts and Back to Home', async () => {
    renderApp('/terms');
    await screen.findByRole('heading', { name: 'Terms of Service', level: 1 });
    const text = document.body.textContent;
    for (const fact of [
      'at least 13',
      'under 18',
      "30 days' notice",
      '30-day money-back guarantee',
      'after 6 months',
      '24-48 hours',
      '12 months or more',
      'in the 12 months before the claim',
    ]) {
      expect(text).toContain(fact);
    }
    expect(screen.getAllByRole('link', { name: localConfig.contactEmails.support }).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Back to Home' })).toBeInTheDocument();
  });
});

describe('admin route', () => {
  it.each(['/admin', '/admin/', '/admin/users', '/admin/beta-waitlist/extra'])(
    'shows the 404 page on %s to a signed-out visitor, without asking to sign in',
    async (path) => {
      renderApp(path);
      expect(await screen.findByText('Oops! Page not found')).toBeInTheDocument();
      expect(currentPath()).toBe(path);
    },
  );

  it('shows the 404 page on an unknown /admin path to a signed-in admin too', async () => {
    renderApp('/admin/users', { auth: signedIn({ isAdmin: true }) });
    expect(await screen.findByText('Oops! Page not found')).toBeInTheDocument();
    expect(currentPath()).toBe('/admin/users');
  });

  it('refuses a signed-in user who is not an admin', async () => {
    renderApp('/admin/beta-waitlist', { auth: signedIn({ isAdmin: false }) });
    expect(await screen.findByRole('heading', { name: 'Not authorised' })).toBeInTheDocument();
    expect(screen.queryByText('Beta Waitlist Management')).not.toBeInTheDocument();
  });

  it('shows an admin the waitlist page', async () => {
    renderApp('/admin/beta-waitlist', { auth: signedIn({ isAdmin: true }) });
    expect(await screen.findByRole('heading', { name: 'Beta Waitlist Management' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Export as CSV' })).toBeInTheDocument();
  });
});

describe('document titles', () => {
  it.each([
    ['/privacy', {}, 'Privacy Policy · Trackpitch'],
    ['/terms', {}, 'Terms of Service · Trackpitch'],
    ['/auth', {}, 'Sign In · Trackpitch'],
    ['/unsubscribe?token=abc', {}, 'Unsubscribe · Trackpitch'],
    ['/no/such/page', {}, 'Page not found · Trackpitch'],
    ['/dashboard', { signedIn: true }, 'Dashboard · Trackpitch'],
    ['/dashboard/contacts', { signedIn: true }, 'Contacts · Trackpitch'],
    ['/dashboard/tracks', { signedIn: true }, 'Tracks · Trackpitch'],
    ['/admin/beta-waitlist', { signedIn: true, admin: true }, 'Beta Waitlist Management · Trackpitch'],
    ['/admin/beta-waitlist', { signedIn: true }, 'Not authorised · Trackpitch'],
  ] as const)('%s sets the tab title (%j)', async (path, who, title) => {
    const options = 'signedIn' in who ? { auth: signedIn({ isAdmin: 'admin' in who }) } : {};
    const { unmount } = renderApp(path, options);
    await waitFor(() => expect(document.title).toBe(title));
    unmount();
    expect(document.title).toBe('Trackpitch');
  });

  it('follows the auth page mode: Create Account', async () => {
    renderApp('/auth');
    await screen.findByRole('heading', { name: 'Sign In' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Create Account' }));
    expect(document.title).toBe('Create Account · Trackpitch');
  });
});
