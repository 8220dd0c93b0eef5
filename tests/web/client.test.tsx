import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../../web/src/api/client';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('api client', () => {
  it('sends the ID token as a bearer token and JSON bodies', async () => {
    const fetchImpl = vi.fn<typeof fetch>(() => Promise.resolve(json({ ok: true })));
    const api = createApiClient(() => Promise.resolve('the-id-token'), fetchImpl);
    await expect(api.patch('/api/profile', { full_name: 'Robin' })).resolves.toEqual({ ok: true });
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('/api/profile');
    expect(init?.method).toBe('PATCH');
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer the-id-token');
    expect(headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(init?.body as string)).toEqual({ full_name: 'Robin' });
  });

  it('turns a `{ message, requestId }` error body into an ApiError with the status', async () => {
    const api = createApiClient(
      () => Promise.resolve('t'),
      () => Promise.resolve(json({ message: 'Something broke', requestId: 'req-1' }, 500)),
    );
    const error = await api.get('/api/profile').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, message: 'Something broke', requestId: 'req-1' });
  });

  it('gives a readable message when the error body is not the API shape', async () => {
    const api = createApiClient(
      () => Promise.resolve('t'),
      () => Promise.resolve(new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })),
    );
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 502, message: 'Request failed (502 Bad Gateway)' });
  });

  it('refuses to call a signed-in route without a token', async () => {
    const fetchImpl = vi.fn<typeof fetch>();
    const api = createApiClient(() => Promise.resolve(null), fetchImpl);
    await expect(api.get('/api/profile')).rejects.toMatchObject({ status: 401 });
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('sends no token for public calls and accepts 204', async () => {
    const fetchImpl = vi.fn<typeof fetch>(() => Promise.resolve(new Response(null, { status: 204 })));
    const getToken = vi.fn(() => Promise.resolve('t'));
    const api = createApiClient(getToken, fetchImpl);
    await expect(api.request('/local/confirm-signup', { method: 'POST', body: { email: 'a@b.c' }, auth: false })).resolves.toBeUndefined();
    expect(getToken).not.toHaveBeenCalled();
    expect((fetchImpl.mock.calls[0]![1]?.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('reports a network failure as status 0', async () => {
    const api = createApiClient(
      () => Promise.resolve('t'),
      async () => Promise.reject(new TypeError('Failed to fetch')),
    );
    await expect(api.get('/api/health')).rejects.toMatchObject({
      status: 0,
      message: 'Could not reach the server. Check your connection and try again.',
    });
  });

  it('runs the parser and reports a response of the wrong shape', async () => {
    const api = createApiClient(
      () => Promise.resolve('t'),
      () => Promise.resolve(json({ id: 1 })),
    );
    const parse = (data: unknown) => {
      if (typeof (data as { id?: unknown }).id !== 'string') throw new Error('bad');
      return data as { id: string };
    };
    await expect(api.get('/api/thing', parse)).rejects.toMatchObject({ message: 'The server sent a response in an unexpected format.' });
  });
});
