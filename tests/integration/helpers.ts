/**
 * Integration helpers: the shared stack's endpoints, real cognito-local accounts and tokens
 * (sign up, admin confirm, USER_PASSWORD_AUTH), and requests to the local server.
 */
import { randomUUID } from 'node:crypto';
import {
  AdminConfirmSignUpCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import type { IntegrationStack } from './globalSetup';

export const stack = (): IntegrationStack => inject('localStack');

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

let cognitoClient: CognitoIdentityProviderClient | undefined;
export function cognito(): CognitoIdentityProviderClient {
  cognitoClient ??= new CognitoIdentityProviderClient({
    region: stack().region,
    endpoint: stack().cognitoEndpoint,
    credentials: LOCAL_CREDENTIALS,
  });
  return cognitoClient;
}

let dynamo: { client: DynamoDBClient; doc: DynamoDBDocumentClient } | undefined;
export function dynamodb() {
  if (!dynamo) {
    const client = new DynamoDBClient({ region: stack().region, endpoint: stack().dynamoEndpoint, credentials: LOCAL_CREDENTIALS });
    dynamo = { client, doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }) };
  }
  return dynamo;
}

export interface Tokens {
  idToken: string;
  accessToken: string;
  refreshToken: string;
}

export interface TestUser extends Tokens {
  email: string;
  password: string;
  name: string;
  sub: string;
}

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@example.com`;
export const TEST_PASSWORD = 'Test-password-1';

export async function signIn(email: string, password: string, clientId = stack().userPoolClientId): Promise<Tokens> {
  const { AuthenticationResult: result } = await cognito().send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  if (!result?.IdToken || !result.AccessToken || !result.RefreshToken) throw new Error('cognito-local returned no tokens');
  return { idToken: result.IdToken, accessToken: result.AccessToken, refreshToken: result.RefreshToken };
}

/** Signs up without confirming (the state a new account is in before the local confirmation). */
export async function signUp(options: { email?: string; name?: string; password?: string } = {}) {
  const email = options.email ?? uniqueEmail();
  const name = options.name ?? 'Test Artist';
  const password = options.password ?? TEST_PASSWORD;
  const { UserSub } = await cognito().send(
    new SignUpCommand({
      ClientId: stack().userPoolClientId,
      Username: email,
      Password: password,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'name', Value: name },
      ],
    }),
  );
  return { email, name, password, sub: UserSub! };
}

/** A confirmed account with fresh tokens: sign up, AdminConfirmSignUp, USER_PASSWORD_AUTH. */
export async function createUser(options: { email?: string; name?: string } = {}): Promise<TestUser> {
  const user = await signUp(options);
  await cognito().send(new AdminConfirmSignUpCommand({ UserPoolId: stack().userPoolId, Username: user.email }));
  return { ...user, ...(await signIn(user.email, user.password)) };
}

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
  return signIn(user.email, user.password, UserPoolClient!.ClientId!);
}

export interface ApiOptions {
  method?: string;
  token?: string;
  /** Sent as JSON unless a string (sent as is, with content-type application/json). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A request to the local server; `path` starts with `/`. */
export async function call(path: string, options: ApiOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${stack().appUrl}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json as Record<string, unknown> | undefined };
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
