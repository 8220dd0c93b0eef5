/**
 * How fast the dashboard opens in Chromium (issue 13 point 6), on an in-memory local stack serving the
 * built web app (it builds nothing: run npm run build:web first). Each run uses a fresh browser context,
 * so nothing is cached, and times three things until they are on screen:
 * - sign-in: from pressing Sign In on /auth to the dashboard's heading (and to its account figures);
 * - sidebar: from clicking Contacts in the sidebar, once the dashboard has settled, to the first contact card;
 * - reload: opening /dashboard afresh, signed in, to the dashboard's heading.
 * Once on localhost and once over a throttled link (150 ms round trip, 1.6 Mbit/s), where bytes count.
 * Prints medians; asserts only that the pages show what they should.
 *
 *   npx tsx bench/dashboard-load.ts [runs] [--dist <built web app folder, default web/dist>]
 */
import { chromium as playwright, type BrowserContext, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DynamoContactStore } from '../lambdas/adapters/dynamodb/contactStore';
import { fromRoot } from '../lib/local/paths';
import { chromiumArgs, chromiumPath } from '../tests/e2e/chromium';
import { uniqueEmail } from '../tests/support/accounts';
import { tourFlagKey } from '../web/src/tour/tourRules';
import { medianOf, startBenchStack } from './stack';

const args = process.argv.slice(2);
const distFlag = args.indexOf('--dist');
const webDist = distFlag >= 0 ? resolve(args[distFlag + 1] ?? '') : fromRoot('web/dist');
const runs = Number(args.find((arg, index) => /^\d+$/.test(arg) && args[index - 1] !== '--dist') ?? 7);
const CONTACTS = 5;

const chromium = chromiumPath();
if (!chromium || !existsSync(`${webDist}/index.html`)) {
  console.log(`dashboard load: skipped (needs /usr/bin/chromium and a built web app in ${webDist}: npm run build:web)`);
  process.exit(0);
}

/** Chrome DevTools' network throttling; undefined = localhost as it is. */
interface Link {
  name: string;
  throttle?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}
const links: Link[] = [
  { name: 'localhost' },
  { name: 'throttled (150 ms RTT, 1.6 Mbit/s)', throttle: { latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 } },
];

async function openPage(context: BrowserContext, link: Link): Promise<Page> {
  const page = await context.newPage();
  if (link.throttle) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...link.throttle });
  }
  return page;
}

const dashboardHeading = (page: Page) => page.getByRole('heading', { level: 1, name: 'Dashboard' });
const visible = { state: 'visible', timeout: 60_000 } as const;

const bench = await startBenchStack({ webDist });
try {
  const account = await bench.users.create({ email: uniqueEmail('dashboard-load') });
  const store = new DynamoContactStore(bench.db, bench.stack.tableName);
  const contacts = Array.from({ length: CONTACTS }, (_, i) => ({
    email: `contact-${i}@example.net`,
    name: `Contact ${i}`,
    label_name: `Label ${i}`,
    contact_type: 'Label' as const,
    position: null,
    genre: 'techno',
    website_url: null,
    notes: null,
  }));
  const { created } = await store.importMany(account.sub, contacts, new Date());
  if (created.length !== CONTACTS) throw new Error(`seeded ${created.length} contacts, expected ${CONTACTS}`);

  const browser = await playwright.launch({ executablePath: chromium, args: chromiumArgs });
  try {
    console.log(`web app: ${webDist}`);
    for (const link of links) {
      const signIn: number[] = [];
      const figures: number[] = [];
      const sidebar: number[] = [];
      const reload: number[] = [];
      for (let run = 0; run <= runs; run++) {
        const context = await browser.newContext({ baseURL: bench.stack.appUrl, viewport: { width: 1280, height: 800 } });
        // The account is new, so the tour would open over the dashboard: mark it seen, as a returning user has.
        await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), tourFlagKey(account.sub));
        try {
          const page = await openPage(context, link);
          await page.goto('/auth');
          await page.getByLabel('Email').fill(account.email);
          await page.getByLabel('Password').fill(account.password);
          let t = performance.now();
          await page.getByRole('button', { name: 'Sign In', exact: true }).click();
          await dashboardHeading(page).waitFor(visible);
          const toHeading = performance.now() - t;
          await page.getByText('Current Plan').waitFor(visible);
          const toFigures = performance.now() - t;

          // A person reads the dashboard before clicking: wait until it has settled (no request for 500 ms,
          // so the pages' shared libraries prefetched after paint are in), as the app was before them too.
          await page.waitForLoadState('networkidle');
          t = performance.now();
          await page.getByRole('link', { name: 'Contacts', exact: true }).click();
          await page
            .getByText(/@example\.net/)
            .first()
            .waitFor(visible);
          const toContact = performance.now() - t;

          // A new tab of the same signed-in session, with an empty cache: /dashboard as a returning user opens it.
          const session = await context.storageState();
          const fresh = await browser.newContext({ baseURL: bench.stack.appUrl, viewport: { width: 1280, height: 800 }, storageState: session });
          try {
            const again = await openPage(fresh, link);
            t = performance.now();
            await again.goto('/dashboard', { waitUntil: 'commit' });
            await dashboardHeading(again).waitFor(visible);
            const toReload = performance.now() - t;
            if (run === 0) continue; // warm-up: the server's first requests, Chromium's first start
            signIn.push(toHeading);
            figures.push(toFigures);
            sidebar.push(toContact);
            reload.push(toReload);
          } finally {
            await fresh.close();
          }
        } finally {
          await context.close();
        }
      }
      const ms = (values: number[]) => `${medianOf(values).toFixed(0)} ms`;
      console.log(
        `${link.name}, median of ${runs}: sign-in → dashboard heading ${ms(signIn)} (account figures ${ms(figures)}); ` +
          `sidebar Contacts → first contact ${ms(sidebar)}; /dashboard afresh → heading ${ms(reload)}`,
      );
    }
  } finally {
    await browser.close();
  }
} finally {
  await bench.stop();
}
