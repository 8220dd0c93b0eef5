/** The per-client limit of the public POST routes (http/clientLimit.ts) over the table's allowance counts. */
import { DynamoAllowanceStore } from '../adapters/dynamodb/allowanceStore';
import { clientLimit, type ClientLimit } from '../http/clientLimit';
import type { ServerConfig } from './config';
import { tableOf } from './table';

/** Takes nothing: a test stack's (config.clientLimitsOff). */
const unlimited: ClientLimit = () => Promise.resolve();

export function clientLimitOf(config: ServerConfig): ClientLimit {
  if (config.clientLimitsOff) return unlimited;
  const { db, name } = tableOf(config);
  return clientLimit({ allowances: new DynamoAllowanceStore(db, name), originSecret: config.originVerifySecret });
}
