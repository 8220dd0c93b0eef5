/** The insights group's adapters: reads only (its Lambda may only read the table: lib/cloud/tableGrants.ts). */
import { systemClock } from '../adapters/clock';
import { DynamoInsightsStore } from '../adapters/dynamodb/insightsStore';
import { DynamoProfileStore } from '../adapters/dynamodb/profileStore';
import type { InsightsDeps } from '../http/insights';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function insightsDeps(config: ServerConfig): InsightsDeps {
  const { db, name } = tableOf(config);
  return {
    insights: new DynamoInsightsStore(db, name),
    profiles: new DynamoProfileStore(db, name),
    clock: systemClock,
  };
}
