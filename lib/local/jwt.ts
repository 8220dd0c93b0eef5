/**
 * The local stand-in for API Gateway's JWT authorizer (issuer = the user pool, audience = the app
 * client): signature against the pool's JWKS, issuer, audience (`aud` of ID tokens, `client_id` of
 * access tokens), expiry, not-before, and an issue time (`iat`) not in the future, as API Gateway
 * refuses such tokens too (aws-jwt-verify checks exp and nbf but not iat, so iat is checked here).
 * Groups are not checked here, exactly as in AWS: admin routes are refused by the handler
 * (lambdas/http/api.ts) with 403.
 *
 * Tokens carry the issuer real Cognito uses, so aws-jwt-verify's CognitoJwtVerifier is used as is;
 * only the JWKS download is redirected from cognito-idp.<region>.amazonaws.com to cognito-local.
 */
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { Fetcher } from 'aws-jwt-verify/https';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';

export interface AuthorizerConfig {
  userPoolId: string;
  userPoolClientId: string;
  /** cognito-local's base URL, where `/<pool id>/.well-known/jwks.json` is served. */
  cognitoEndpoint: string;
}

/** How far in the future a token's `iat` may be (clock skew between issuer and verifier). */
export const IAT_SKEW_SECONDS = 5;

export type AuthorizerResult = { ok: true; claims: JwtPayload } | { ok: false; reason: 'missing' | 'invalid' | 'expired'; description: string };

/** Maps the AWS JWKS URLs (regional and global issuer forms) to cognito-local. */
export function cognitoLocalFetcher(cognitoEndpoint: string): Fetcher {
  return {
    async fetch(uri: string) {
      const match = uri.match(/^https:\/\/(?:issuer-)?cognito-idp\.[a-z0-9-]+\.amazonaws\.com(\/.*)$/);
      if (!match) throw new Error(`Refusing to fetch ${uri}: only the local user pool's JWKS is fetched`);
      const response = await fetch(`${cognitoEndpoint}${match[1]}`, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`JWKS request failed with ${response.status}`);
      return response.arrayBuffer();
    },
  };
}

/** The bearer token of an Authorization header, as API Gateway reads it ("Bearer <jwt>" or the bare JWT). */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const match = value.match(/^Bearer\s+(.+)$/i);
  const token = (match?.[1] ?? value).trim();
  return token === '' ? undefined : token;
}

export function makeAuthorizer(config: AuthorizerConfig) {
  const verifier = CognitoJwtVerifier.create(
    { userPoolId: config.userPoolId, clientId: config.userPoolClientId, tokenUse: null },
    { jwksCache: new SimpleJwksCache({ fetcher: cognitoLocalFetcher(config.cognitoEndpoint) }) },
  );
  return async function authorize(authorizationHeader: string | undefined): Promise<AuthorizerResult> {
    const token = bearerToken(authorizationHeader);
    if (!token) return { ok: false, reason: 'missing', description: 'no bearer token' };
    try {
      const claims = (await verifier.verify(token)) as JwtPayload;
      if (claims.iat !== undefined && !(claims.iat <= Date.now() / 1000 + IAT_SKEW_SECONDS)) {
        return { ok: false, reason: 'invalid', description: 'the token is issued in the future' };
      }
      return { ok: true, claims };
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'JwtExpiredError') return { ok: false, reason: 'expired', description: 'the token has expired' };
      if (name === 'JwtNotBeforeError') return { ok: false, reason: 'invalid', description: 'the token is not valid yet' };
      return { ok: false, reason: 'invalid', description: (error as Error).message };
    }
  };
}

export type Authorizer = ReturnType<typeof makeAuthorizer>;
