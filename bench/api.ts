/**
 * Latency of the local API end to end (HTTP → JWT check → API Gateway event → handler → DynamoDB
 * Local) for the routes issue 2 ships, on an in-memory stack.
 *
 *   npx tsx bench/api.ts [requests per route]
 */
import { startBenchStack, valueAt } from './stack';

const count = Number(process.argv[2] ?? 300);
const concurrency = 8;

const bench = await startBenchStack();
const { stack, users } = bench;
try {
  const { idToken: token } = await users.create({ email: `bench-${Date.now()}@example.com`, name: 'Bench', password: 'Bench-password-1' });

  const cases: [string, RequestInit][] = [
    ['GET /api/profile', { headers: { authorization: `Bearer ${token}` } }],
    [
      'PATCH /api/profile',
      {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ artist_name: 'Bench Artist' }),
      },
    ],
  ];
  // GET /api/health is left out: it is a public route throttled to 20 requests a second by design.
  console.log(`${count} requests per route, ${concurrency} in flight:`);
  for (const [name, init] of cases) {
    const path = valueAt(name.split(' '), 1);
    const durations: number[] = [];
    let next = 0;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next++;
          const t = performance.now();
          const response = await fetch(`${stack.appUrl}${path}`, init);
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`${name}: ${response.status}`);
          durations.push(performance.now() - t);
        }
      }),
    );
    durations.sort((a, b) => a - b);
    const pct = (p: number) => valueAt(durations, Math.min(durations.length - 1, Math.floor(durations.length * p))).toFixed(1);
    console.log(`  ${name.padEnd(20)} p50 ${pct(0.5)} ms  p95 ${pct(0.95)} ms  ${(count / ((Date.now() - t0) / 1000)).toFixed(0)} req/s`);
  }
} finally {
  await bench.stop();
}
