/**
 * The sending pipeline at scale (issue 6's benchmark), on a fresh in-memory local stack with a fake
 * clock: 1,000 users, each with a connected mailbox and a 100-recipient campaign queued through the
 * send flow's store; then simulated minutes of the real dispatcher (the DUE index query per shard) and
 * the real sender handler on every tick, with a mailer that only records. Prints figures; no assertions.
 * Every DynamoDB request of the dispatcher and the sender is counted by a middleware, and so are the
 * capacity units each consumed (ReturnConsumedCapacity, which DynamoDB Local computes as DynamoDB does):
 * what on-demand bills as read and write request units (docs/deploy.md "Cost per 1,000 emails").
 *
 *   npx tsx bench/sending.ts [users] [recipients] [minutes] [concurrent invocations]
 */
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { makeDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { countRequests, FakeClock, MINUTE_MS, NoopMailer, PipelineWorld } from '../tests/fakes/pipeline';
import { medianOf, p95Of, startBenchStack, valueAt } from './stack';

const users = Number(process.argv[2] ?? 1000);
const recipients = Number(process.argv[3] ?? 100);
/** 100,000 emails do not fit a reasonable wall time on DynamoDB Local: enough minutes for stable per-email figures. */
const minutes = Number(process.argv[4] ?? 3);
/** Sender invocations at a time (Lambda scales out; the local ticker runs one). */
const concurrency = Number(process.argv[5] ?? 20);

const START = new Date('2026-11-21T18:00:00.000Z');

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
        await world.campaignFor(
          user.userId,
          world.contacts(
            user.userId,
            Array.from({ length: recipients }, (_, i) => i),
          ),
        );
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
  for (let minute = 0; minute < minutes; minute++) {
    clock.set(START.getTime() + minute * MINUTE_MS);
    const t = performance.now();
    dispatched += await world.dispatch();
    tickMs.push(performance.now() - t);
    const s = performance.now();
    await world.deliver({ concurrency });
    sendingMs += performance.now() - s;
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
  console.log(`total simulated minutes: ${minutes}`);
  senderDb.destroy();
  dispatcherDb.destroy();
} finally {
  await bench.stop();
}
