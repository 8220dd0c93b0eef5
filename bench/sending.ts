/**
 * The sending pipeline at scale (issue 6's benchmark), on a fresh in-memory local stack with a fake
 * clock: 1,000 users, each with a connected mailbox and a 100-recipient campaign queued through the
 * send flow's store; then simulated minutes of the real dispatcher (the DUE index query per shard) and
 * the real sender handler on every tick, with a mailer that only records. Prints figures; no assertions.
 * Every DynamoDB request of the dispatcher and the sender is counted by a middleware, and so are the
 * capacity units each consumed (ReturnConsumedCapacity, which DynamoDB Local computes as DynamoDB does):
 * what on-demand bills as read and write request units (docs/deploy.md "Cost per 1,000 emails").
 *
 * With `windows` (issue 27 §2), each campaign goes in the recipients' working hours (Mon–Fri 9:00–17:00)
 * and its recipients live in 6 zones in turn; the run starts on a Monday and also prints the emails per
 * user-minute in which someone still to be sent was inside their window, as a fraction of the pace.
 *
 *   npx tsx bench/sending.ts [users] [recipients] [minutes] [concurrent invocations] [windows]
 */
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { makeDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { countRequests, FakeClock, MINUTE_MS, NoopMailer, PipelineWorld } from '../tests/fakes/pipeline';
import { medianOf, p95Of, startBenchStack, valueAt } from './stack';
import { isWithinWindow, type SendWindow } from '../lambdas/core/workingHours';
import type { CampaignSendWindow } from '../schema/api/campaigns';

const users = Number(process.argv[2] ?? 1000);
const recipients = Number(process.argv[3] ?? 100);
/** 100,000 emails do not fit a reasonable wall time on DynamoDB Local: enough minutes for stable per-email figures. */
const minutes = Number(process.argv[4] ?? 3);
/** Sender invocations at a time (Lambda scales out; the local ticker runs one). */
const concurrency = Number(process.argv[5] ?? 20);

const windows = process.argv[6] === 'windows';

/** Windows mode: 6 zones whose 9:00–17:00 cover every hour of a weekday between them, and a Monday start. */
const ZONES = ['America/Los_Angeles', 'America/New_York', 'Europe/London', 'Europe/Berlin', 'Asia/Tokyo', 'Australia/Sydney'] as const;
const WINDOW: CampaignSendWindow = { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 };
const CORE_WINDOW: SendWindow = { days: [1, 2, 3, 4, 5], startHour: 9, endHour: 17 };

const START = new Date(windows ? '2026-11-23T18:00:00.000Z' : '2026-11-21T18:00:00.000Z');

interface Units {
  read: number;
  write: number;
}

/** The read commands, as the document client or the low-level client names them. */
const READ = /^(Get|Query|Scan|BatchGet|TransactGet)(Item|Items)?Command$/;

/** Sums the capacity units `db`'s requests consume: reads and writes, as on-demand bills them. */
function countCapacity(db: DynamoDBDocumentClient, units: Units): void {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      for (const capacity of [consumed ?? []].flat()) {
        if (capacity.ReadCapacityUnits !== undefined || capacity.WriteCapacityUnits !== undefined) {
          units.read += capacity.ReadCapacityUnits ?? 0;
          units.write += capacity.WriteCapacityUnits ?? 0;
        } else if (READ.test(context.commandName ?? '')) units.read += capacity.CapacityUnits ?? 0;
        else units.write += capacity.CapacityUnits ?? 0;
      }
      return result;
    },
    { step: 'initialize', name: 'benchCapacityCounter' },
  );
}
const ms = (value: number) => `${value.toFixed(0)} ms`;

const bench = await startBenchStack();
const { stack, db } = bench;
try {
  const clock = new FakeClock(START);
  const senderCounts = new Map<string, number>();
  const dispatcherCounts = new Map<string, number>();
  const senderDb = makeDocumentClient({ region: stack.region, endpoint: stack.dynamoEndpoint });
  const dispatcherDb = makeDocumentClient({ region: stack.region, endpoint: stack.dynamoEndpoint });
  countRequests(senderDb, senderCounts);
  countRequests(dispatcherDb, dispatcherCounts);
  const units: Units = { read: 0, write: 0 };
  countCapacity(senderDb, units);
  countCapacity(dispatcherDb, units);
  const mailer = new NoopMailer(clock);
  const world = new PipelineWorld({ db, tableName: stack.tableName, clock, tag: 'bench', mailer, senderDb, dispatcherDb });

  // --- Setup (not measured as sending): users, mailboxes, drafts, 100 recipients each queued --------
  const setupStart = performance.now();
  const added = await world.addUsers(Array.from({ length: users }, () => ({})));
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < added.length) {
        const user = valueAt(added, next++);
        const contacts = world.contacts(
          user.userId,
          Array.from({ length: recipients }, (_, i) => i),
        );
        await (windows
          ? world.campaignFor(
              user.userId,
              contacts.map((contact, i) => ({ ...contact, time_zone: ZONES[i % ZONES.length] ?? null })),
              { sendWindow: WINDOW },
            )
          : world.campaignFor(user.userId, contacts));
      }
    }),
  );
  console.log(
    `setup: ${users} users with a connected mailbox, ${users} campaigns × ${recipients} recipients queued (${users * recipients} RCPT items) in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`,
  );

  // --- Simulated minutes -------------------------------------------------------------------------
  senderCounts.clear();
  dispatcherCounts.clear();
  Object.assign(units, { read: 0, write: 0 });
  const tickMs: number[] = [];
  let sendingMs = 0;
  let dispatched = 0;
  // Windows mode: per minute, whether each user had someone still to be sent inside their window (the zones open then).
  const unsent = new Map(added.map((user) => [user.userId, new Set(Array.from({ length: recipients }, (_, i) => i))]));
  let openUserMinutes = 0;
  let sentInOpenMinutes = 0;
  for (let minute = 0; minute < minutes; minute++) {
    const minuteAt = START.getTime() + minute * MINUTE_MS;
    const openZones = new Set(ZONES.flatMap((zone, i) => (isWithinWindow(new Date(minuteAt + 1_000), CORE_WINDOW, zone) ? [i] : [])));
    const open = new Set(
      windows ? added.filter((user) => [...(unsent.get(user.userId) ?? [])].some((p) => openZones.has(p % ZONES.length))).map((u) => u.userId) : [],
    );
    openUserMinutes += open.size;
    const sentBefore = mailer.sent.length;
    clock.set(minuteAt);
    const t = performance.now();
    dispatched += await world.dispatch();
    tickMs.push(performance.now() - t);
    const s = performance.now();
    await world.deliver({ concurrency });
    sendingMs += performance.now() - s;
    for (const sent of mailer.sent.slice(sentBefore)) {
      unsent.get(sent.userId)?.delete(sent.position);
      if (open.has(sent.userId)) sentInOpenMinutes++;
    }
    process.stdout.write(`  minute ${minute + 1}/${minutes}: ${mailer.sent.length} emails so far\r`);
  }
  process.stdout.write('\n');

  const emails = mailer.sent.length;
  const perUserMinute = new Map<string, number>();
  for (const sent of mailer.sent) {
    const slot = `${sent.userId}#${Math.floor(sent.at / MINUTE_MS)}`;
    perUserMinute.set(slot, (perUserMinute.get(slot) ?? 0) + 1);
  }
  const senderTotal = [...senderCounts.values()].reduce((a, b) => a + b, 0);
  const dispatcherTotal = [...dispatcherCounts.values()].reduce((a, b) => a + b, 0);
  const perEmail = (n: number) => (emails > 0 ? (n / emails).toFixed(2) : 'n/a');

  console.log(
    `${users} users × ${recipients}-recipient campaigns; ${minutes} simulated minutes (of the ${recipients} a campaign needs), ${emails} emails sent, ${dispatched} ticks dispatched`,
  );
  console.log(`dispatcher tick (${users} due users): median ${ms(medianOf(tickMs))}, p95 ${ms(p95Of(tickMs))}, max ${ms(Math.max(...tickMs))}`);
  console.log(
    `DynamoDB requests per email sent: ${perEmail(senderTotal + dispatcherTotal)} (sender ${perEmail(senderTotal)}: ` +
      `${[...senderCounts].map(([name, n]) => `${name} ${perEmail(n)}`).join(', ')}; dispatcher ${perEmail(dispatcherTotal)}: ` +
      `${[...dispatcherCounts].map(([name, n]) => `${name} ${perEmail(n)}`).join(', ')})`,
  );
  console.log(`DynamoDB capacity per email sent (on-demand request units): ${perEmail(units.read)} read, ${perEmail(units.write)} write`);
  console.log(`largest number of emails one user got out in one simulated minute: ${Math.max(0, ...perUserMinute.values())}`);
  console.log(
    `sender throughput: ${(emails / (sendingMs / 1000)).toFixed(0)} emails/s (${concurrency} invocations of up to 10 ticks at a time, DynamoDB Local)`,
  );
  if (windows) {
    console.log(
      `working hours (6 zones, Mon–Fri 9:00–17:00): ${sentInOpenMinutes} emails in ${openUserMinutes} user-minutes with someone inside their window: ` +
        `${openUserMinutes > 0 ? (sentInOpenMinutes / openUserMinutes).toFixed(3) : 'n/a'} of the pace (target ≥ 0.97)`,
    );
  }
  console.log(`total simulated minutes: ${minutes}`);
  senderDb.destroy();
  dispatcherDb.destroy();
} finally {
  await bench.stop();
}
