import { describe, expect, it, vi } from 'vitest';
import { createLocalTokenRefresher, decodeJwt } from '../../web/src/auth/localTokenRefresher';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: object) => `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(payload)}.signature`;

const accessToken = jwt({ sub: 'user-1', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 });
const idToken = jwt({ sub: 'user-1', email: 'dj@example.com', name: 'Rób Ïñtl', 'cognito:groups': ['admins'] });

const ok = () =>
  new Response(JSON.stringify({ AuthenticationResult: { AccessToken: accessToken, IdToken: idToken } }), {
    status: 200,
    headers: { 'Content-Type': 'application/x-amz-json-1.1' },
  });

const tokens = {
  accessToken: decodeJwt(accessToken),
  refreshToken: 'refresh-123',
  clockDrift: 0,
  username: 'dj@example.com',
};

describe('local token refresher (cognito-local)', () => {
  it('calls InitiateAuth REFRESH_TOKEN_AUTH on the endpoint and returns Amplify tokens', async () => {
    const fetchImpl = vi.fn<typeof fetch>(() => Promise.resolve(ok()));
    const refresh = createLocalTokenRefresher({ endpoint: 'http://127.0.0.1:9229', clientId: 'client-1', fetchImpl });
    const result = await refresh({ tokens, username: 'dj@example.com' });

    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:9229/');
    const headers = init?.headers as Record<string, string>;
    expect(headers['X-Amz-Target']).toBe('AWSCognitoIdentityProviderService.InitiateAuth');
    expect(headers['Content-Type']).toBe('application/x-amz-json-1.1');
    expect(JSON.parse(init?.body as string)).toEqual({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: 'client-1',
      AuthParameters: { REFRESH_TOKEN: 'refresh-123' },
    });

    expect(result.accessToken.toString()).toBe(accessToken);
    expect(result.idToken?.payload.email).toBe('dj@example.com');
    expect(result.idToken?.payload.name).toBe('Rób Ïñtl');
    expect(result.idToken?.payload['cognito:groups']).toEqual(['admins']);
    // cognito-local sends no new refresh token: the old one is kept.
    expect(result.refreshToken).toBe('refresh-123');
    expect(result.username).toBe('dj@example.com');
    expect(Math.abs(result.clockDrift)).toBeLessThan(5000);
  });

  it('passes NotAuthorizedException on (Amplify then clears the tokens) without retrying', async () => {
    const fetchImpl = vi.fn<typeof fetch>(() =>
      Promise.resolve(new Response(JSON.stringify({ __type: 'NotAuthorizedException', message: 'Invalid Refresh Token' }), { status: 400 })),
    );
    const refresh = createLocalTokenRefresher({ endpoint: 'http://127.0.0.1:9229/', clientId: 'c', fetchImpl });
    await expect(refresh({ tokens, username: 'u' })).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid Refresh Token',
    });
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('retries a transient failure with a doubling back-off', async () => {
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(new Response('{}', { status: 500 }))
      .mockResolvedValueOnce(ok());
    const refresh = createLocalTokenRefresher({ endpoint: 'http://127.0.0.1:9229', clientId: 'c', fetchImpl });
    vi.useFakeTimers();
    const pending = refresh({ tokens, username: 'u' });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    // The first retry waits 200 ms, the second 400 ms: not a millisecond less.
    await vi.advanceTimersByTimeAsync(199);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(399);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    const result = await pending;
    expect(result.accessToken.toString()).toBe(accessToken);
  });

  it('makes one call for concurrent refreshes', async () => {
    const fetchImpl = vi.fn<typeof fetch>(() => Promise.resolve(ok()));
    const refresh = createLocalTokenRefresher({ endpoint: 'http://127.0.0.1:9229', clientId: 'c', fetchImpl });
    await Promise.all([refresh({ tokens, username: 'u' }), refresh({ tokens, username: 'u' })]);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('refuses without a refresh token', async () => {
    const fetchImpl = vi.fn<typeof fetch>();
    const refresh = createLocalTokenRefresher({ endpoint: 'http://x', clientId: 'c', fetchImpl });
    await expect(refresh({ tokens: { ...tokens, refreshToken: undefined }, username: 'u' })).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
    expect(fetchImpl).not.toHaveBeenCalled();
  });
});
