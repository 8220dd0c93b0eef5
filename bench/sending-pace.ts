/**
 * The pace paced sending promises (issue 23, DESIGN §13): emails per user-hour against one per interval,
 * on a fresh in-memory local stack, through the real dispatcher, FIFO and sender handler.
 * - Simulated clock at I = 60 s: each slot's dispatcher run, then the sender `δ` later (seeded 0.2–5 s,
 *   the scheduler, queue and Lambda latency), for an hour of slots.
 * - Real clock at the local demo interval (I = 3 s): the dispatcher fires at each grid point as the local
 *   ticker does, and the sender runs straight after, taking the time DynamoDB Local really takes.
 * Prints figures; no assertions.
 *
 *   npx tsx bench/sending-pace.ts [users] [simulated slots] [real-clock seconds]
 */
import { FakeClock, MINUTE_MS, mulberry32, PipelineWorld } from '../tests/fakes/pipeline';
import { startBenchStack } from './stack';

const users = Number(process.argv[2] ?? 10);
const slots = Number(process.argv[3] ?? 60);
const realSeconds = Number(process.argv[4] ?? 60);
const DEMO_INTERVAL_MS = 3_000;
const START = new Date('2026-11-21T18:00:00.000Z');

/** A clock that reads the wall clock (the world's FakeClock type, never moved by hand here). */
class WallClock extends FakeClock {
  override now(): Date {
    return new Date();
  }
}

async function queueCampaigns(world: PipelineWorld, recipients: number) {
  const added = await world.addUsers(Array.from({ length: users }, () => ({ dailyLimit: 2000, tier: 'label' as const })));
  for (const user of added) {
    await world.campaignFor(
      user.userId,
      world.contacts(
        user.userId,
        Array.from({ length: recipients }, (_, i) => i),
      ),
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

const bench = await startBenchStack();
const { stack, db } = bench;
try {
  // --- Simulated clock, I = 60 s -------------------------------------------------------------------
  const clock = new FakeClock(START);
  const simulated = new PipelineWorld({ db, tableName: stack.tableName, clock, tag: `pace-sim-${Date.now()}`, cursorsFrom: 'own' });
  await queueCampaigns(simulated, slots + 10);
  const delay = mulberry32(23);
  let maxDelay = 0;
  for (let slot = 0; slot < slots; slot++) {
    clock.set(START.getTime() + slot * MINUTE_MS);
    await simulated.dispatch();
    const ms = delay.between(200, 5_000);
    maxDelay = Math.max(maxDelay, ms);
    clock.set(START.getTime() + slot * MINUTE_MS + ms);
    await simulated.deliver({ concurrency: 4 });
  }
  const simulatedEmails = simulated.mail.calls.filter((call) => call.delivered).length;
  const simulatedHours = (slots * MINUTE_MS) / 3_600_000;
  const perUserHour = simulatedEmails / users / simulatedHours;
  console.log(
    `simulated clock, I = 60 s: ${users} users, ${slots} slots (${simulatedHours.toFixed(2)} h), sender 0.2–${(maxDelay / 1000).toFixed(1)} s after each run: ` +
      `${simulatedEmails} emails, ${perUserHour.toFixed(2)} per user-hour of the promised 60 (${(perUserHour / 60).toFixed(3)})`,
  );
  await simulated.cleanup();

  // --- Real clock, I = 3 s (the local demo interval) ------------------------------------------------
  const wall = new WallClock(new Date());
  const real = new PipelineWorld({
    db,
    tableName: stack.tableName,
    clock: wall,
    tag: `pace-real-${Date.now()}`,
    cursorsFrom: 'own',
    intervalMs: DEMO_INTERVAL_MS,
  });
  const realSlots = Math.floor((realSeconds * 1000) / DEMO_INTERVAL_MS);
  await queueCampaigns(real, realSlots + 10);
  const lateness: number[] = [];
  let next = Math.ceil(Date.now() / DEMO_INTERVAL_MS) * DEMO_INTERVAL_MS;
  const firstSlot = next;
  for (let slot = 0; slot < realSlots; slot++) {
    await sleep(next - Date.now());
    lateness.push(Date.now() - next);
    await real.dispatch(new Date(next));
    await real.deliver({ concurrency: 4 });
    next += DEMO_INTERVAL_MS;
  }
  const realEmails = real.mail.calls.filter((call) => call.delivered);
  const realHours = (realSlots * DEMO_INTERVAL_MS) / 3_600_000;
  const promise = 3_600_000 / DEMO_INTERVAL_MS;
  const realPerUserHour = realEmails.length / users / realHours;
  const delays = realEmails.map((call) => (call.at.getTime() - firstSlot) % DEMO_INTERVAL_MS).sort((a, b) => a - b);
  console.log(
    `real clock, I = 3 s: ${users} users, ${realSlots} slots (${realSeconds} s): ${realEmails.length} emails, ` +
      `${realPerUserHour.toFixed(0)} per user-hour of the promised ${promise} (${(realPerUserHour / promise).toFixed(3)}); ` +
      `claim δ after its slot median ${delays[Math.floor(delays.length / 2)] ?? 0} ms, max ${delays.at(-1) ?? 0} ms; timer lateness max ${Math.max(...lateness)} ms`,
  );
  await real.cleanup();
} finally {
  await bench.stop();
}
