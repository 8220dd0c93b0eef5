/**
 * The user's counter items (schema/ACCESS_PATTERNS.md "counters"): the updates each event puts into
 * its own transaction, so a counter moves exactly when the event's log does. No condition on them:
 * the event's own condition (a first open, a claim still held, an address not yet unsubscribed)
 * decides whether the whole transaction, counters included, happens.
 */
import { key } from '../../../schema/table';
import { counterDay, DAY_COUNTERS, type TotalCounter } from '../../core/counters';
import { update, type TransactItem } from './sending/transaction';

export const COUNTER_ENTITY = 'counters';

export const statsTotalsKey = (userId: string) => ({ PK: key.user(userId), SK: key.statsTotals() });
export const statsDayKey = (userId: string, day: string) => ({ PK: key.user(userId), SK: key.statsDay(day) });
export const linkClicksKey = (campaignId: string, index: number) => ({ PK: key.campaignPartition(campaignId), SK: key.linkClicks(index) });

export type CounterChange = Partial<Record<TotalCounter, number>>;

/** The counter item's update: its entity and `set`'s attributes set, `change`'s counters added. */
function addUpdate(tableName: string, itemKey: Record<string, string>, change: CounterChange, set: Record<string, string>): TransactItem {
  const counters = Object.entries(change).filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] !== 0);
  const setNames = Object.keys(set);
  return update(tableName, itemKey, {
    set: ['entity = :entity', ...setNames.map((name) => `#${name} = :${name}`)],
    add: counters.map(([name], i) => `${name} :n${i}`),
    names: Object.fromEntries(setNames.map((name) => [`#${name}`, name])),
    values: {
      ':entity': COUNTER_ENTITY,
      ...Object.fromEntries(Object.entries(set).map(([name, value]) => [`:${name}`, value])),
      ...Object.fromEntries(counters.map(([, n], i) => [`:n${i}`, n])),
    },
  });
}

/** The totals item's update alone: for a change of counters kept on the totals only (`contacts_count`). */
export const statsTotalsUpdate = (tableName: string, userId: string, change: CounterChange): TransactItem =>
  addUpdate(tableName, statsTotalsKey(userId), change, {});

/**
 * The totals item's update and, when counters kept per day change (DAY_COUNTERS), the Pacific day's
 * (the day of `at`). Put both into the event's transaction.
 */
export function counterUpdates(
  tableName: string,
  userId: string,
  at: Date,
  change: CounterChange,
): { statsTotals: TransactItem; statsDay: TransactItem | undefined } {
  const statsTotals = statsTotalsUpdate(tableName, userId, change);
  const dayChange = Object.fromEntries(Object.entries(change).filter(([name]) => (DAY_COUNTERS as readonly string[]).includes(name)));
  if (Object.keys(dayChange).length === 0) return { statsTotals, statsDay: undefined };
  const day = counterDay(at);
  return { statsTotals, statsDay: addUpdate(tableName, statsDayKey(userId, day), dayChange, { day }) };
}

/** One more click on a campaign's link `index` (its address as sent, for the per-link table). */
export const linkClickUpdate = (tableName: string, campaignId: string, index: number, url: string): TransactItem =>
  addUpdate(tableName, linkClicksKey(campaignId, index), { click_count: 1 }, { url });
