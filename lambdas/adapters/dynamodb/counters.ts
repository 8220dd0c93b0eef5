/**
 * The user's counter items (schema/ACCESS_PATTERNS.md "counters"): the updates each event puts into
 * its own transaction, so a counter moves exactly when the event's log does. No condition on them:
 * the event's own condition (a first open, a claim still held, an address not yet unsubscribed)
 * decides whether the whole transaction, counters included, happens.
 */
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { key } from '../../../schema/table';
import { counterDay, EMAIL_COUNTERS, type EmailCounter, type EventCounter } from '../../core/counters';

export type CounterTransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const COUNTER_ENTITY = 'counters';

export const statsTotalsKey = (userId: string) => ({ PK: key.user(userId), SK: key.statsTotals() });
export const statsDayKey = (userId: string, day: string) => ({ PK: key.user(userId), SK: key.statsDay(day) });
export const linkClicksKey = (campaignId: string, index: number) => ({ PK: key.campaignPartition(campaignId), SK: key.linkClicks(index) });

export type CounterChange = Partial<Record<EmailCounter | EventCounter, number>>;

function addUpdate(tableName: string, itemKey: Record<string, string>, change: CounterChange, set: Record<string, string>): CounterTransactItem {
  const counters = Object.entries(change).filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] !== 0);
  const values: Record<string, unknown> = { ':entity': COUNTER_ENTITY };
  const names: Record<string, string> = {};
  const setClauses = ['entity = :entity'];
  for (const [name, value] of Object.entries(set)) {
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    setClauses.push(`#${name} = :${name}`);
  }
  counters.forEach(([, n], i) => (values[`:n${i}`] = n));
  return {
    Update: {
      TableName: tableName,
      Key: itemKey,
      UpdateExpression: `SET ${setClauses.join(', ')} ADD ${counters.map(([name], i) => `${name} :n${i}`).join(', ')}`,
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The totals item's update and, when email counters change, the Pacific day's (the day of `at`).
 * Put both into the event's transaction.
 */
export function counterUpdates(
  tableName: string,
  userId: string,
  at: Date,
  change: CounterChange,
): { statsTotals: CounterTransactItem; statsDay: CounterTransactItem | undefined } {
  const statsTotals = addUpdate(tableName, statsTotalsKey(userId), change, {});
  const dayChange = Object.fromEntries(Object.entries(change).filter(([name]) => (EMAIL_COUNTERS as readonly string[]).includes(name)));
  if (Object.keys(dayChange).length === 0) return { statsTotals, statsDay: undefined };
  const day = counterDay(at);
  return { statsTotals, statsDay: addUpdate(tableName, statsDayKey(userId, day), dayChange, { day }) };
}

/** One more click on a campaign's link `index` (its address as sent, for the per-link table). */
export const linkClickUpdate = (tableName: string, campaignId: string, index: number, url: string): CounterTransactItem =>
  addUpdate(tableName, linkClicksKey(campaignId, index), { click_count: 1 }, { url });
