/**
 * cognito-local on 127.0.0.1 with the seeded user pool, app client and `admins` group.
 *
 * - The pool id has the `us-east-1_…` form (cognito-local's CreateUserPool only makes `local_…`
 *   ids, which aws-jwt-verify refuses), so the pool file is written before cognito-local starts; it
 *   loads every `<pool id>.json` in `.cognito/db`.
 * - Tokens carry the issuer real Cognito would use (`https://cognito-idp.<region>.amazonaws.com/<pool id>`,
 *   via cognito-local's TokenConfig.IssuerDomain), so the local authorizer verifies exactly what
 *   API Gateway verifies; only the JWKS download is pointed at cognito-local (lib/local/jwt.ts).
 * - cognito-local puts only `email` and custom attributes in the ID token, where Cognito also puts
 *   standard attributes such as `name`. A PreTokenGeneration "Lambda" served here, on a loopback
 *   port cognito-local calls through its LambdaClient endpoint, adds them back.
 * - cognito-local answers any origin and checks no credentials, so it runs behind
 *   lib/local/cognito-guard.mjs (installed by lib/local/cognito-child.mjs): browsers may call it
 *   only from the web app's origin, and never the Admin* or management actions.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AdminAddUserToGroupCommand,
  AdminConfirmSignUpCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  GetGroupCommand,
  ListUserPoolClientsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { LOCAL_CREDENTIALS, localCredentials } from '../../lambdas/adapters/dynamodb/client';
import { ADMIN_GROUP } from '../../schema/routes';
import { isNamed, LocalStackError } from './errors';
import { LOOPBACK } from './net';
import { cognitoChildScript } from './paths';
import { spawnEngine, type EngineProcess } from './processes';

export const LOCAL_REGION = 'us-east-1';
/** Fixed, so persisted local data keeps working across restarts. */
export const LOCAL_USER_POOL_ID = `${LOCAL_REGION}_TrackpitchLocal`;
export const WEB_CLIENT_NAME = 'trackpitch-web';
const PRE_TOKEN_FUNCTION = 'trackpitch-local-pre-token-generation';

/** The issuer real Cognito puts in its tokens; cognito-local is configured to use it too. */
export const cognitoIssuer = (userPoolId: string, region = LOCAL_REGION) => `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`;

export interface CognitoLocalOptions {
  /** 0 = any free port. */
  port: number;
  /** cognito-local's working directory: it keeps `.cognito/` here. */
  dir: string;
  logFile: string;
  userPoolId?: string;
  timeoutMs?: number;
  /**
   * The web app's origins (http://127.0.0.1:<port>, http://localhost:<port>): the only pages that
   * may call cognito-local from a browser (lib/local/cognito-guard.mjs).
   */
  appOrigins: string[];
}

export interface CognitoLocal {
  endpoint: string;
  port: number;
  userPoolId: string;
  process: EngineProcess;
  stop(): Promise<void>;
}

/** OIDC standard claims Cognito copies from user attributes into the ID token. */
const STANDARD_ID_TOKEN_CLAIMS = [
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'phone_number',
  'address',
  'updated_at',
];

interface PreTokenEvent {
  request?: { userAttributes?: Record<string, string> };
  response?: unknown;
}

/** The PreTokenGeneration answer: the standard attributes the user has, as ID token claims. */
export function preTokenGenerationResponse(event: PreTokenEvent) {
  const attributes = event.request?.userAttributes ?? {};
  const claims = Object.fromEntries(
    STANDARD_ID_TOKEN_CLAIMS.flatMap((name) => {
      const value = attributes[name];
      return typeof value === 'string' && value !== '' ? [[name, value]] : [];
    }),
  );
  return { ...event, response: { claimsOverrideDetails: { claimsToAddOrOverride: claims } } };
}

/** A loopback server answering the Lambda Invoke API for the PreTokenGeneration trigger. */
export async function startTriggerServer(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const ok = req.method === 'POST' && req.url?.startsWith(`/2015-03-31/functions/${PRE_TOKEN_FUNCTION}/invocations`);
      if (!ok) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Function not found' }));
        return;
      }
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as PreTokenEvent;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(preTokenGenerationResponse(event)));
      } catch {
        res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' }).end(JSON.stringify({ errorMessage: 'Invalid event' }));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('trigger server has no port');
  return {
    endpoint: `http://${LOOPBACK}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes cognito-local's config (every start: ports may change) and the pool file (once). */
export function writeCognitoFiles(dir: string, options: { port: number; userPoolId: string; triggerEndpoint: string }) {
  const configDir = join(dir, '.cognito');
  const dbDir = join(configDir, 'db');
  mkdirSync(dbDir, { recursive: true });
  const config = {
    ServerConfig: { hostname: LOOPBACK, port: options.port },
    TokenConfig: { IssuerDomain: `https://cognito-idp.${LOCAL_REGION}.amazonaws.com` },
    UserPoolDefaults: { UsernameAttributes: ['email'] },
    TriggerFunctions: { PreTokenGeneration: PRE_TOKEN_FUNCTION },
    LambdaClient: {
      endpoint: options.triggerEndpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
      maxRetries: 0,
    },
  };
  writeFileSync(join(configDir, 'config.json'), JSON.stringify(config, null, 2));
  const poolFile = join(dbDir, `${options.userPoolId}.json`);
  if (!existsSync(poolFile)) {
    // Options left out: cognito-local then uses its AWS defaults (schema, password policy) with this Id.
    writeFileSync(poolFile, JSON.stringify({ Users: {}, Groups: {} }, null, 2));
  }
}

export async function startCognitoLocal(options: CognitoLocalOptions & { triggerEndpoint: string }): Promise<CognitoLocal> {
  const userPoolId = options.userPoolId ?? LOCAL_USER_POOL_ID;
  writeCognitoFiles(options.dir, { port: options.port, userPoolId, triggerEndpoint: options.triggerEndpoint });
  const engine = spawnEngine('cognito-local', process.execPath, [cognitoChildScript], {
    cwd: options.dir,
    env: {
      ...process.env,
      HOST: LOOPBACK,
      PORT: String(options.port),
      NO_COLOR: '1',
      TRACKPITCH_APP_ORIGIN: options.appOrigins.join(','),
      // Its AWS SDK v2 must never reach a real AWS account from here.
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1',
    },
    logFile: options.logFile,
  });
  let port: number;
  try {
    const match = await engine.waitForLine(/Cognito Local running on https?:\/\/[^\s:]+:(\d+)/, options.timeoutMs ?? 60_000);
    port = Number(match[1]);
  } catch (error) {
    await engine.stop(500);
    if (/EADDRINUSE/.test(engine.tail(40))) {
      throw new LocalStackError(
        `Port ${options.port} (cognito-local) is already in use. Stop what uses it, or choose another port with COGNITO_PORT=<port> npm start.`,
      );
    }
    throw new Error(`${(error as Error).message}\n${engine.tail()}\n(full log: ${options.logFile})`, { cause: error });
  }
  return {
    endpoint: `http://${LOOPBACK}:${port}`,
    port,
    userPoolId,
    process: engine,
    stop: () => engine.stop(),
  };
}

export function makeCognitoClient(endpoint: string) {
  return new CognitoIdentityProviderClient({
    region: LOCAL_REGION,
    endpoint,
    credentials: localCredentials(),
    maxAttempts: 2,
  });
}

/** The web app client (created once) and the `admins` group; returns the client id. */
export async function seedUserPool(client: CognitoIdentityProviderClient, userPoolId: string): Promise<string> {
  const { UserPoolClients } = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
  let clientId = UserPoolClients?.find((c) => c.ClientName === WEB_CLIENT_NAME)?.ClientId;
  if (!clientId) {
    const created = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: WEB_CLIENT_NAME,
        GenerateSecret: false,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_SRP_AUTH'],
        // Cognito's defaults: one hour for ID and access tokens, 30 days for the refresh token.
        IdTokenValidity: 60,
        AccessTokenValidity: 60,
        RefreshTokenValidity: 30,
        TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'days' },
      }),
    );
    clientId = created.UserPoolClient?.ClientId;
  }
  if (!clientId) throw new Error('cognito-local did not return an app client id');
  try {
    await client.send(new GetGroupCommand({ UserPoolId: userPoolId, GroupName: ADMIN_GROUP }));
  } catch (error) {
    if (!isNamed(error, 'ResourceNotFoundException')) throw error;
    await client.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: ADMIN_GROUP, Description: 'Trackpitch administrators' }));
  }
  return clientId;
}

export interface AdminAccount {
  email: string;
  password: string;
  name: string;
}

/** Creates (or resets the password of) the local admin account and puts it in the `admins` group. */
export async function ensureAdminUser(client: CognitoIdentityProviderClient, userPoolId: string, admin: AdminAccount) {
  let exists = true;
  try {
    await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: admin.email }));
  } catch (error) {
    if (!isNamed(error, 'UserNotFoundException')) throw error;
    exists = false;
  }
  if (exists) await client.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: admin.email, Password: admin.password, Permanent: true }));
  else await createConfirmedUser(client, userPoolId, admin);
  await client.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: admin.email, GroupName: ADMIN_GROUP }));
}

/**
 * A confirmed account with a verified email and a permanent password, no email sent: the same admin
 * calls work on Cognito itself (the smoke test's disposable user on a deployed pool, scripts/smoke/).
 */
export async function createConfirmedUser(client: CognitoIdentityProviderClient, userPoolId: string, account: AdminAccount): Promise<void> {
  await client.send(
    new AdminCreateUserCommand({
      UserPoolId: userPoolId,
      Username: account.email,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: account.email },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'name', Value: account.name },
      ],
    }),
  );
  await client.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: account.email, Password: account.password, Permanent: true }));
}

/**
 * Confirms a just-signed-up account (DESIGN §1 "Local decisions"): what the emailed code does in
 * AWS, including marking the email verified. Returns 'confirmed', 'already-confirmed' or 'not-found'.
 */
export async function confirmSignUp(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  email: string,
): Promise<'confirmed' | 'already-confirmed' | 'not-found'> {
  let status: string | undefined;
  try {
    ({ UserStatus: status } = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email })));
  } catch (error) {
    if (isNamed(error, 'UserNotFoundException')) return 'not-found';
    throw error;
  }
  if (status !== 'UNCONFIRMED') return 'already-confirmed';
  await client.send(new AdminConfirmSignUpCommand({ UserPoolId: userPoolId, Username: email }));
  await client.send(
    new AdminUpdateUserAttributesCommand({
      UserPoolId: userPoolId,
      Username: email,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
    }),
  );
  return 'confirmed';
}

/** The part of cognito-local's pool file (`.cognito/db/<pool id>.json`) the reset code is read from. */
interface StoredPool {
  Users?: Record<string, { Username?: string; ConfirmationCode?: string; Attributes?: { Name: string; Value?: string }[] }>;
}

/**
 * The code cognito-local keeps after ForgotPassword for `email` (null when it has none): locally no
 * email is sent, so the page shows it (POST /local/reset-code). cognito-local saves its pool file
 * before it answers ForgotPassword, and finds the user as it does (user name, then email).
 */
export function pendingResetCode(dir: string, userPoolId: string, email: string): string | null {
  let pool: StoredPool;
  try {
    pool = JSON.parse(readFileSync(join(dir, '.cognito', 'db', `${userPoolId}.json`), 'utf8')) as StoredPool;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const wanted = email.trim().toLowerCase();
  const user = Object.values(pool.Users ?? {}).find(
    (candidate) => candidate.Username?.toLowerCase() === wanted || candidate.Attributes?.some((a) => a.Name === 'email' && a.Value?.toLowerCase() === wanted),
  );
  return user?.ConfirmationCode ?? null;
}
