import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../web/src/auth/AuthContext';
import { AuthProvider, type AuthServiceLoader } from '../../web/src/auth/AuthProvider';
import type { AuthEvent, AuthService, AuthSession } from '../../web/src/auth/types';
import { NotificationsProvider } from '../../web/src/notifications/NotificationsContext';
import { awsConfigWithGoogle, localConfig, makeProfile, testUser } from './helpers';
import type { RuntimeConfig } from '../../schema/api/runtimeConfig';
import { localServerMessages } from '../../schema/api/serverMessages';

// Flashbar (the toasts) is loaded lazily; load it once before the tests that wait for a toast.
beforeAll(() => import('../../web/src/notifications/Toasts'), 60_000);

const session: AuthSession = { user: testUser, groups: [] };
const storedKey = `CognitoIdentityServiceProvider.${localConfig.userPoolClientId}.LastAuthUser`;

function fakeService(overrides: Partial<AuthService> = {}) {
  const listeners = new Set<(event: AuthEvent) => void>();
  // `listening`: the provider subscribes in an effect after the library loads; an event emitted before
  // that is lost, so a test waits for the subscription before it emits.
  const service: AuthService & { emit(event: AuthEvent): void; listening(): boolean } = {
    getSession: vi.fn(() => Promise.resolve(session)),
    getIdToken: vi.fn(() => Promise.resolve('id-token-123')),
    signIn: vi.fn(async () => {}),
    signUp: vi.fn(async () => {}),
    confirmSignUp: vi.fn(async () => {}),
    resetPassword: vi.fn(async () => {}),
    confirmResetPassword: vi.fn(async () => {}),
    signInWithGoogle: vi.fn(async () => {}),
    signOut: vi.fn(async () => {}),
    onAuthEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (event) => listeners.forEach((listener) => listener(event)),
    listening: () => listeners.size > 0,
    ...overrides,
  };
  return service;
}

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function Probe() {
  const auth = useAuth();
  return (
    <div>
      <output data-testid="loading">{String(auth.loading)}</output>
      <output data-testid="user">{auth.user?.email ?? 'none'}</output>
      <output data-testid="admin">{String(auth.isAdmin)}</output>
      <output data-testid="profile">{auth.profile ? `${auth.profile.tier}:${auth.profile.email_limit}` : 'none'}</output>
      <output data-testid="profile-error">{auth.profileError ?? 'none'}</output>
      <button onClick={() => void auth.signIn('dj@example.com', 'pw')}>sign in</button>
      <button
        onClick={() =>
          void auth.signUp('new@example.com', 'pw', 'New Person').then((result) => {
            document.title = result.error ? `error:${result.error.message}` : `confirmed:${result.confirmedLocally}`;
          })
        }
      >
        sign up
      </button>
      <button
        onClick={() =>
          void auth.confirmSignUp('new@example.com', '123456').then((result) => {
            document.title = `confirm:${result.error ? result.error.message : 'ok'}`;
          })
        }
      >
        confirm
      </button>
      <button onClick={() => void auth.signOut()}>sign out</button>
      <button onClick={() => auth.patchProfile({ tier: 'pro', email_limit: 500 })}>patch</button>
    </div>
  );
}

function renderProvider(service: AuthService, options: { config?: RuntimeConfig; fetchImpl?: typeof fetch } = {}) {
  const loader = vi.fn<AuthServiceLoader>(() => Promise.resolve(service));
  const fetchImpl = options.fetchImpl ?? vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(makeProfile())));
  render(
    <NotificationsProvider>
      <AuthProvider config={options.config ?? localConfig} loadService={loader} fetchImpl={fetchImpl}>
        <Probe />
      </AuthProvider>
    </NotificationsProvider>,
  );
  return { loader, fetchImpl };
}

const text = (id: string) => screen.getByTestId(id).textContent;

describe('AuthProvider', () => {
  it('is signed out at once, without loading the sign-in library, when nothing is stored', () => {
    const { loader } = renderProvider(fakeService());
    expect(text('loading')).toBe('false');
    expect(text('user')).toBe('none');
    expect(loader).not.toHaveBeenCalled();
  });

  it('restores a stored session, fetches the profile with the ID token and reads the admin group', async () => {
    window.localStorage.setItem(storedKey, 'user-1');
    const service = fakeService({ getSession: vi.fn(() => Promise.resolve({ user: testUser, groups: ['admins'] })) });
    const { fetchImpl } = renderProvider(service);
    expect(text('loading')).toBe('true');
    await waitFor(() => expect(text('loading')).toBe('false'));
    expect(text('user')).toBe(testUser.email);
    expect(text('admin')).toBe('true');
    await waitFor(() => expect(text('profile')).toBe('free:50'));
    const [url, init] = vi.mocked(fetchImpl).mock.calls[0]!;
    expect(url).toBe('/api/profile');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer id-token-123');
  });

  it('patchProfile puts fields into the loaded profile (what a subscription sync answered), and nothing before one is loaded', async () => {
    const user = userEvent.setup();
    let answer!: (response: Response) => void;
    window.localStorage.setItem(storedKey, 'user-1');
    const fetchImpl = vi.fn<typeof fetch>(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderProvider(fakeService(), { fetchImpl });
    await waitFor(() => expect(fetchImpl).toHaveBeenCalled());
    await user.click(screen.getByRole('button', { name: 'patch' }));
    expect(text('profile')).toBe('none');
    answer(jsonResponse(makeProfile()));
    await waitFor(() => expect(text('profile')).toBe('free:50'));
    await user.click(screen.getByRole('button', { name: 'patch' }));
    expect(text('profile')).toBe('pro:500');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('refuses a profile that does not fit the contract: no profile, and the profile error says so', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    window.localStorage.setItem(storedKey, 'user-1');
    renderProvider(fakeService(), { fetchImpl: vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse({ ...makeProfile(), email_limit: 'fifty' }))) });
    await waitFor(() => expect(text('profile-error')).toBe('The server sent a profile in an unexpected format.'));
    expect(text('profile')).toBe('none');
  });

  it('is not an admin without the admins group', async () => {
    window.localStorage.setItem(storedKey, 'user-1');
    renderProvider(fakeService());
    await waitFor(() => expect(text('user')).toBe(testUser.email));
    expect(text('admin')).toBe('false');
  });

  it('ends loading after a 2 s session-check time-out and clears the stored auth keys', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.useFakeTimers();
    window.localStorage.setItem(storedKey, 'user-1');
    window.localStorage.setItem('unrelated', 'kept');
    renderProvider(fakeService({ getSession: () => new Promise(() => {}) }));
    expect(text('loading')).toBe('true');
    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(text('loading')).toBe('true');
    expect(window.localStorage.getItem(storedKey)).toBe('user-1');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(text('loading')).toBe('false');
    expect(text('user')).toBe('none');
    expect(window.localStorage.getItem(storedKey)).toBeNull();
    expect(window.localStorage.getItem('unrelated')).toBe('kept');
  });

  it('ends loading after the 3 s fallback when the sign-in library never arrives', () => {
    vi.useFakeTimers();
    window.localStorage.setItem(storedKey, 'user-1');
    render(
      <AuthProvider config={localConfig} loadService={() => new Promise<AuthService>(() => {})}>
        <Probe />
      </AuthProvider>,
    );
    expect(text('loading')).toBe('true');
    act(() => {
      vi.advanceTimersByTime(2999);
    });
    expect(text('loading')).toBe('true');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(text('loading')).toBe('false');
    expect(text('user')).toBe('none');
  });

  it('ends loading after a failed session check', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    window.localStorage.setItem(storedKey, 'user-1');
    renderProvider(fakeService({ getSession: vi.fn(async () => Promise.reject(new Error('network'))) }));
    await waitFor(() => expect(text('loading')).toBe('false'));
    expect(text('user')).toBe('none');
  });

  it('ends loading at the first auth event', async () => {
    window.localStorage.setItem(storedKey, 'user-1');
    const service = fakeService({ getSession: vi.fn(() => new Promise<AuthSession | null>(() => {})) });
    renderProvider(service);
    await waitFor(() => expect(service.listening()).toBe(true));
    expect(text('loading')).toBe('true');
    act(() => service.emit({ name: 'signedOut' }));
    expect(text('loading')).toBe('false');
  });

  it("removes stored auth keys whose value contains 'undefined'", async () => {
    window.localStorage.setItem('CognitoIdentityServiceProvider.client.undefined.idToken', 'x');
    window.localStorage.setItem('CognitoIdentityServiceProvider.client.LastAuthUser', 'undefined');
    window.localStorage.setItem('CognitoIdentityServiceProvider.client.user-1.accessToken', 'good');
    window.localStorage.setItem('other', 'undefined');
    renderProvider(fakeService());
    expect(window.localStorage.getItem('CognitoIdentityServiceProvider.client.undefined.idToken')).toBeNull();
    expect(window.localStorage.getItem('CognitoIdentityServiceProvider.client.LastAuthUser')).toBeNull();
    expect(window.localStorage.getItem('CognitoIdentityServiceProvider.client.user-1.accessToken')).toBe('good');
    expect(window.localStorage.getItem('other')).toBe('undefined');
    await waitFor(() => expect(text('loading')).toBe('false'));
  });

  it('signs in, then loads the profile once even though a signedIn event also arrives', async () => {
    const service = fakeService();
    service.signIn = vi.fn(() => {
      service.emit({ name: 'signedIn' });
      return Promise.resolve();
    });
    const { fetchImpl, loader } = renderProvider(service);
    await userEvent.setup().click(screen.getByRole('button', { name: 'sign in' }));
    await waitFor(() => expect(text('user')).toBe(testUser.email));
    await waitFor(() => expect(text('profile')).toBe('free:50'));
    expect(loader).toHaveBeenCalledTimes(1);
    expect(service.signIn).toHaveBeenCalledWith('dj@example.com', 'pw');
    expect(vi.mocked(fetchImpl).mock.calls.filter(([url]) => url === '/api/profile')).toHaveLength(1);
  });

  it('locally confirms a new account with POST /local/confirm-signup', async () => {
    const fetchImpl = vi.fn<typeof fetch>(() => Promise.resolve(new Response(null, { status: 204 })));
    const service = fakeService();
    renderProvider(service, { fetchImpl });
    await userEvent.setup().click(screen.getByRole('button', { name: 'sign up' }));
    await waitFor(() => expect(document.title).toBe('confirmed:true'));
    expect(service.signUp).toHaveBeenCalledWith('new@example.com', 'pw', 'New Person');
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('/local/confirm-signup');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ email: 'new@example.com' });
    expect((init?.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('in AWS does not call the local confirmation', async () => {
    const fetchImpl = vi.fn<typeof fetch>();
    renderProvider(fakeService(), { fetchImpl, config: awsConfigWithGoogle });
    await userEvent.setup().click(screen.getByRole('button', { name: 'sign up' }));
    await waitFor(() => expect(document.title).toBe('confirmed:false'));
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('returns the local confirmation error to the caller', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchImpl = vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse({ message: localServerMessages.noAccount }, 404)));
    renderProvider(fakeService(), { fetchImpl });
    await userEvent.setup().click(screen.getByRole('button', { name: 'sign up' }));
    await waitFor(() => expect(document.title).toBe(`error:${localServerMessages.noAccount}`));
  });

  it('confirms a sign-up through the service and returns its error to the caller', async () => {
    const service = fakeService();
    renderProvider(service, { config: awsConfigWithGoogle });
    await userEvent.setup().click(screen.getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(document.title).toBe('confirm:ok'));
    expect(service.confirmSignUp).toHaveBeenCalledWith('new@example.com', '123456');

    vi.spyOn(console, 'error').mockImplementation(() => {});
    service.confirmSignUp = vi.fn(() => Promise.reject(new Error('Invalid code provided, please request a code again.')));
    await userEvent.setup().click(screen.getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(document.title).toBe('confirm:Invalid code provided, please request a code again.'));
  });

  it("shows 'Authentication Error' when the Google redirect fails", async () => {
    window.localStorage.setItem(storedKey, 'user-1');
    const service = fakeService({ getSession: vi.fn(() => Promise.resolve(null)) });
    renderProvider(service, { config: awsConfigWithGoogle });
    await waitFor(() => expect(text('loading')).toBe('false'));
    await waitFor(() => expect(service.listening()).toBe(true));
    act(() => service.emit({ name: 'signInWithRedirect_failure' }));
    expect(await screen.findByText('Authentication Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to authenticate with Google')).toBeInTheDocument();
  });

  it('clears the user on sign-out', async () => {
    window.localStorage.setItem(storedKey, 'user-1');
    const service = fakeService();
    renderProvider(service);
    await waitFor(() => expect(text('user')).toBe(testUser.email));
    await userEvent.setup().click(screen.getByRole('button', { name: 'sign out' }));
    await waitFor(() => expect(text('user')).toBe('none'));
    expect(text('profile')).toBe('none');
    expect(service.signOut).toHaveBeenCalledTimes(1);
  });
});
