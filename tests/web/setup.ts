import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';
import { fakeMatchMedia } from './matchMedia';

// Cloudscape-heavy routes can take more than the default 1 s to render when every suite runs at once.
configure({ asyncUtilTimeout: 5000 });

// Tell React this is a test environment so act() works without warnings.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// jsdom has no matchMedia; Cloudscape and the dashboard layout ask for it (desktop width here).
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: fakeMatchMedia(() => false),
  });
}
if (typeof window !== 'undefined') window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/**
 * Cloudscape's Flashbar sets its entering state 115 ms after a flash appears (flashbar/constant.js
 * TIMEOUT_FOR_ENTERING_ANIMATION), even once unmounted. A file whose last test shows a toast would have
 * that timer fire after jsdom is torn down ('window is not defined', an unhandled error that fails the
 * run): let it fire first.
 */
const CLOUDSCAPE_FLASH_ENTERING_MS = 115;
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, CLOUDSCAPE_FLASH_ENTERING_MS + 50));
});
