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

/**
 * A first visit: the profile is less than 24 hours old and its tour not yet finished or skipped, as the
 * profile says (any browser) or, for a tour taken before the flag moved to the profile, this browser.
 * The tour starts by itself on it, and the dashboard says "Welcome" rather than "Welcome back".
 */
export function shouldAutoStartTour(input: {
  userId: string;
  profileCreatedAt: string;
  profileTourCompleted?: boolean;
  now?: number;
  storage?: Storage | null;
}): boolean {
  const { userId, profileCreatedAt, profileTourCompleted = false, now = Date.now() } = input;
  const storage = input.storage === undefined ? storageOrNull() : input.storage;
  if (profileTourCompleted) return false;
  const created = Date.parse(profileCreatedAt);
  if (Number.isNaN(created)) return false;
  const age = now - created;
  if (age < 0 || age >= TOUR_AUTO_START_WINDOW_MS) return false;
  return !isTourCompleted(userId, storage);
}

/** Spec §9: a step's anchor gets its attributes 100 ms after the step shows, and stays highlighted 3 s. */
export const TOUR_ANCHOR_DELAY_MS = 100;
export const TOUR_HIGHLIGHT_MS = 3000;
/** While a step's anchor is missing or was replaced (its page still loading), it is looked for this often. */
export const TOUR_ANCHOR_RECHECK_MS = 100;

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

const GAP = 12;

/**
 * Where the tour panel goes (viewport coordinates): beside the anchor (right, below, above, left), the
 * first side where it fits whole; an anchor too big for any side (the main area) or none at all puts it
 * in the bottom-right corner, over the least of the page.
 */
export function placeTourPanel(
  anchor: Box | null,
  panel: { width: number; height: number },
  viewport: { width: number; height: number },
): { top: number; left: number } {
  const clamp = (value: number, max: number) => Math.max(GAP, Math.min(value, max - GAP));
  const corner = { top: Math.max(GAP, viewport.height - panel.height - GAP), left: Math.max(GAP, viewport.width - panel.width - GAP) };
  if (!anchor) return corner;
  const fitsAcross = (left: number) => left >= GAP && left + panel.width <= viewport.width - GAP;
  const fitsDown = (top: number) => top >= GAP && top + panel.height <= viewport.height - GAP;
  const alignedTop = clamp(anchor.top, viewport.height - panel.height);
  const alignedLeft = clamp(anchor.left, viewport.width - panel.width);
  const candidates = [
    { top: alignedTop, left: anchor.left + anchor.width + GAP },
    { top: anchor.top + anchor.height + GAP, left: alignedLeft },
    { top: anchor.top - panel.height - GAP, left: alignedLeft },
    { top: alignedTop, left: anchor.left - panel.width - GAP },
  ];
  return candidates.find((place) => fitsAcross(place.left) && fitsDown(place.top)) ?? corner;
}
