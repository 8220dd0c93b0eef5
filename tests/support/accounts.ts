/**
 * Real cognito-local accounts for the integration tests, the browser tests and the benchmarks:
 * sign up (as the web app does), confirm (the local server's POST /local/confirm-signup, as the web
 * app does, or AdminConfirmSignUp on the pool), sign in with USER_PASSWORD_AUTH and get the tokens.
 * Calls come from Node with no Origin header, as the local runtime's own calls do.
 */
import { randomUUID } from 'node:crypto';
import { AdminConfirmSignUpCommand, InitiateAuthCommand, SignUpCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { makeCognitoClient } from '../../lib/local/cognito';

export interface Tokens {
  idToken: string;
  accessToken: string;
  refreshToken: string;
}

export interface NewAccount {
  email: string;
  name: string;
  password: string;
}

export interface SignedUp extends NewAccount {
  sub: string;
}

export type Account = SignedUp & Tokens;

export interface AccountsTarget {
  /** cognito-local's endpoint (the web app's userPoolEndpoint). */
  cognitoEndpoint: string;
  userPoolClientId: string;
  /**
   * How a new account is confirmed: by the local server (`appUrl` + /local/confirm-signup, what the
   * web app does after sign-up) or by AdminConfirmSignUp on the pool.
   */
  confirm: { via: 'local-server'; appUrl: string } | { via: 'admin'; userPoolId: string };
}

export const TEST_PASSWORD = 'Test-password-1';

/** A fresh address on a reserved domain. */
export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@example.com`;

export interface Accounts {
  /** The SDK client these helpers use (cognito-local, local credentials). */
  client: CognitoIdentityProviderClient;
  /** Signs up without confirming (the state a new account is in before the local confirmation). */
  signUp(account?: Partial<NewAccount>): Promise<SignedUp>;
  /** Confirms a signed-up account as the target says; throws when that fails. */
  confirm(email: string): Promise<void>;
  /** USER_PASSWORD_AUTH; `clientId` defaults to the target's app client. */
  signIn(email: string, password: string, clientId?: string): Promise<Tokens>;
  /** Sign up, confirm, sign in. */
  create(account?: Partial<NewAccount>): Promise<Account>;
  close(): void;
}

export function accounts(target: AccountsTarget): Accounts {
  const client = makeCognitoClient(target.cognitoEndpoint);

  async function signUp(account: Partial<NewAccount> = {}): Promise<SignedUp> {
    const email = account.email ?? uniqueEmail();
    const name = account.name ?? 'Test Artist';
    const password = account.password ?? TEST_PASSWORD;
    const { UserSub } = await client.send(
      new SignUpCommand({
        ClientId: target.userPoolClientId,
        Username: email,
        Password: password,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'name', Value: name },
        ],
      }),
    );
    if (!UserSub) throw new Error('cognito-local returned no user id');
    return { email, name, password, sub: UserSub };
  }

  async function confirm(email: string): Promise<void> {
    if (target.confirm.via === 'admin') {
      await client.send(new AdminConfirmSignUpCommand({ UserPoolId: target.confirm.userPoolId, Username: email }));
      return;
    }
    const response = await fetch(`${target.confirm.appUrl}/local/confirm-signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    if (response.status !== 204) {
      throw new Error(`POST /local/confirm-signup answered ${response.status} (expected 204): ${await response.text()}`);
    }
  }

  async function signIn(email: string, password: string, clientId = target.userPoolClientId): Promise<Tokens> {
    const { AuthenticationResult: result } = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: clientId,
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
    if (!result?.IdToken || !result.AccessToken || !result.RefreshToken) throw new Error('cognito-local returned no tokens');
    return { idToken: result.IdToken, accessToken: result.AccessToken, refreshToken: result.RefreshToken };
  }

  async function create(account: Partial<NewAccount> = {}): Promise<Account> {
    const signedUp = await signUp(account);
    await confirm(signedUp.email);
    return { ...signedUp, ...(await signIn(signedUp.email, signedUp.password)) };
  }

  return { client, signUp, confirm, signIn, create, close: () => client.destroy() };
}
