#!/usr/bin/env node
// Adds up the gzip size of the JS and CSS each route downloads, from the Vite manifest.
// Run after `npm run build:web`:  node bench/web-sizes.mjs
// A route's load = index.html's entry chunk + the lazy chunks the route renders, each with its static
// imports and CSS. Fonts are separate .woff2 files fetched only for the faces a page uses (not counted).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// The built web app, wherever this is run from (the repository root or bench/).
const dist = fileURLToPath(new URL('../web/dist/', import.meta.url));
const manifestPath = join(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`No ${manifestPath}: run npm run build:web first.`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

const routes = {
  'landing (/), signed out': ['index.html', 'src/pages/landing/LandingPage.tsx'],
  'auth (/auth), first paint': ['index.html', 'src/pages/auth/AuthPage.tsx'],
  // The public pages a recipient opens from an email: no sign-in, no Amplify; the listen page carries its player (wavesurfer.js).
  'listen page (/l/<token>), a recipient': ['index.html', 'src/pages/listen/ListenPage.tsx'],
  'unsubscribe page (/unsubscribe), a recipient': ['index.html', 'src/pages/unsubscribe/UnsubscribePage.tsx'],
  'auth (/auth) + Amplify (prefetched 300 ms after paint)': ['index.html', 'src/pages/auth/AuthPage.tsx', 'src/auth/amplifyService.ts'],
  'dashboard (/dashboard), signed in': [
    'index.html',
    'src/auth/amplifyService.ts',
    'src/auth/checkProfile.ts',
    'src/pages/dashboard/DashboardLayout.tsx',
    'src/pages/dashboard/DashboardHome.tsx',
  ],
  // The dashboard home's figures: its insights client and zod, imported when it asks for GET /api/dashboard (useDashboardStats.ts).
  'dashboard + its figures (insights client and zod, fetched with GET /api/dashboard)': [
    'index.html',
    'src/auth/amplifyService.ts',
    'src/auth/checkProfile.ts',
    'src/pages/dashboard/DashboardLayout.tsx',
    'src/pages/dashboard/DashboardHome.tsx',
    'src/api/insights.ts',
  ],
  // What the other signed-in pages share, fetched 300 ms after the dashboard's paint (pages/dashboard/prefetchPageLibraries.ts).
  'dashboard + zod, Modal, ButtonDropdown (prefetched 300 ms after paint)': [
    'index.html',
    'src/auth/amplifyService.ts',
    'src/auth/checkProfile.ts',
    'src/pages/dashboard/DashboardLayout.tsx',
    'src/pages/dashboard/DashboardHome.tsx',
    '../schema/api/profile.ts',
    '_modal',
    '../node_modules/@cloudscape-design/components/button-dropdown/index.js',
  ],
  // Opened from the sidebar after the dashboard (zod and the shell already loaded): the page's own chunks on top.
  'subscription (/dashboard/subscription), from the dashboard': [
    'index.html',
    'src/auth/amplifyService.ts',
    'src/auth/checkProfile.ts',
    'src/pages/dashboard/DashboardLayout.tsx',
    'src/pages/subscription/SubscriptionPage.tsx',
  ],
  // The charts (Cloudscape's own LineChart and BarChart) come with this page only.
  'analytics (/dashboard/analytics), from the dashboard': [
    'index.html',
    'src/auth/amplifyService.ts',
    'src/auth/checkProfile.ts',
    'src/pages/dashboard/DashboardLayout.tsx',
    'src/pages/analytics/AnalyticsPage.tsx',
  ],
  'settings (/dashboard/settings), from the dashboard': [
    'index.html',
    'src/auth/amplifyService.ts',
    'src/auth/checkProfile.ts',
    'src/pages/dashboard/DashboardLayout.tsx',
    'src/pages/settings/SettingsPage.tsx',
  ],
};

const gzip = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function closure(keys) {
  const chunks = new Set();
  const visit = (key) => {
    if (chunks.has(key)) return;
    // A module imported both lazily and statically is in a shared chunk named after its file (`_profile-…js`).
    if (!manifest[key] && !key.startsWith('_')) key = `_${key.replace(/^.*\//, '').replace(/\.[jt]sx?$/, '')}`;
    // A shared chunk's key carries its hash (`_modal-Dmi5AA2h.js`): `_modal` names it.
    if (!manifest[key] && key.startsWith('_')) key = Object.keys(manifest).find((name) => name.startsWith(`${key}-`) && name.endsWith('.js')) ?? key;
    if (chunks.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`No chunk ${key} in the manifest: run npm run build:web first`);
    chunks.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  const js = new Set();
  const css = new Set();
  for (const key of chunks) {
    const chunk = manifest[key];
    if (chunk.file.endsWith('.js')) js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
  }
  return { js: [...js], css: [...css] };
}

const rows = [];
for (const [route, keys] of Object.entries(routes)) {
  const { js, css } = closure(keys);
  const jsBytes = js.reduce((sum, file) => sum + gzip(file), 0);
  const cssBytes = css.reduce((sum, file) => sum + gzip(file), 0);
  rows.push({ route, 'JS gzip': kb(jsBytes), 'CSS gzip': kb(cssBytes), 'JS files': js.length, 'CSS files': css.length });
}
console.table(rows);
