import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { activeNavHref } from '../../web/src/pages/dashboard/navigation';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { currentPath, makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser } from './helpers';

beforeAll(preloadRoutes, 60_000);

function openDashboard(path: string, overrides: Parameters<typeof makeFakeAuth>[0] = {}) {
  // An old profile and a stored flag keep the tour from opening over the shell.
  window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
  return renderApp(path, { auth: makeFakeAuth({ user: testUser, profile: makeProfile(), ...overrides }) });
}

async function sideNav() {
  await screen.findByRole('navigation', { name: 'Dashboard navigation' });
  const nav = createWrapper().findSideNavigation();
  if (!nav) throw new Error('no side navigation');
  return nav;
}

describe('active item by path prefix', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/dashboard/', '/dashboard'],
    ['/dashboard/contacts', '/dashboard/contacts'],
    ['/dashboard/campaigns/01HXYZ', '/dashboard/campaigns'],
    ['/dashboard/tracks/trk-harbour', '/dashboard/tracks'],
    ['/dashboard/subscription', '/dashboard/subscription'],
    ['/dashboardx', undefined],
  ])('%s highlights %s', (path, href) => {
    expect(activeNavHref(path)).toBe(href);
  });
});

describe('dashboard shell', () => {
  it('lists the sections in order with a divider before Settings, and highlights the current one', async () => {
    openDashboard('/dashboard/campaigns/01HXYZ');
    const nav = await sideNav();
    const links = nav.findAll('a').map((a) => a.getElement().textContent);
    expect(links).toEqual(['Trackpitch', 'Dashboard', 'Contacts', 'Compose', 'Tracks', 'Campaigns', 'LabelFinder', 'Analytics', 'Settings', 'Subscription']);
    expect(nav.findItemByIndex(8)?.findDivider()).not.toBeNull();
    expect(nav.findActiveLink()?.getElement()).toHaveTextContent('Campaigns');
    expect(screen.getByRole('link', { name: 'Campaigns' })).toHaveAttribute('aria-current', 'page');
  });

  it("describes Campaigns as 'Save and reuse email templates', next to the link and outside its name", async () => {
    openDashboard('/dashboard');
    const nav = await sideNav();
    const campaigns = screen.getByRole('link', { name: 'Campaigns' });
    expect(campaigns).toHaveAccessibleName('Campaigns');
    expect(campaigns).toHaveAttribute('href', '/dashboard/campaigns');
    const description = within(screen.getByRole('navigation', { name: 'Dashboard navigation' })).getByText('Save and reuse email templates');
    expect(campaigns).not.toContainElement(description);
    // Shown beside the Campaigns link (the SideNavigation item's info slot), for no other item.
    expect(campaigns.parentElement).toContainElement(description);
    const infos = Array.from(
      { length: 10 },
      (_, index) =>
        nav
          .findItemByIndex(index + 1)
          ?.findInfo()
          ?.getElement().textContent ?? null,
    );
    expect(infos).toEqual([null, null, null, null, 'Save and reuse email templates', null, null, null, null, null]);
  });

  it('moves between sections through the sidebar links', async () => {
    openDashboard('/dashboard');
    await sideNav();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Contacts' }));
    expect(await screen.findByRole('heading', { name: 'Contacts', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard/contacts');
    expect(screen.getByRole('link', { name: 'Contacts' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('shows the sent / limit counter, the usage bar, the tier and mailbox badges, name and email', async () => {
    openDashboard('/dashboard', { profile: makeProfile({ tier: 'pro', emails_used: 12, email_limit: 50, gmail_connected: true }) });
    await sideNav();
    const nav = screen.getByRole('navigation', { name: 'Dashboard navigation' });
    expect(within(nav).getByText('12 / 50 sent')).toBeInTheDocument();
    expect(createWrapper(nav).findProgressBar()?.findPercentageText()?.getElement()).toHaveTextContent('24%');
    expect(within(nav).getByText('Pro')).toBeInTheDocument();
    expect(within(nav).getByText('Gmail connected')).toBeInTheDocument();
    expect(within(nav).getByText(testUser.name)).toBeInTheDocument();
    expect(within(nav).getByText(testUser.email)).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Show Tour' })).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('calls the label tier Expert and shows a missing mailbox', async () => {
    openDashboard('/dashboard', { profile: makeProfile({ tier: 'label', gmail_connected: false }) });
    await sideNav();
    const nav = screen.getByRole('navigation', { name: 'Dashboard navigation' });
    expect(within(nav).getByText('Expert')).toBeInTheDocument();
    expect(within(nav).getByText('Gmail not connected')).toBeInTheDocument();
  });

  it('says so when the profile could not be loaded, and retries', async () => {
    const refreshProfile = vi.fn(async () => {});
    openDashboard('/dashboard', { profile: null, profileError: 'Request failed (500)', refreshProfile });
    await sideNav();
    const nav = screen.getByRole('navigation', { name: 'Dashboard navigation' });
    expect(within(nav).getByText('Could not load your plan')).toBeInTheDocument();
    await userEvent.setup().click(within(nav).getByRole('button', { name: 'Retry' }));
    expect(refreshProfile).toHaveBeenCalled();
  });

  it('signs out and goes to /auth', async () => {
    const { auth } = openDashboard('/dashboard');
    await sideNav();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(currentPath()).toBe('/auth'));
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it("says 'Failed to sign out' when signing out fails", async () => {
    openDashboard('/dashboard', { signOut: vi.fn(async () => Promise.reject(new Error('network'))) });
    await sideNav();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Failed to sign out')).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
  });
});
