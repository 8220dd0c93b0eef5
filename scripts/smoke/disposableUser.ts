/**
 * The smoke test's one write: a user made for the run and deleted after it. Created confirmed with the
 * admin API (no email sent, no confirmation code to read), signed in as the web app signs in (Amplify:
 * SRP on a deployed pool, whose web client allows nothing else; USER_PASSWORD_AUTH on cognito-local,
 * which has no SRP), deleted with AdminDeleteUser.
 *
 * On a deployed stack the admin calls use the operator's AWS credentials (the default chain: AWS_PROFILE,
 * environment, SSO) in config.json's region, and need cognito-idp:AdminCreateUser, AdminSetUserPassword
 * and AdminDeleteUser on the pool. Locally they go to cognito-local (config.json's userPoolEndpoint).
 */
import { randomBytes } from 'node:crypto';
import { AdminDeleteUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signIn, signOut } from 'aws-amplify/auth';
import { ConsoleLogger } from 'aws-amplify/utils';
import { createConfirmedUser, makeCognitoClient } from '../../lib/local/cognito';
import type { RuntimeConfig } from '../../schema/api/runtimeConfig';

export interface DisposableUser {
  email: string;
  idToken: string;
  /** Deletes the user; throws when Cognito refuses. */
  delete(): Promise<void>;
}

/** A fresh account on a reserved domain, with a password the pool's policy takes (10+, upper, lower, digit, symbol). */
function newAccount() {
  const tag = randomBytes(6).toString('hex');
  return { email: `smoke-test-${tag}@example.com`, name: 'Trackpitch smoke test', password: `Smoke-1-${randomBytes(12).toString('base64url')}` };
}

function cognitoClient(config: RuntimeConfig): CognitoIdentityProviderClient {
  if (config.mode === 'local') {
    if (!config.userPoolEndpoint) throw new Error('config.json has mode "local" but no userPoolEndpoint');
    return makeCognitoClient(config.userPoolEndpoint);
  }
  return new CognitoIdentityProviderClient({ region: config.region });
}

/** Signs in with the web app's client and flow; resolves with the ID token the API takes. */
async function signInAsTheApp(config: RuntimeConfig, email: string, password: string): Promise<string> {
  // Amplify warns about a custom endpoint (cognito-local): not news in a smoke test's output.
  ConsoleLogger.LOG_LEVEL = 'ERROR';
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: { email: true },
      },
    },
  });
  const result = await signIn({ username: email, password, options: config.mode === 'local' ? { authFlowType: 'USER_PASSWORD_AUTH' } : undefined });
  if (!result.isSignedIn) throw new Error(`sign-in stopped at ${result.nextStep.signInStep}`);
  const { tokens } = await fetchAuthSession();
  const idToken = tokens?.idToken?.toString();
  if (!idToken) throw new Error('sign-in gave no ID token');
  return idToken;
}

/** Creates, confirms and signs in a new user; if any step fails, the user is deleted before the error is thrown. */
export async function createDisposableUser(config: RuntimeConfig): Promise<DisposableUser> {
  const client = cognitoClient(config);
  const account = newAccount();
  const remove = async () => {
    try {
      // Forgets the tokens Amplify keeps in memory, so a next run in this process can sign in again.
      await signOut().catch(() => undefined);
      await client.send(new AdminDeleteUserCommand({ UserPoolId: config.userPoolId, Username: account.email }));
    } finally {
      client.destroy();
    }
  };
  try {
    await createConfirmedUser(client, config.userPoolId, account);
    const idToken = await signInAsTheApp(config, account.email, account.password);
    return { email: account.email, idToken, delete: remove };
  } catch (error) {
    // Whatever was made of the user goes (a user that was never created is a refusal, ignored).
    await remove().catch(() => undefined);
    throw error;
  }
}
