import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { tourSteps } from '../../web/src/tour/steps';
import { shouldAutoStartTour, tourFlagKey } from '../../web/src/tour/tourRules';
import { makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser } from './helpers';

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
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: createdAgo(23.9 * HOUR), now, storage: memoryStorage() })).toBe(true);
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

  it('does not start for an unreadable or future creation date', () => {
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: 'not a date', now, storage: memoryStorage() })).toBe(false);
    expect(shouldAutoStartTour({ userId: 'u1', profileCreatedAt: createdAgo(-HOUR), now, storage: memoryStorage() })).toBe(false);
  });
});

function renderDashboard(createdAt: string) {
  return renderApp('/dashboard', {
    auth: makeFakeAuth({ user: testUser, profile: makeProfile({ created_at: createdAt }) }),
  });
}

const tourDialog = () => createWrapper().findModal();

describe('tour in the dashboard', () => {
  it('opens by itself for a new profile; Next and Back move between steps; Skip tour stores the flag', async () => {
    renderDashboard(new Date(Date.now() - HOUR).toISOString());
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(tourDialog()!.findHeader().getElement()).toHaveTextContent(tourSteps[0].title);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(tourDialog()!.findHeader().getElement()).toHaveTextContent(tourSteps[1]!.title);
    expect(screen.getByText(`Step 2 of ${tourSteps.length}`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(tourDialog()!.findHeader().getElement()).toHaveTextContent(tourSteps[0].title);
    expect(window.localStorage.getItem(tourFlagKey(testUser.userId))).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Skip tour' }));
    await waitFor(() => expect(tourDialog()?.isVisible()).toBeFalsy());
    expect(window.localStorage.getItem(tourFlagKey(testUser.userId))).toBe('true');
  });

  it('Finish on the last step stores the flag', async () => {
    renderDashboard(new Date(Date.now() - HOUR).toISOString());
    await screen.findByRole('dialog');
    const user = userEvent.setup();
    for (let i = 1; i < tourSteps.length; i++) await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(tourDialog()?.isVisible()).toBeFalsy());
    expect(window.localStorage.getItem(tourFlagKey(testUser.userId))).toBe('true');
  });

  it('does not open by itself for an older profile, and Show Tour opens it', async () => {
    renderDashboard(new Date(Date.now() - 48 * HOUR).toISOString());
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    expect(tourDialog()?.isVisible()).toBeFalsy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show Tour' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(tourDialog()!.findHeader().getElement()).toHaveTextContent(tourSteps[0].title);
  });

  it('does not open by itself when the flag is stored', async () => {
    window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
    renderDashboard(new Date(Date.now() - HOUR).toISOString());
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    expect(tourDialog()?.isVisible()).toBeFalsy();
  });
});
