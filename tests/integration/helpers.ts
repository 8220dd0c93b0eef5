/**
 * Integration helpers: the shared stack's endpoints, real cognito-local accounts and tokens
 * (tests/support/accounts.ts: sign up, AdminConfirmSignUp, USER_PASSWORD_AUTH), and requests to
 * the local server.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { CreateUserPoolClientCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { inject } from 'vitest';
import { makeDynamoClients } from '../../lib/local/dynamodb';
import { makeAuthorizer } from '../../lib/local/jwt';
import { importHandler, startLocalServer, type LambdaHandler, type LocalServer, type LocalServerOptions } from '../../lib/local/server';
import { localServerConfig } from '../../lib/local/stack';
import { runtimeConfigSchema } from '../../schema/api/runtimeConfig';
import type { HandlerGroup } from '../../schema/routes';
import { accounts, type Accounts, type NewAccount, type Tokens } from '../support/accounts';
import type { IntegrationStack } from './globalSetup';

export { TEST_PASSWORD, uniqueEmail, type Tokens } from '../support/accounts';

export const stack = (): IntegrationStack => inject('localStack');

/** The configuration the shared stack builds its handlers with (for importHandler in a test's own server). */
export const stackConfig = () => {
  const { tableName, region, dynamoEndpoint, appUrl, userPoolId, cognitoEndpoint } = stack();
  return localServerConfig({ tableName, region, dynamoEndpoint, appUrl, cognito: { userPoolId, endpoint: cognitoEndpoint } });
};

let sharedAccounts: Accounts | undefined;
/** The shared stack's accounts; a new account is confirmed with AdminConfirmSignUp. */
function stackAccounts(): Accounts {
  sharedAccounts ??= accounts({
    cognitoEndpoint: stack().cognitoEndpoint,
    userPoolClientId: stack().userPoolClientId,
    confirm: { via: 'admin', userPoolId: stack().userPoolId },
  });
  return sharedAccounts;
}

export const cognito = (): CognitoIdentityProviderClient => stackAccounts().client;

let dynamo: { client: ReturnType<typeof makeDynamoClients>['client']; doc: ReturnType<typeof makeDynamoClients>['documentClient'] } | undefined;
export function dynamodb() {
  if (!dynamo) {
    const { client, documentClient } = makeDynamoClients(stack().dynamoEndpoint, stack().region);
    dynamo = { client, doc: documentClient };
  }
  return dynamo;
}

export interface TestUser extends Tokens {
  email: string;
  password: string;
  name: string;
  sub: string;
}

export const signIn = (email: string, password: string, clientId = stack().userPoolClientId): Promise<Tokens> =>
  stackAccounts().signIn(email, password, clientId);

/** Signs up without confirming (the state a new account is in before the local confirmation). */
export const signUp = (options: Partial<Pick<NewAccount, 'email' | 'name' | 'password'>> = {}) => stackAccounts().signUp(options);

/** A confirmed account with fresh tokens: sign up, AdminConfirmSignUp, USER_PASSWORD_AUTH. */
export const createUser = (options: { email?: string; name?: string } = {}): Promise<TestUser> => stackAccounts().create(options);

export const adminTokens = () => signIn(stack().admin.email, stack().admin.password);

/** A second app client of the same pool: its tokens are genuine but meant for another audience. */
export async function otherClientTokens(user: { email: string; password: string }): Promise<Tokens> {
  const { UserPoolClient } = await cognito().send(
    new CreateUserPoolClientCommand({
      UserPoolId: stack().userPoolId,
      ClientName: `other-${randomUUID().slice(0, 8)}`,
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    }),
  );
  return signIn(user.email, user.password, UserPoolClient!.ClientId);
}

export interface ApiOptions {
  method?: string;
  token?: string;
  /** Sent as JSON unless a string (sent as is, with content-type application/json). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A request to the shared local server; `path` starts with `/`. */
export const call = (path: string, options: ApiOptions = {}) => callAt(stack().appUrl)(path, options);

/** Requests to the local server at `base` (the shared one, or one a test started with startServer). */
export const callAt =
  (base: string) =>
  async (path: string, options: ApiOptions = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${base}${path}`, { method: options.method ?? 'GET', headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json: json as Record<string, unknown> | undefined };
  };

/**
 * A local server of a test's own, on a random port, with the shared stack's authorizer and config and
 * the handlers `loadHandler` gives (a fault, a table of its own, a clock that stands still).
 */
export async function startServer(options: Pick<LocalServerOptions, 'loadHandler'> & Partial<LocalServerOptions>): Promise<LocalServer> {
  const s = stack();
  return startLocalServer({
    port: 0,
    webDist: s.webDist,
    runtimeConfig: runtimeConfigSchema.parse((await call('/config.json')).json),
    authorize: makeAuthorizer({ userPoolId: s.userPoolId, userPoolClientId: s.userPoolClientId, cognitoEndpoint: s.cognitoEndpoint }),
    confirmSignUp: () => Promise.resolve('confirmed'),
    region: s.region,
    ...options,
  });
}

/**
 * A server of a test's own serving `group` with `handler` (the other groups as the shared stack does),
 * whose throttle clock moves a second per request: its public routes' buckets never run dry, and the
 * shared server's buckets are left to the other suites.
 */
export function startServerServing(group: HandlerGroup, handler: LambdaHandler): Promise<LocalServer> {
  let throttleClock = 0;
  return startServer({
    loadHandler: async (name) => (name === group ? handler : importHandler(name, stackConfig())),
    now: () => (throttleClock += 1000),
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A request with the path sent exactly as given (fetch and URL would normalise `/../`, `%2e%2e` and
 * the like before sending). `base` is an http://host:port URL.
 */
export function rawRequest(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A port nobody listens on right now (for a stack that must keep its ports across a restart). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
