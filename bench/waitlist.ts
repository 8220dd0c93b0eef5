/**
 * The admin waitlist at scale: seeds N waitlist entries (default 5,000, with their email guards and
 * the counter) by BatchWriteItem into an in-memory local stack, then times loading the whole list as
 * the admin page does: GET /api/admin/waitlist page after page (limit, cursor) until no next_cursor,
 * end to end (HTTP → JWT check → handler → one Query page → JSON, per page). Prints the median of
 * several runs, the number of pages and the largest page's size.
 *
 *   npx tsx bench/waitlist.ts [entries] [runs] [limit]
 */
import { gzipSync } from 'node:zlib';
import { monotonicFactory } from 'ulid';
import { batchWriteAll } from '../lambdas/adapters/dynamodb/batch';
import { DynamoWaitlistStore } from '../lambdas/adapters/dynamodb/waitlistStore';
import { musicStyles, WAITLIST_PAGE_DEFAULT, waitlistListSchema, type WaitlistEntry } from '../schema/api/waitlist';
import { key } from '../schema/table';
import { medianOf, startBenchStack, valueAt } from './stack';

const count = Number(process.argv[2] ?? 5000);
const runs = Number(process.argv[3] ?? 9);
const limit = Number(process.argv[4] ?? WAITLIST_PAGE_DEFAULT);
const concurrency = 8;

const bench = await startBenchStack();
const { stack, db, users } = bench;

/** A plausible entry: about a third decided, some with a link, a reason and notes. */
function entries(): WaitlistEntry[] {
  const next = monotonicFactory();
  const start = Date.parse('2026-09-01T00:00:00.000Z');
  return Array.from({ length: count }, (_, i) => {
    const at = start + i * 60_000 * 17;
    const status = i % 3 === 0 ? 'pending' : i % 3 === 1 ? 'approved' : i % 7 === 0 ? 'rejected' : 'pending';
    return {
      id: next(at),
      email: `artist-${i}@example.com`,
      artist_name: `Artist ${i} Collective`,
      music_style: valueAt(musicStyles, i % musicStyles.length),
      soundcloud_spotify_url: i % 2 === 0 ? `https://soundcloud.com/artist-${i}` : null,
      why_interested: i % 4 === 0 ? 'I send demos to labels every week and want to track who opens them without spreadsheets.' : null,
      status,
      submitted_at: new Date(at).toISOString(),
      approved_at: status === 'approved' ? new Date(at + 86_400_000).toISOString() : null,
      notes: i % 10 === 0 ? 'Strong catalogue; invite to the first cohort.' : null,
    } satisfies WaitlistEntry;
  });
}

async function seed(all: WaitlistEntry[]) {
  const items = all.flatMap((entry) => [
    { PK: key.waitlistPartition(), SK: key.waitlistEntry(entry.id), entity: 'waitlist-entry', ...entry },
    { PK: key.waitlistPartition(), SK: key.waitlistEmail(entry.email), entity: 'waitlist-email', entry_id: entry.id },
  ]);
  items.push({ PK: key.waitlistPartition(), SK: key.waitlistCounter(), entity: 'waitlist-counter', entries: all.length } as never);
  await batchWriteAll(
    db,
    stack.tableName,
    items.map((Item) => ({ PutRequest: { Item } })),
    { concurrency },
  );
}

try {
  const t0 = Date.now();
  await seed(entries());
  console.log(`seeded ${count} entries (+ ${count} email guards + counter) by BatchWriteItem in ${((Date.now() - t0) / 1000).toFixed(2)} s`);

  const { idToken } = await users.signIn(stack.admin.email, stack.admin.password);

  /** Every page in order, as web/src/api/adminWaitlist.ts loads them. */
  async function loadAll() {
    const all: WaitlistEntry[] = [];
    const pageBytes: number[] = [];
    let cursor: string | undefined;
    do {
      const query = new URLSearchParams({ limit: String(limit) });
      if (cursor) query.set('cursor', cursor);
      const response = await fetch(`${stack.appUrl}/api/admin/waitlist?${query}`, { headers: { authorization: `Bearer ${idToken}` } });
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) throw new Error(`GET /api/admin/waitlist: ${response.status} ${body.toString('utf8').slice(0, 200)}`);
      const page = waitlistListSchema.parse(JSON.parse(body.toString('utf8')));
      all.push(...page.entries);
      pageBytes.push(body.length);
      cursor = page.next_cursor;
    } while (cursor);
    return { all, pageBytes };
  }

  const durations: number[] = [];
  let pages = 0;
  let largest = 0;
  let largestGzip = 0;
  for (let run = 0; run <= runs; run++) {
    const t = performance.now();
    const { all, pageBytes } = await loadAll();
    const elapsed = performance.now() - t;
    if (run === 0) {
      // The first run is a warm-up (connections, JIT); check the answer once.
      if (all.length !== count) throw new Error(`listed ${all.length} entries, expected ${count}`);
      if (all.some((entry, i) => i > 0 && entry.id >= valueAt(all, i - 1).id)) throw new Error('entries are not newest first');
      pages = pageBytes.length;
      largest = Math.max(...pageBytes);
      continue;
    }
    durations.push(elapsed);
  }
  {
    const response = await fetch(`${stack.appUrl}/api/admin/waitlist?limit=${limit}`, { headers: { authorization: `Bearer ${idToken}` } });
    largestGzip = gzipSync(Buffer.from(await response.arrayBuffer())).length;
  }
  // The same read without HTTP, JWT check and handler: the store's Query pages and unmarshalling alone.
  const store = new DynamoWaitlistStore(db, stack.tableName);
  const queryOnly: number[] = [];
  for (let run = 0; run < runs; run++) {
    const t = performance.now();
    let cursor: string | undefined;
    do {
      const page = await store.list({ limit, cursor });
      if (page.outcome !== 'listed') throw new Error('the store refused its own cursor');
      cursor = page.nextCursor;
    } while (cursor);
    queryOnly.push(performance.now() - t);
  }
  durations.sort((a, b) => a - b);
  const median = medianOf(durations);
  console.log(
    `GET /api/admin/waitlist, all ${count} entries in ${pages} pages of up to ${limit}: median ${median.toFixed(0)} ms over ${runs} runs ` +
      `(min ${valueAt(durations, 0).toFixed(0)}, max ${valueAt(durations, -1).toFixed(0)} ms); ` +
      `largest page ${(largest / 1024).toFixed(0)} KB (first page ${(largestGzip / 1024).toFixed(0)} KB gzip)`,
  );
  console.log(`  of which the store's Query pages alone: median ${medianOf(queryOnly).toFixed(0)} ms`);
} finally {
  await bench.stop();
}
