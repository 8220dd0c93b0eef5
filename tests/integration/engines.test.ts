/**
 * The engines are not reachable from the web pages the developer visits: DynamoDB Local lets no
 * browser origin read its answers (`-cors`), and cognito-local (behind lib/local/cognito-guard.mjs)
 * refuses every browser origin but the web app's, and the Admin* and management actions from any
 * browser, while the web app's own calls and the runtime's server-side calls keep working.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminGetUserCommand, ListUsersCommand } from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import { NO_BROWSER_ORIGIN, startDynamoDbLocal } from '../../lib/local/dynamodb';
import { processInfo } from '../../lib/local/pidfile';
import { PASSWORD_RULE_MESSAGE } from '../../schema/passwordRule.mjs';
import { call, cognito, createUser, rawRequest, signIn, stack, uniqueEmail, type RawResponse } from './helpers';

const FOREIGN = 'https://evil.example';
const appOrigin = () => stack().appUrl; // http://127.0.0.1:<port>
const appLocalhostOrigin = () => stack().appUrl.replace('127.0.0.1', 'localhost');

const preflightHeaders = (origin: string, headers: string) => ({
  origin,
  'access-control-request-method': 'POST',
  'access-control-request-headers': headers,
});

describe('DynamoDB Local', () => {
  const listTables = (endpoint: string, origin: string) =>
    rawRequest(endpoint, '/', {
      method: 'POST',
      headers: {
        origin,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.ListTables',
        authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: '{}',
    });
  const preflight = (endpoint: string, origin: string) =>
    rawRequest(endpoint, '/', { method: 'OPTIONS', headers: preflightHeaders(origin, 'authorization,content-type,x-amz-target') });

  it('is started with a CORS allow-list no browser origin is on', () => {
    const { argv } = processInfo(stack().pids.dynamodb);
    expect(argv).toBeDefined();
    const at = argv!.indexOf('-cors');
    expect(at, argv!.join(' ')).toBeGreaterThan(-1);
    expect(argv![at + 1]).toBe(NO_BROWSER_ORIGIN);
    expect(NO_BROWSER_ORIGIN).not.toMatch(/^[a-z][a-z0-9+.-]*:\/\//i); // not a serialized origin
  });

  it('lets neither a foreign page nor the app read its answers (preflight and request)', async () => {
    for (const origin of [FOREIGN, appOrigin(), 'null']) {
      const pre = await preflight(stack().dynamoEndpoint, origin);
      expect(pre.headers['access-control-allow-origin'], `preflight from ${origin}`).toBeUndefined();
      const post = await listTables(stack().dynamoEndpoint, origin);
      expect(post.status).toBe(200); // DynamoDB Local checks no origin; the browser is just not let read the answer
      expect(post.headers['access-control-allow-origin'], `request from ${origin}`).toBeUndefined();
    }
  });

  it('does allow an origin on its list (control: the checks above can see CORS)', { timeout: 60_000 }, async () => {
    const logDir = mkdtempSync(join(tmpdir(), 'trackpitch-cors-'));
    const engine = await startDynamoDbLocal({ port: 0, logFile: join(logDir, 'dynamodb.log'), corsOrigins: ['https://allowed.example'] });
    try {
      expect((await preflight(engine.endpoint, 'https://allowed.example')).headers['access-control-allow-origin']).toBe('https://allowed.example');
      expect((await listTables(engine.endpoint, 'https://allowed.example')).headers['access-control-allow-origin']).toBe('https://allowed.example');
      expect((await preflight(engine.endpoint, FOREIGN)).headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await engine.stop();
      rmSync(logDir, { recursive: true, force: true });
    }
  });
});

describe('cognito-local', () => {
  const action = (name: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> =>
    rawRequest(stack().cognitoEndpoint, '/', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': name.includes('.') ? name : `AWSCognitoIdentityProviderService.${name}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const json = (response: RawResponse) => JSON.parse(response.text) as { __type?: string; message?: string };
  const signUpBody = (email: string) => ({
    ClientId: stack().userPoolClientId,
    Username: email,
    Password: 'Test-password-1',
    UserAttributes: [
      { Name: 'email', Value: email },
      { Name: 'name', Value: 'Guard Test' },
    ],
  });
  const userExists = async (email: string) =>
    cognito()
      .send(new AdminGetUserCommand({ UserPoolId: stack().userPoolId, Username: email }))
      .then(
        () => true,
        (error: unknown) => {
          if (error instanceof Error && error.name === 'UserNotFoundException') return false;
          throw error;
        },
      );

  it("answers the app's preflight and refuses a foreign page's", async () => {
    const headers = 'content-type,x-amz-target,x-amz-user-agent';
    const own = await rawRequest(stack().cognitoEndpoint, '/', { method: 'OPTIONS', headers: preflightHeaders(appOrigin(), headers) });
    expect(own.status).toBeLessThan(300);
    expect(own.headers['access-control-allow-origin']).toBeDefined();

    for (const origin of [FOREIGN, 'null', 'http://127.0.0.1:1']) {
      const foreign = await rawRequest(stack().cognitoEndpoint, '/', { method: 'OPTIONS', headers: preflightHeaders(origin, headers) });
      expect(foreign.status, origin).toBe(403);
      expect(foreign.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('lets the app (both of its host names) sign up and sign in from the browser', async () => {
    const email = uniqueEmail('guard-app');
    const signUp = await action('SignUp', signUpBody(email), { origin: appOrigin() });
    expect(signUp.status, signUp.text).toBe(200);
    expect(signUp.headers['access-control-allow-origin']).toBeDefined();
    expect(await userExists(email)).toBe(true);

    const signIn = await action(
      'InitiateAuth',
      { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack().userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: 'Test-password-1' } },
      { origin: appLocalhostOrigin() },
    );
    expect(signIn.status).toBe(400); // through the guard; cognito-local's own answer
    expect(json(signIn).__type).toBe('UserNotConfirmedException');
  });

  it('refuses any call from a foreign page, and does nothing', async () => {
    const email = uniqueEmail('guard-foreign');
    for (const origin of [FOREIGN, 'null', appOrigin().replace(/:\d+$/, ':1')]) {
      const response = await action('SignUp', signUpBody(email), { origin });
      expect(response.status, origin).toBe(403);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(json(response).__type).toBe('AccessDeniedException');
    }
    expect(await userExists(email)).toBe(false);
  });

  it('refuses Admin* and management actions from any browser origin, even the app', async () => {
    const email = uniqueEmail('guard-admin');
    const create = {
      UserPoolId: stack().userPoolId,
      Username: email,
      MessageAction: 'SUPPRESS',
      UserAttributes: [{ Name: 'email', Value: email }],
    };
    for (const origin of [appOrigin(), appLocalhostOrigin(), FOREIGN]) {
      for (const target of ['AdminCreateUser', 'Anything.AdminCreateUser', 'AWSCognitoIdentityProviderService.adminCreateUser']) {
        const response = await action(target, create, { origin });
        expect(response.status, `${target} from ${origin}`).toBe(403);
      }
      const list = await action('ListUsers', { UserPoolId: stack().userPoolId }, { origin });
      expect(list.status, `ListUsers from ${origin}`).toBe(403);
      expect(list.text).not.toContain(stack().admin.email);
      const setPassword = await action(
        'AdminSetUserPassword',
        { UserPoolId: stack().userPoolId, Username: stack().admin.email, Password: 'Taken-over-1', Permanent: true },
        { origin },
      );
      expect(setPassword.status).toBe(403);
    }
    expect(await userExists(email)).toBe(false);
  });

  it('serves the same actions to server-side calls (no Origin)', async () => {
    const { Users } = await cognito().send(new ListUsersCommand({ UserPoolId: stack().userPoolId }));
    expect(Users?.some((user) => user.Attributes?.some((a) => a.Name === 'email' && a.Value === stack().admin.email))).toBe(true);
    const response = await action('AdminGetUser', { UserPoolId: stack().userPoolId, Username: stack().admin.email });
    expect(response.status).toBe(200);
  });

  it("refuses a password that breaks the app's rule at sign-up, with the rule's message (Cognito's InvalidPasswordException)", async () => {
    for (const password of ['short', 'password', 'abc', 'Abcdefghij1', 'abcdefgh-1', 'ABCDEFGH-1', 'Abcdefghij-', 'Abc-1234']) {
      const email = uniqueEmail('guard-weak');
      const response = await action('SignUp', { ...signUpBody(email), Password: password }, { origin: appOrigin() });
      expect(response.status, password).toBe(400);
      expect(json(response), password).toEqual({ __type: 'InvalidPasswordException', message: PASSWORD_RULE_MESSAGE });
      // The page reads the answer: the CORS header cognito-local would add is there.
      expect(response.headers['access-control-allow-origin'], password).toBeDefined();
      expect(await userExists(email), password).toBe(false);
    }
    // Server-side calls (no Origin) follow the same rule.
    const email = uniqueEmail('guard-weak-sdk');
    const response = await action('SignUp', { ...signUpBody(email), Password: 'password' });
    expect(json(response).__type).toBe('InvalidPasswordException');
    expect(await userExists(email)).toBe(false);
  });

  it('answers a wrong password and an unknown email alike (NotAuthorizedException), as the AWS pool does', async () => {
    const user = await createUser();
    const signInWith = (email: string, password: string) =>
      action(
        'InitiateAuth',
        { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack().userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } },
        { origin: appOrigin() },
      );
    const wrongPassword = await signInWith(user.email, 'Wrong-password-1');
    const unknownEmail = await signInWith(uniqueEmail('nobody'), 'Wrong-password-1');
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.status).toBe(400);
      expect(json(response)).toEqual({ __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
      expect(response.headers['access-control-allow-origin']).toBeDefined();
    }
    expect((await signInWith(user.email, user.password)).status).toBe(200);
  });

  it('resets a password with the code the local server shows, under the same rule; an unknown email is not revealed', async () => {
    const user = await createUser();
    const unknown = uniqueEmail('nobody');
    const forgot = (email: string) => action('ForgotPassword', { ClientId: stack().userPoolClientId, Username: email }, { origin: appOrigin() });
    const known = await forgot(user.email);
    const stranger = await forgot(unknown);
    expect(known.status, known.text).toBe(200);
    expect(stranger.status, stranger.text).toBe(200);
    expect(JSON.parse(known.text)).toEqual({
      CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: `${user.email[0]}***@e***` },
    });
    expect(JSON.parse(stranger.text)).toEqual({
      CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: `${unknown[0]}***@e***` },
    });

    const resetCode = await call('/local/reset-code', { method: 'POST', body: { email: user.email }, headers: { origin: appOrigin() } });
    expect(resetCode.status).toBe(200);
    const code = resetCode.json?.code;
    expect(code).toMatch(/^\d{6}$/);
    expect((await call('/local/reset-code', { method: 'POST', body: { email: unknown } })).json).toEqual({ code: null });
    expect((await call('/local/reset-code', { method: 'POST', body: { email: user.email }, headers: { origin: FOREIGN } })).status).toBe(403);

    const confirm = (email: string, confirmationCode: unknown, password: string) =>
      action(
        'ConfirmForgotPassword',
        { ClientId: stack().userPoolClientId, Username: email, ConfirmationCode: confirmationCode, Password: password },
        { origin: appOrigin() },
      );
    const weak = await confirm(user.email, code, 'password');
    expect(json(weak)).toEqual({ __type: 'InvalidPasswordException', message: PASSWORD_RULE_MESSAGE });
    expect(json(await confirm(user.email, '000000' === code ? '111111' : '000000', 'New-password-2')).__type).toBe('CodeMismatchException');
    expect(json(await confirm(unknown, code, 'New-password-2'))).toEqual({
      __type: 'CodeMismatchException',
      message: 'Invalid verification code provided, please try again.',
    });

    expect((await confirm(user.email, code, 'New-password-2')).status).toBe(200);
    await expect(signIn(user.email, 'New-password-2')).resolves.toBeDefined();
    await expect(signIn(user.email, user.password)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });

  it('refuses another host name (DNS rebinding)', async () => {
    const response = await action('ListUsers', { UserPoolId: stack().userPoolId }, { host: 'attacker.example' });
    expect(response.status).toBe(403);
  });
});
