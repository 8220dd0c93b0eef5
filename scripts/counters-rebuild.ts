/**
 * Rebuilds users' counters from their logs (lambdas/adapters/dynamodb/countersBackfill.ts): for
 * accounts from before the counters, or to repair them; and gives the pitch pipeline's items of past
 * sends what the logs say (issue 28 §1). Idempotent: running it again writes the same.
 *
 *   npm run counters:rebuild -- --table trackpitch [--region us-east-1] [--endpoint http://localhost:8000] <user id>...
 *   npm run counters:rebuild -- --table trackpitch --all    (every user with a profile: once, when deploying the counters)
 */
import { parseArgs } from 'node:util';
import { makeDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { profiledUserIds, rebuildCounters, rebuildPipeline } from '../lambdas/adapters/dynamodb/countersBackfill';
import { TABLE_NAME_DEFAULT } from '../schema/table';

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      table: { type: 'string', default: TABLE_NAME_DEFAULT },
      region: { type: 'string', default: 'us-east-1' },
      endpoint: { type: 'string' },
      all: { type: 'boolean', default: false },
    },
  });
  if (positionals.length === 0 && !values.all)
    throw new Error('Usage: npm run counters:rebuild -- [--table name] [--region r] [--endpoint url] (--all | <user id>...)');
  const db = makeDocumentClient({ tableName: values.table, region: values.region, ...(values.endpoint ? { endpoint: values.endpoint } : {}) });
  for await (const userId of values.all ? profiledUserIds(db, values.table) : positionals) {
    const { totals, days } = await rebuildCounters(db, values.table, userId);
    const pitched = await rebuildPipeline(db, values.table, userId);
    console.log(`${userId}: ${JSON.stringify(totals)} over ${days.size} day(s); ${pitched} pipeline item(s) filled in`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
