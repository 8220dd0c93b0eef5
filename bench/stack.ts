/**
 * What every benchmark starts from: an in-memory local stack (the same as npm start, random ports), a
 * document client on its table, and real accounts confirmed as the web app confirms them.
 */
import { makeDynamoClients } from '../lib/local/dynamodb';
import { startLocalStack, type LocalStackOptions } from '../lib/local/stack';
import { accounts } from '../tests/support/accounts';

export async function startBenchStack(options: LocalStackOptions = {}) {
  const started = Date.now();
  const stack = await startLocalStack(options);
  console.log(`in-memory local stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const { client, documentClient: db } = makeDynamoClients(stack.dynamoEndpoint, stack.region);
  const users = accounts({
    cognitoEndpoint: stack.cognitoEndpoint,
    userPoolClientId: stack.userPoolClientId,
    confirm: { via: 'local-server', appUrl: stack.appUrl },
  });
  return {
    stack,
    db,
    users,
    async stop() {
      users.close();
      client.destroy();
      await stack.stop();
    },
  };
}

/** values.at(index), failing loudly when there is none (an empty run). */
export function valueAt<T>(values: readonly T[], index: number): T {
  const value = values.at(index);
  if (value === undefined) throw new Error(`no value at index ${index} of ${values.length}`);
  return value;
}

export const medianOf = (values: readonly number[]) =>
  valueAt(
    [...values].sort((a, b) => a - b),
    Math.floor(values.length / 2),
  );

/** The value 95 % of the runs are at or under (nearest rank). */
export const p95Of = (values: readonly number[]) =>
  valueAt(
    [...values].sort((a, b) => a - b),
    Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1),
  );
