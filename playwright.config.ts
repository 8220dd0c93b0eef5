import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './tests/e2e/chromium';

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) against a local stack started in
 * memory on random ports by the global setup, which puts its URL in E2E_BASE_URL for the workers.
 */

const browserUse = {
  launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
  reducedMotion: 'reduce' as const,
  baseURL: process.env.E2E_BASE_URL,
  // Recording a trace costs a quarter of the browser suite's CPU (measured: 41 s against 55 s of CPU for
  // compose.spec.ts): CI records it on the retry of a failed test, a local run keeps it for a failure.
  trace: process.env.CI ? ('on-first-retry' as const) : ('retain-on-failure' as const),
  screenshot: 'only-on-failure' as const,
};

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/globalSetup.ts',
  outputDir: '.test-output/playwright-artifacts',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Two Chromiums and the whole stack share two cores: a page can take over 10 s to render when the machine is
  // busy, and a full run here saw the contacts and billing tests reach their last step at 57-62 s.
  timeout: 90_000,
  expect: {
    timeout: 20_000,
    // Screenshot tests (visual.spec.ts): no animation, no caret, CSS pixels; up to 20 pixels may differ
    // (antialiasing), fewer than one changed digit, so a changed figure or word still fails.
    toHaveScreenshot: { animations: 'disabled', caret: 'hide', scale: 'css', maxDiffPixels: 20 },
  },
  // Baselines per page and project (desktop, phone), made with Debian's Chromium as CI runs it.
  snapshotPathTemplate: '{testDir}/__screenshots__/{testFilePath}/{arg}-{projectName}{ext}',
  reporter: [['list'], ['json', { outputFile: '.test-output/playwright.json' }]],
  projects: [
    {
      name: 'desktop',
      testIgnore: /phone-pages\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], ...browserUse, viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'phone',
      testMatch: /(navigation|waitlist|phone-pages|accessibility|tour|listen|layout|visual|pipeline)\.spec\.ts/,
      use: { ...browserUse, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true },
    },
  ],
});
