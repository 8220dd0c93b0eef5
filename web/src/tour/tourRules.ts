/** Spec §3/§4/§9: the tour starts by itself within 24 h of profile creation, unless finished or skipped before. */
export const TOUR_AUTO_START_WINDOW_MS = 24 * 60 * 60 * 1000;

export const tourFlagKey = (userId: string) => `tour_completed_${userId}`;

function storageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function isTourCompleted(userId: string, storage: Storage | null = storageOrNull()): boolean {
  return storage?.getItem(tourFlagKey(userId)) === 'true';
}

export function markTourCompleted(userId: string, storage: Storage | null = storageOrNull()): void {
  try {
    storage?.setItem(tourFlagKey(userId), 'true');
  } catch {
    // Storage full or blocked: the tour may show again, which is harmless.
  }
}

export function shouldAutoStartTour(input: { userId: string; profileCreatedAt: string; now?: number; storage?: Storage | null }): boolean {
  const { userId, profileCreatedAt, now = Date.now() } = input;
  const storage = input.storage === undefined ? storageOrNull() : input.storage;
  const created = Date.parse(profileCreatedAt);
  if (Number.isNaN(created)) return false;
  const age = now - created;
  if (age < 0 || age >= TOUR_AUTO_START_WINDOW_MS) return false;
  return !isTourCompleted(userId, storage);
}
