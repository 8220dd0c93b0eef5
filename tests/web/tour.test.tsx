import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { desktopTourSteps, phoneTourSteps } from '../../web/src/tour/steps';
import type { Profile } from '../../schema/api/profile';
import { createApiClient } from '../../web/src/api/client';
import {
  placeTourPanel,
  shouldAutoStartTour,
  TOUR_ANCHOR_DELAY_MS,
  TOUR_ANCHOR_RECHECK_MS,
  TOUR_HIGHLIGHT_MS,
  tourFlagKey,
} from '../../web/src/tour/tourRules';
import { json } from './contacts-fake-server';
import { makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser } from './helpers';
import { fakeMatchMedia } from './matchMedia';
import TourPopover from '../../web/src/tour/TourPopover';

beforeAll(preloadRoutes, 60_000);

const HOUR = 3600 * 1000;
const now = Date.parse('2025-06-01T12:00:00Z');
const createdAgo = (ms: number) => new Date(now - ms).toISOString();

function memoryStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}

describe('tour auto-start rule', () => {
  it('starts for a profile created less than 24 hours ago without the flag', () => {
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: createdAgo(HOUR), now, storage: memoryStorage() })).toBe(true);
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: createdAgo(24 * HOUR - 1), now, storage: memoryStorage() })).toBe(true);
  });

  it('does not start for a profile 24 hours or older', () => {
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: createdAgo(24 * HOUR), now, storage: memoryStorage() })).toBe(false);
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: createdAgo(72 * HOUR), now, storage: memoryStorage() })).toBe(false);
  });

  it('does not start when tour_completed_{userId} is stored', () => {
    const storage = memoryStorage({ tour_completed_u1: 'true' });
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: createdAgo(HOUR), now, storage })).toBe(false);
    // The flag is per user.
    expect(shouldAutoStartTour({ userId: 'u2', profileCreatedAt: createdAgo(HOUR), now, storage })).toBe(true);
  });

  it("does not start when the profile says the tour was taken, whatever this browser's storage holds", () => {
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: createdAgo(HOUR), profileTourCompleted: true, now, storage: memoryStorage() })).toBe(false);
  });

  it('does not start for an unreadable or future creation date', () => {
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: 'not a date', now, storage: memoryStorage() })).toBe(false);
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: createdAgo(-HOUR), now, storage: memoryStorage() })).toBe(false);
  });
});

describe('tour panel placement', () => {
  const viewport = { width: 1280, height: 800 };
  const panel = { width: 360, height: 220 };

  it('goes to the right of a sidebar link, level with it', () => {
    expect(placeTourPanel({ top: 200, left: 20, width: 260, height: 24 }, panel, viewport)).toEqual({ top: 200, left: 292 });
  });

  it('goes below an anchor with no room on its right, and above one at the bottom', () => {
    expect(placeTourPanel({ top: 100, left: 1000, width: 260, height: 40 }, panel, viewport)).toEqual({ top: 152, left: 908 });
    expect(placeTourPanel({ top: 700, left: 1000, width: 260, height: 40 }, panel, viewport)).toEqual({ top: 468, left: 908 });
  });

  it('goes to the bottom-right corner for an anchor too big for any side, or none', () => {
    const corner = { top: 800 - 220 - 12, left: 1280 - 360 - 12 };
    expect(placeTourPanel({ top: 60, left: 300, width: 980, height: 740 }, panel, viewport)).toEqual(corner);
    expect(placeTourPanel(null, panel, viewport)).toEqual(corner);
  });
});

/** The dashboard for the test user's profile created at `createdAt`; `server` answers its requests (the tour's PATCH). */
function renderDashboard(createdAt: string, overrides: Partial<Profile> = {}, server: typeof fetch = vi.fn<typeof fetch>()) {
  return renderApp('/dashboard', {
    auth: makeFakeAuth({
      user: testUser,
      profile: makeProfile({ created_at: createdAt, ...overrides }),
      api: createApiClient(() => Promise.resolve('user-id-token'), server),
    }),
  });
}

const newProfile = () => new Date(Date.now() - HOUR).toISOString();
const tour = () => screen.queryByRole('dialog', { name: /./ });
const flag = () => window.localStorage.getItem(tourFlagKey(testUser.userId));
const anchored = () => document.querySelector('[data-tour-anchor]');
const highlighted = () => document.querySelectorAll('[data-tour-highlight]');
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

/** The dashboard with the tour open on its first step. */
async function openedTour(createdAt = newProfile()) {
  renderDashboard(createdAt);
  const panel = await screen.findByRole('dialog', { name: desktopTourSteps[0].title });
  return { panel, user: userEvent.setup() };
}

/** The anchor of step `id`, once the tour has marked it. */
const anchorOf = (id: string) =>
  waitFor(() => document.querySelector<HTMLElement>(`[data-tour-anchor="${id}"]`) ?? Promise.reject(new Error(`no anchor for ${id}`)));

describe('tour in the dashboard', () => {
  it("opens by itself for a new profile, with focus in it, and marks the first step's anchor", async () => {
    const { panel } = await openedTour();
    expect(panel).toHaveFocus();
    expect(panel).toHaveTextContent(`Step 1 of ${desktopTourSteps.length}`);
    expect(panel).toHaveAccessibleDescription(desktopTourSteps[0].body);
    expect(await anchorOf('welcome')).toBe(screen.getByRole('heading', { name: 'Dashboard', level: 1 }));
  });

  it("marks each step's anchor 100 ms after the step shows and outlines it for 3 s", async () => {
    await openedTour();
    const heading = await anchorOf('welcome');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(tour()).toHaveAccessibleName(desktopTourSteps[1]!.title);
    // The previous step's marks go with it.
    expect(heading).not.toHaveAttribute('data-tour-anchor');
    expect(heading).not.toHaveAttribute('data-tour-highlight');

    await advance(TOUR_ANCHOR_DELAY_MS - 1);
    expect(anchored()).toBeNull();
    await advance(1);
    const main = document.querySelector('main [data-tour-area="content"]');
    expect(main).toHaveAttribute('data-tour-anchor', 'overview');
    expect(main).toHaveAttribute('data-tour-highlight');

    await advance(TOUR_HIGHLIGHT_MS - 1);
    expect(main).toHaveAttribute('data-tour-highlight');
    await advance(1);
    expect(main).not.toHaveAttribute('data-tour-highlight');
    expect(main).toHaveAttribute('data-tour-anchor', 'overview');
  });

  it('points every desktop step at something on the dashboard: the main area, the sidebar items, the account block', async () => {
    const { user } = await openedTour();
    const anchors: (string | null)[] = [];
    for (const [index, step] of desktopTourSteps.entries()) {
      expect(tour()).toHaveAccessibleName(step.title);
      const anchor = await anchorOf(step.id);
      // Only the current step's anchor is marked.
      expect(document.querySelectorAll('[data-tour-anchor]')).toHaveLength(1);
      anchors.push(anchor.getAttribute('href') ?? anchor.getAttribute('data-tour-area') ?? anchor.tagName);
      if (index < desktopTourSteps.length - 1) await user.click(screen.getByRole('button', { name: 'Next' }));
    }
    expect(anchors).toEqual([
      'H1',
      'content',
      '/dashboard/contacts',
      '/dashboard/compose',
      '/dashboard/tracks',
      '/dashboard/campaigns',
      '/dashboard/labelfinder',
      '/dashboard/analytics',
      '/dashboard/settings',
      '/dashboard/subscription',
      'account',
    ]);
    expect(document.querySelector('[data-tour-anchor="account"]')).toContainElement(screen.getByRole('button', { name: 'Show Tour' }));
  });

  it('Next and Back move between steps; Skip tour ends it, stores the flag and leaves nothing behind', async () => {
    const { user } = await openedTour();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(tour()).toHaveAccessibleName(desktopTourSteps[1]!.title);
    expect(tour()).toHaveTextContent(`Step 2 of ${desktopTourSteps.length}`);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(tour()).toHaveAccessibleName(desktopTourSteps[0].title);
    await anchorOf('welcome');
    expect(highlighted()).toHaveLength(1);
    expect(flag()).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Skip tour' }));
    expect(tour()).toBeNull();
    expect(flag()).toBe('true');
    expect(anchored()).toBeNull();
    expect(highlighted()).toHaveLength(0);
  });

  it('Finish on the last step stores the flag', async () => {
    const { user } = await openedTour();
    for (let i = 1; i < desktopTourSteps.length; i++) await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
    expect(flag()).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(tour()).toBeNull();
    expect(flag()).toBe('true');
  });

  it('works from the keyboard: Enter on the panel advances, focus stays in it, Escape skips', async () => {
    const { user } = await openedTour();
    await user.keyboard('{Enter}');
    expect(tour()).toHaveAccessibleName(desktopTourSteps[1]!.title);
    expect(tour()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(tour()).toHaveAccessibleName(desktopTourSteps[2]!.title);
    // Tab reaches the buttons; Enter on Back presses Back, not Next.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Skip tour' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Back' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(tour()).toHaveAccessibleName(desktopTourSteps[1]!.title);

    await user.keyboard('{Escape}');
    expect(tour()).toBeNull();
    expect(flag()).toBe('true');
  });

  it('does not open by itself for an older profile; Show Tour opens it once a page session and focus returns to it', async () => {
    renderDashboard(new Date(Date.now() - 48 * HOUR).toISOString());
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(tour()).toBeNull();

    const user = userEvent.setup();
    const showTour = screen.getByRole('button', { name: 'Show Tour' });
    await user.click(showTour);
    expect(await screen.findByRole('dialog', { name: desktopTourSteps[0].title })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Skip tour' }));
    expect(tour()).toBeNull();
    expect(showTour).toHaveFocus();

    // Once per page session: the button is now disabled and says why.
    expect(showTour).toHaveAttribute('aria-disabled', 'true');
    await user.click(showTour);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(tour()).toBeNull();
  });

  it('does not open by itself when the flag is stored', async () => {
    window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
    renderDashboard(newProfile());
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(tour()).toBeNull();
  });

  it('on a phone, leaves out the sidebar items (a closed drawer) and points at the menu button instead', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(fakeMatchMedia((query) => query.includes('max-width')));
    renderDashboard(newProfile());
    const user = userEvent.setup();
    expect(await screen.findByRole('dialog', { name: phoneTourSteps[0].title })).toHaveTextContent(`Step 1 of ${phoneTourSteps.length}`);
    for (let i = 1; i < phoneTourSteps.length; i++) await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await anchorOf('menu')).toBe(screen.getAllByRole('button', { name: 'Open navigation' })[0]);
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(flag()).toBe('true'));
  });
});

describe('the tour and the greeting, from the profile', () => {
  const greeting = () => screen.getByText(/^Welcome(, | back)/);

  /** A server that stores what PATCH /api/profile sends, as the real one does, and records the bodies. */
  function profileServer() {
    const patches: unknown[] = [];
    const server = vi.fn<typeof fetch>((input, init) => {
      const path = new URL(input as string, 'http://localhost').pathname;
      if (path !== '/api/profile' || init?.method !== 'PATCH') return Promise.resolve(json({ message: 'Not Found' }, 404));
      const body: unknown = JSON.parse(init.body as string);
      patches.push(body);
      return Promise.resolve(json(makeProfile({ created_at: newProfile(), ...(body as Partial<Profile>) })));
    });
    return { server, patches };
  }

  it("greets a new profile 'Welcome, Robin.' for the whole visit, the tour skipped or not; the next visit says 'Welcome back, Robin.'", async () => {
    const { user } = await openedTour();
    expect(greeting()).toHaveTextContent('Welcome, Robin.');
    await user.click(screen.getByRole('button', { name: 'Skip tour' }));
    expect(greeting()).toHaveTextContent('Welcome, Robin.');
    cleanup();

    renderDashboard(newProfile());
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    expect(greeting()).toHaveTextContent('Welcome back, Robin.');
  });

  it("says 'Welcome back, Robin.' to an older profile", async () => {
    renderDashboard(new Date(Date.now() - 48 * HOUR).toISOString());
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    expect(greeting()).toHaveTextContent('Welcome back, Robin.');
  });

  it("does not open by itself, and says 'Welcome back', when the profile says the tour was taken (in another browser)", async () => {
    renderDashboard(newProfile(), { tour_completed: true });
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(tour()).toBeNull();
    expect(greeting()).toHaveTextContent('Welcome back, Robin.');
    expect(flag()).toBeNull();
  });

  it('Skip tour and Finish store the flag on the profile: PATCH /api/profile { tour_completed: true }', async () => {
    const { server, patches } = profileServer();
    renderDashboard(newProfile(), {}, server);
    const user = userEvent.setup();
    await screen.findByRole('dialog', { name: desktopTourSteps[0].title });
    expect(patches).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Skip tour' }));
    await waitFor(() => expect(patches).toEqual([{ tour_completed: true }]));

    // Finishing a tour started by hand says the same (the flag is already true: the server keeps it).
    await user.click(screen.getByRole('button', { name: 'Show Tour' }));
    await screen.findByRole('dialog', { name: desktopTourSteps[0].title });
    for (let i = 1; i < desktopTourSteps.length; i++) await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(patches).toEqual([{ tour_completed: true }, { tour_completed: true }]));
  });
});

describe('tour anchor on a page still loading', () => {
  it('marks the anchor once it appears, and again when the page replaces it; the outline keeps to its 3 s from the first mark', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
    render(<TourPopover phone={false} step={0} onStep={() => {}} onEnd={() => {}} />);
    await advance(TOUR_ANCHOR_DELAY_MS + 500);
    expect(anchored()).toBeNull();

    // The page's chunk arrives late: its heading is marked and outlined.
    const page = (heading: string) => {
      const main = document.createElement('main');
      main.innerHTML = `<h1>${heading}</h1>`;
      document.body.append(main);
      return main;
    };
    const first = page('Dashboard');
    await advance(TOUR_ANCHOR_RECHECK_MS);
    const heading = first.querySelector('h1')!;
    expect(heading).toHaveAttribute('data-tour-anchor', 'welcome');
    expect(heading).toHaveAttribute('data-tour-highlight');

    // Re-rendered: the new heading takes the mark and the rest of the outline's time.
    await advance(1000);
    first.remove();
    const second = page('Dashboard').querySelector('h1')!;
    await advance(TOUR_ANCHOR_RECHECK_MS);
    expect(second).toHaveAttribute('data-tour-anchor', 'welcome');
    expect(second).toHaveAttribute('data-tour-highlight');
    await advance(TOUR_HIGHLIGHT_MS - 1000 - TOUR_ANCHOR_RECHECK_MS - 1);
    expect(second).toHaveAttribute('data-tour-highlight');
    await advance(1);
    expect(second).not.toHaveAttribute('data-tour-highlight');
    expect(second).toHaveAttribute('data-tour-anchor', 'welcome');
    second.closest('main')!.remove();
  });
});
