/**
 * The Amplify v6 implementation of AuthService. Loaded on demand (dynamic import) so visitors who are
 * not signed in do not download Amplify on the landing page.
 */
import { Amplify } from 'aws-amplify';
import {
  confirmResetPassword as amplifyConfirmResetPassword,
  confirmSignUp as amplifyConfirmSignUp,
  fetchAuthSession,
  resetPassword as amplifyResetPassword,
  signIn as amplifySignIn,
  signInWithRedirect,
  signOut as amplifySignOut,
  signUp as amplifySignUp,
} from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import 'aws-amplify/auth/enable-oauth-listener';
import { Hub } from 'aws-amplify/utils';
import type { RuntimeConfig } from '../../../schema/api/runtimeConfig';
import { createLocalTokenRefresher } from './localTokenRefresher';
import type { AuthEvent, AuthEventName, AuthService, AuthSession } from './types';

const knownEvents: readonly AuthEventName[] = [
  'signedIn',
  'signedOut',
  'tokenRefresh',
  'tokenRefresh_failure',
  'signInWithRedirect',
  'signInWithRedirect_failure',
];

function stringClaim(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** An Error whose message can be shown, keeping Cognito's error name (e.g. NotAuthorizedException) for the page. */
function userMessage(error: unknown): Error {
  if (!(error instanceof Error)) return new Error('Something went wrong. Please try again.');
  const shown = new Error(error.message || 'Something went wrong. Please try again.');
  shown.name = error.name;
  return shown;
}

export function createAmplifyAuthService(config: RuntimeConfig): AuthService {
  const local = config.mode === 'local';
  const localEndpoint = local ? config.userPoolEndpoint : undefined;
  if (local && !localEndpoint) {
    throw new Error('The app configuration has mode "local" but no userPoolEndpoint.');
  }

  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(local ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: {
          email: true,
          ...(config.oauth
            ? {
                oauth: {
                  domain: config.oauth.domain,
                  scopes: ['openid', 'email', 'profile'],
                  redirectSignIn: [config.oauth.redirectSignIn],
                  redirectSignOut: [config.oauth.redirectSignOut],
                  responseType: 'code' as const,
                  providers: ['Google' as const],
                },
              }
            : {}),
        },
      },
    },
  });

  if (localEndpoint) {
    // cognito-local has no GetTokensFromRefreshToken: refresh with InitiateAuth REFRESH_TOKEN_AUTH instead.
    cognitoUserPoolsTokenProvider.tokenOrchestrator.setTokenRefresher(
      createLocalTokenRefresher({ endpoint: localEndpoint, clientId: config.userPoolClientId }),
    );
  }

  async function getSession(): Promise<AuthSession | null> {
    const { tokens } = await fetchAuthSession();
    const idToken = tokens?.idToken;
    if (!idToken) return null;
    const claims = idToken.payload;
    const groups = claims['cognito:groups'];
    return {
      user: { userId: stringClaim(claims.sub), email: stringClaim(claims.email), name: stringClaim(claims.name) },
      groups: Array.isArray(groups) ? groups.map(String) : [],
    };
  }

  return {
    getSession,

    async getIdToken() {
      const { tokens } = await fetchAuthSession();
      return tokens?.idToken?.toString() ?? null;
    },

    async signIn(email, password) {
      try {
        const output = await amplifySignIn({
          username: email,
          password,
          // cognito-local has no SRP; in AWS the default (USER_SRP_AUTH) keeps the password off the wire.
          options: local ? { authFlowType: 'USER_PASSWORD_AUTH' } : undefined,
        });
        if (output.isSignedIn) return;
        const step = output.nextStep.signInStep;
        if (step === 'CONFIRM_SIGN_UP') {
          throw new Error('Your account is not confirmed yet. Open the confirmation link we emailed you, then sign in.');
        }
        throw new Error(`This account needs a sign-in step the app does not support yet (${step}).`);
      } catch (error) {
        // Tokens already stored (e.g. another tab signed in): that is a signed-in user.
        if (error instanceof Error && error.name === 'UserAlreadyAuthenticatedException') return;
        throw userMessage(error);
      }
    },

    async signUp(email, password, fullName) {
      try {
        await amplifySignUp({
          username: email,
          password,
          options: { userAttributes: { email, name: fullName } },
        });
      } catch (error) {
        throw userMessage(error);
      }
    },

    async confirmSignUp(username, code) {
      try {
        // In AWS the link comes from the Cognito custom message trigger; cognito-local supports it too.
        await amplifyConfirmSignUp({ username, confirmationCode: code });
      } catch (error) {
        throw userMessage(error);
      }
    },

    async resetPassword(email) {
      try {
        await amplifyResetPassword({ username: email });
      } catch (error) {
        throw userMessage(error);
      }
    },

    async confirmResetPassword(email, code, newPassword) {
      try {
        await amplifyConfirmResetPassword({ username: email, confirmationCode: code, newPassword });
      } catch (error) {
        throw userMessage(error);
      }
    },

    async signInWithGoogle() {
      if (!config.oauth) throw new Error('Google sign-in is not configured for this environment.');
      await signInWithRedirect({ provider: 'Google' });
    },

    async signOut() {
      await amplifySignOut();
    },

    onAuthEvent(listener) {
      return Hub.listen('auth', ({ payload }) => {
        const name = (knownEvents as readonly string[]).includes(payload.event) ? (payload.event as AuthEventName) : 'other';
        const data = (payload as { data?: unknown }).data;
        const error = data && typeof data === 'object' && 'error' in data ? (data as { error?: unknown }).error : data;
        const event: AuthEvent = { name };
        if (error instanceof Error && error.message) event.message = error.message;
        listener(event);
      });
    },
  };
}
