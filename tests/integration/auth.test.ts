/**
 * The local JWT authorizer behaves as API Gateway's: signature (cognito-local's JWKS), issuer,
 * audience/client, expiry; groups are the handler's business (403 on admin routes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { IAT_SKEW_SECONDS } from '../../lib/local/jwt';
import { decodeJwt, expiredCopy, freshCopy, issuedInFutureCopy, notYetValidCopy, resign, strangerKey, tampered } from '../fakes/jwt';
import { adminTokens, call, cognito, createUser, otherClientTokens, stack, type TestUser } from './helpers';

const UNAUTHORIZED = { message: 'Unauthorized' };

describe('JWT authorizer on signed-in routes', () => {
  let user: TestUser;

  beforeAll(async () => {
    user = await createUser({ name: 'Jwt Tester' });
  });

  it('accepts a valid ID token (200)', async () => {
    const response = await call('/api/profile', { token: user.idToken });
    expect(response.status).toBe(200);
    expect(response.json?.id).toBe(user.sub);
  });

  it('refuses a request without a token with 401 Unauthorized', async () => {
    const response = await call('/api/profile');
    expect(response.status).toBe(401);
    expect(response.json).toEqual(UNAUTHORIZED);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refuses a header that is not a JWT', async () => {
    for (const authorization of ['Bearer', 'Bearer not-a-jwt', 'Basic dXNlcjpwYXNz']) {
      const response = await call('/api/profile', { headers: { authorization } });
      expect(response.status, authorization).toBe(401);
      expect(response.json).toEqual(UNAUTHORIZED);
    }
  });

  it('refuses an expired token, while the same token re-signed with a future expiry passes', async () => {
    const expired = await call('/api/profile', { token: expiredCopy(user.idToken) });
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual(UNAUTHORIZED);
    expect(expired.headers.get('www-authenticate')).toMatch(/invalid_token/);

    const control = await call('/api/profile', { token: freshCopy(user.idToken) });
    expect(control.status).toBe(200);
  });

  it('refuses a token issued in the future (iat), as API Gateway does, within a small clock skew', async () => {
    const future = await call('/api/profile', { token: issuedInFutureCopy(user.idToken, 600) });
    expect(future.status).toBe(401);
    expect(future.json).toEqual(UNAUTHORIZED);
    expect(future.headers.get('www-authenticate')).toMatch(/invalid_token/);
    const justAhead = await call('/api/profile', { token: issuedInFutureCopy(user.accessToken, IAT_SKEW_SECONDS + 60) });
    expect(justAhead.status).toBe(401);

    // Control: a clock a second or two ahead of ours is tolerated.
    const skewed = await call('/api/profile', { token: issuedInFutureCopy(user.idToken, 2) });
    expect(skewed.status).toBe(200);
  });

  it('refuses a token that is not valid yet (nbf in the future)', async () => {
    const response = await call('/api/profile', { token: notYetValidCopy(user.idToken, 600) });
    expect(response.status).toBe(401);
    expect(response.json).toEqual(UNAUTHORIZED);
    expect((await call('/api/profile', { token: notYetValidCopy(user.idToken, -60) })).status).toBe(200); // control
  });

  it('refuses a genuine token of the pool issued to another app client', async () => {
    const other = await otherClientTokens(user);
    expect(decodeJwt(other.idToken).payload.aud).not.toBe(stack().userPoolClientId);
    const response = await call('/api/profile', { token: other.idToken });
    expect(response.status).toBe(401);
    expect(response.json).toEqual(UNAUTHORIZED);
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const response = await call('/api/profile', { token: tampered(user.idToken) });
    expect(response.status).toBe(401);
    expect(response.json).toEqual(UNAUTHORIZED);
  });

  it('refuses a token signed by a key the pool does not publish', async () => {
    const response = await call('/api/profile', { token: resign(user.idToken, {}, strangerKey()) });
    expect(response.status).toBe(401);
  });

  it('refuses a token from another issuer', async () => {
    const issuer = `https://cognito-idp.us-east-1.amazonaws.com/us-east-1_SomeoneElse`;
    const response = await call('/api/profile', { token: resign(user.idToken, { iss: issuer }) });
    expect(response.status).toBe(401);
  });

  it('carries the issuer and claims real Cognito puts in an ID token, so the same check holds in AWS', () => {
    const { payload, header } = decodeJwt(user.idToken);
    expect(payload.iss).toBe(`https://cognito-idp.us-east-1.amazonaws.com/${stack().userPoolId}`);
    expect(payload.aud).toBe(stack().userPoolClientId);
    expect(payload.token_use).toBe('id');
    expect(payload.email).toBe(user.email);
    expect(payload.name).toBe('Jwt Tester');
    expect(header.alg).toBe('RS256');
  });

  it('accepts the ID token a refresh (REFRESH_TOKEN_AUTH, as the web app does) returns', async () => {
    const { AuthenticationResult } = await cognito().send(
      new InitiateAuthCommand({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: stack().userPoolClientId,
        AuthParameters: { REFRESH_TOKEN: user.refreshToken },
      }),
    );
    const idToken = AuthenticationResult?.IdToken;
    expect(idToken).toBeTruthy();
    expect(decodeJwt(idToken!).payload).toMatchObject({ sub: user.sub, name: 'Jwt Tester' });
    const response = await call('/api/profile', { token: idToken! });
    expect(response.status).toBe(200);
    expect(response.json?.id).toBe(user.sub);
  });
});

describe('admin routes', () => {
  it('answer 403 to a signed-in user outside the admins group', async () => {
    const user = await createUser();
    const response = await call('/api/admin/waitlist', { token: user.idToken });
    expect(response.status).toBe(403);
    expect(response.json?.message).toMatch(/not authorised/i);
  });

  it('answer 401 without a token', async () => {
    const response = await call('/api/admin/waitlist');
    expect(response.status).toBe(401);
  });

  it('answer 200 to the seeded admin', async () => {
    const tokens = await adminTokens();
    expect(decodeJwt(tokens.idToken).payload['cognito:groups']).toEqual(['admins']);
    const response = await call('/api/admin/waitlist', { token: tokens.idToken });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.json?.entries)).toBe(true);
  });

  it('accept the admin access token too, as API Gateway does (client_id instead of aud)', async () => {
    const tokens = await adminTokens();
    const response = await call('/api/admin/waitlist', { token: tokens.accessToken });
    expect(response.status).toBe(200);
  });
});

describe('public routes', () => {
  it('need no token', async () => {
    const response = await call('/api/health');
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ ok: true });
  });
});
