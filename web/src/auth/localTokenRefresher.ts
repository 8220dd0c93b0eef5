import type { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';

/** Amplify's TokenRefresher type (not re-exported by aws-amplify under a name). */
export type TokenRefresher = Parameters<(typeof cognitoUserPoolsTokenProvider)['tokenOrchestrator']['setTokenRefresher']>[0];
type RefreshedTokens = Awaited<ReturnType<TokenRefresher>>;
type Jwt = RefreshedTokens['accessToken'];

/** Decode a JWT the way Amplify's decodeJWT does: payload as an object, toString() gives the raw token. */
export function decodeJwt(token: string): Jwt {
  const part = token.split('.')[1];
  if (!part) throw Object.assign(new Error('The token is not a JWT'), { name: 'InvalidTokenException' });
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const json = decodeURIComponent(Array.from(atob(base64), (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''));
  const payload = JSON.parse(json) as Jwt['payload'];
  return { payload, toString: () => token };
}

const serviceError = (name: string, message: string) => Object.assign(new Error(message), { name });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Amplify v6 refreshes tokens with the GetTokensFromRefreshToken operation, which cognito-local does not
 * implement. This refresher does what Amplify v5 did: InitiateAuth with AuthFlow REFRESH_TOKEN_AUTH
 * against the configured endpoint. Transient failures (network, 5xx) are retried with a 200 ms back-off
 * that doubles (spec §9); a NotAuthorizedException is passed to Amplify, which then clears the tokens and
 * emits `tokenRefresh_failure`.
 */
export function createLocalTokenRefresher(options: { endpoint: string; clientId: string; fetchImpl?: typeof fetch; attempts?: number }): TokenRefresher {
  const { endpoint, clientId, attempts = 3 } = options;
  const fetchImpl = options.fetchImpl ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const url = endpoint.endsWith('/') ? endpoint : `${endpoint}/`;
  let inFlight: Promise<RefreshedTokens> | null = null;

  async function refreshOnce(refreshToken: string, username: string): Promise<RefreshedTokens> {
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-amz-json-1.1',
          'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth',
        },
        body: JSON.stringify({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: clientId,
          AuthParameters: { REFRESH_TOKEN: refreshToken },
        }),
      });
    } catch {
      throw serviceError('NetworkError', 'Could not reach the local user pool to refresh the session.');
    }
    const body = (await response.json().catch(() => ({}))) as {
      __type?: string;
      message?: string;
      AuthenticationResult?: { AccessToken?: string; IdToken?: string; RefreshToken?: string };
    };
    if (!response.ok) {
      const type = body.__type ?? (response.status >= 500 ? 'InternalErrorException' : 'NotAuthorizedException');
      const name = type.slice(type.lastIndexOf('#') + 1);
      throw serviceError(name, body.message ?? `Token refresh failed (HTTP ${response.status})`);
    }
    const result = body.AuthenticationResult;
    if (!result?.AccessToken) throw serviceError('NotAuthorizedException', 'The user pool returned no access token.');
    const accessToken = decodeJwt(result.AccessToken);
    const iat = accessToken.payload.iat;
    if (!iat) throw serviceError('iatNotFoundException', 'iat not found in access token');
    return {
      accessToken,
      idToken: result.IdToken ? decodeJwt(result.IdToken) : undefined,
      clockDrift: iat * 1000 - Date.now(),
      // cognito-local does not rotate refresh tokens: keep the one we have.
      refreshToken: result.RefreshToken ?? refreshToken,
      username,
    };
  }

  const isTransient = (error: unknown) =>
    error instanceof Error && (error.name === 'NetworkError' || error.name === 'InternalErrorException' || error.name.startsWith('CognitoLocal'));

  async function refresh(refreshToken: string, username: string): Promise<RefreshedTokens> {
    let delay = 200;
    for (let attempt = 1; ; attempt++) {
      try {
        return await refreshOnce(refreshToken, username);
      } catch (error) {
        if (attempt >= attempts || !isTransient(error)) throw error;
        await sleep(delay);
        delay *= 2;
      }
    }
  }

  return async ({ tokens, username }) => {
    if (!tokens.refreshToken) throw serviceError('NotAuthorizedException', 'There is no refresh token; please sign in again.');
    // Several callers may ask for a refresh at once: make one call.
    inFlight ??= refresh(tokens.refreshToken, username).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}
