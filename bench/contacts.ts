/**
 * Contacts at scale (issue 4's benchmark), end to end on an in-memory local stack:
 * - CSV import: 5,000 new rows into an account that already holds 5,000 contacts, as the page does it
 *   (parse with papaparse → plan → POST /api/contacts/import in batches of 100, the web client's own
 *   code), against papaparse's parse time of the same file;
 * - listing: the first page of GET /api/contacts (the web's page size) for an account of 5,000, and
 *   with Chromium present, the time until the Contacts page shows its first card.
 * Prints figures; asserts only that the answers are right.
 *
 *   npx tsx bench/contacts.ts [rows] [runs]
 */
import { existsSync } from 'node:fs';
import { DynamoContactStore } from '../lambdas/adapters/dynamodb/contactStore';
import { fromRoot } from '../lib/local/paths';
import { contactListSchema } from '../schema/api/contacts';
import { guessMapping, planContactImport, readContactsCsv } from '../schema/csv/contactImport';
import { parseCsv } from '../schema/csv/parse';
import { chromiumPath } from '../tests/e2e/chromium';
import { uniqueEmail } from '../tests/support/accounts';
import { createApiClient } from '../web/src/api/client';
import { CONTACTS_FIRST_PAGE_SIZE, CONTACTS_LOAD_PAGE_SIZE, importContacts, listContacts } from '../web/src/api/contacts';
import { medianOf, startBenchStack } from './stack';

const rows = Number(process.argv[2] ?? 5000);
const runs = Number(process.argv[3] ?? 5);

const ms = (value: number) => `${value.toFixed(0)} ms`;
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;

/** A CSV as people export it: BOM, CRLF, quoted cells with commas, mixed type spellings. */
function csvFile(prefix: string, count: number): string {
  const types = ['Label', 'dj', 'DJ', 'fan', 'Promoter'];
  const lines = ['Email Address,Contact Name,Label / Company,Type,Genre,Notes'];
  for (let i = 0; i < count; i++) {
    lines.push(
      `${prefix}-${i}@example.com,"Contact ${i}, A&R",Label ${i % 300} Records,${types[i % types.length]},"house, techno",Met at ADE ${2020 + (i % 6)}`,
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

const bench = await startBenchStack();
const { stack, db, users } = bench;
const store = new DynamoContactStore(db, stack.tableName);

/** An account holding `rows` contacts, written by the store's own bulk path (not what is measured). */
async function accountWithContacts(label: string) {
  const account = await users.create({ email: uniqueEmail(label) });
  const existing = Array.from({ length: rows }, (_, i) => ({
    email: `existing-${i}@example.net`,
    name: `Existing ${i}`,
    label_name: `Label ${i % 200}`,
    contact_type: 'Label' as const,
    position: null,
    genre: 'techno',
    website_url: null,
    notes: null,
  }));
  const { created } = await store.importMany(account.sub, existing, new Date());
  if (created.length !== rows) throw new Error(`seeded ${created.length} contacts, expected ${rows}`);
  const api = createApiClient(
    () => Promise.resolve(account.idToken),
    (input, init) => fetch(`${stack.appUrl}${input as string}`, init),
  );
  return { account, api };
}

try {
  // --- Import ------------------------------------------------------------------------------------
  const parseTimes: number[] = [];
  const importTimes: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const { api } = await accountWithContacts(`import-${run}`);
    const text = csvFile(`new-${run}`, rows);

    const parseStart = performance.now();
    const parsedOnly = parseCsv(text);
    const parseTime = performance.now() - parseStart;
    if (!parsedOnly.ok) throw new Error(parsedOnly.error);

    // What the page does from the moment the person presses Import Contacts (the file is already read).
    const t = performance.now();
    const read = readContactsCsv(text);
    if (!read.ok) throw new Error(read.error);
    const plan = planContactImport(read.table, { hasHeader: true, removeDuplicates: true, mapping: guessMapping(read.table, true) });
    if (!plan.ok) throw new Error(plan.error);
    const outcome = await importContacts(api, plan.plan.contacts);
    const elapsed = performance.now() - t;
    if (outcome.error !== undefined) throw outcome.error instanceof Error ? outcome.error : new Error('the import failed', { cause: outcome.error });
    if (outcome.created !== rows) throw new Error(`imported ${outcome.created}, expected ${rows}`);
    if (run === 0) continue; // warm-up: connections, JIT
    parseTimes.push(parseTime);
    importTimes.push(elapsed);
  }
  const parse = medianOf(parseTimes);
  const total = medianOf(importTimes);
  console.log(
    `CSV import of ${rows} new rows into an account of ${rows}: median ${seconds(total)} over ${runs} runs ` +
      `(min ${seconds(Math.min(...importTimes))}, max ${seconds(Math.max(...importTimes))}); ` +
      `papaparse alone ${ms(parse)}: ${(total / parse).toFixed(0)}× the parse time`,
  );

  // --- Listing -----------------------------------------------------------------------------------
  const { account, api } = await accountWithContacts('list');
  const firstPage: number[] = [];
  const largePage: number[] = [];
  const whole: number[] = [];
  for (let run = 0; run <= runs * 2; run++) {
    // The page's own loader: a small first page, then pages of CONTACTS_LOAD_PAGE_SIZE.
    const t = performance.now();
    let first = 0;
    const all = await listContacts(api, {
      onPage: () => {
        first ||= performance.now() - t;
      },
    });
    const elapsed = performance.now() - t;
    if (all.length !== rows) throw new Error(`listed ${all.length}, expected ${rows}`);
    const t2 = performance.now();
    const response = await fetch(`${stack.appUrl}/api/contacts?limit=${CONTACTS_LOAD_PAGE_SIZE}`, {
      headers: { authorization: `Bearer ${account.idToken}` },
    });
    const page = contactListSchema.parse(await response.json());
    if (page.contacts.length !== Math.min(rows, CONTACTS_LOAD_PAGE_SIZE)) throw new Error(`a full page has ${page.contacts.length}`);
    if (run === 0) continue;
    firstPage.push(first);
    largePage.push(performance.now() - t2);
    whole.push(elapsed);
  }
  console.log(
    `GET /api/contacts of an account of ${rows}: first page (${CONTACTS_FIRST_PAGE_SIZE}) median ${ms(medianOf(firstPage))}; ` +
      `a page of ${CONTACTS_LOAD_PAGE_SIZE} median ${ms(medianOf(largePage))}; all ${rows} median ${ms(medianOf(whole))}`,
  );

  // --- First render in Chromium --------------------------------------------------------------------
  const chromium = chromiumPath();
  if (!chromium || !existsSync(fromRoot('web/dist/index.html'))) {
    console.log('first render: skipped (needs /usr/bin/chromium and a built web app: npm run build:web)');
  } else {
    const { measureFirstRender } = await import('./contacts-render');
    const fromSidebar: number[] = [];
    const fullLoad: number[] = [];
    for (let run = 0; run <= runs; run++) {
      const elapsed = await measureFirstRender({ chromium, appUrl: stack.appUrl, email: account.email, password: account.password });
      if (run === 0) continue;
      fromSidebar.push(elapsed.fromSidebar);
      fullLoad.push(elapsed.fullLoad);
    }
    console.log(
      `Contacts page of ${rows} contacts in Chromium, until the first card shows: from the sidebar median ${ms(medianOf(fromSidebar))}, ` +
        `loading /dashboard/contacts afresh median ${ms(medianOf(fullLoad))} (${runs} runs)`,
    );
  }
} finally {
  await bench.stop();
}
