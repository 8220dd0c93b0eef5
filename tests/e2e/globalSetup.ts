import { existsSync } from 'node:fs';
import { startLocalStack } from '../../lib/local/stack';
import { defaultWebDist } from '../../lib/local/paths';

const FOLLOW_UP_DAY_SECONDS = 40;

/** One fresh in-memory stack for the browser run; its URL and admin account reach the workers by env. */
export default async function globalSetup() {
  if (!existsSync(defaultWebDist)) throw new Error('web/dist is missing: run `npm run build:web` first (npm test does).');
  // The ticker sends every second, so the sending test sees its emails arrive in seconds. A follow-up's
  // day is 40 s: long enough for a recipient to answer and the artist to mark a reply first on a busy
  // machine, short enough for follow-ups.spec.ts to see a step go.
  const stack = await startLocalStack({ ticker: true, sendIntervalSeconds: 1, followUpDaySeconds: FOLLOW_UP_DAY_SECONDS, clientLimits: false });
  process.env.E2E_FOLLOW_UP_DAY_SECONDS = String(FOLLOW_UP_DAY_SECONDS);
  process.env.E2E_BASE_URL = stack.appUrl;
  process.env.E2E_ADMIN_EMAIL = stack.admin.email;
  process.env.E2E_ADMIN_PASSWORD = stack.admin.password;
  process.env.E2E_COGNITO_ENDPOINT = stack.cognitoEndpoint;
  process.env.E2E_USER_POOL_CLIENT_ID = stack.userPoolClientId;
  // For tests that put a record no API can write (a raw message in the local outbox) straight into the table.
  process.env.E2E_DYNAMODB_ENDPOINT = stack.dynamoEndpoint;
  process.env.E2E_TABLE_NAME = stack.tableName;
  process.env.E2E_REGION = stack.region;
  return async () => stack.stop();
}
