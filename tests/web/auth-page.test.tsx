import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../web/src/auth/AuthProvider';
import type { AuthService } from '../../web/src/auth/types';
import { ConfigContext } from '../../web/src/config/ConfigContext';
import { browser } from '../../web/src/lib/browser';
import { NotificationsProvider } from '../../web/src/notifications/NotificationsContext';
import { AppRoutes } from '../../web/src/routes';
import { awsConfigWithGoogle, currentPath, makeFakeAuth, preloadRoutes, renderApp } from './helpers';

beforeAll(preloadRoutes, 60_000);

async function openAuth(options: Parameters<typeof renderApp>[1] = {}) {
  const result = renderApp('/auth', options);
  await screen.findByRole('heading', { name: 'Sign In' });
  return { ...result, user: userEvent.setup() };
}

describe('/auth page', () => {
  it('starts in Sign In mode without a Full Name field and toggles to Create Account and back', async () => {
    const { user } = await openAuth();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.queryByLabelText('Full Name')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.getByLabelText('Full Name')).toBeInTheDocument();
    // In create mode the submit button is 'Create Account' and the toggle is 'Sign In': one of each.
    expect(screen.getAllByRole('button', { name: 'Create Account' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Sign In' })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Full Name')).not.toBeInTheDocument();
  });

  it("requires the full name in create mode: 'Error' / 'Please enter your full name'", async () => {
    const auth = makeFakeAuth();
    const { user } = await openAuth({ auth });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.type(screen.getByLabelText('Full Name'), '   ');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Please enter your full name')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(auth.signUp).not.toHaveBeenCalled();
  });

  it('does not ask for a full name when signing in', async () => {
    const auth = makeFakeAuth();
    const { user } = await openAuth({ auth });
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(auth.signIn).toHaveBeenCalledWith('dj@example.com', 'Secret-pass1');
    expect(screen.queryByText('Please enter your full name')).not.toBeInTheDocument();
  });

  it('asks for the email and password before calling the server', async () => {
    const auth = makeFakeAuth();
    const { user } = await openAuth({ auth });
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Enter your email address')).toBeInTheDocument();
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  // The sign-up email becomes the profile email.
  it('refuses to create an account whose email holds an invisible character, but does not block signing in', async () => {
    const auth = makeFakeAuth();
    const { user } = await openAuth({ auth });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Full Name'), 'Robin Example');
    await user.type(screen.getByLabelText('Email'), 'new\u200b@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Email contains an invisible or control character.')).toBeInTheDocument();
    expect(auth.signUp).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(auth.signIn).toHaveBeenCalledWith('new\u200b@example.com', 'Secret-pass1'));
  });

  it("shows 'Login Failed' with the server's message", async () => {
    const auth = makeFakeAuth({ signIn: vi.fn(() => Promise.resolve({ error: new Error('Incorrect username or password.') })) });
    const { user } = await openAuth({ auth });
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login Failed')).toBeInTheDocument();
    expect(screen.getByText('Incorrect username or password.')).toBeInTheDocument();
    expect(currentPath()).toBe('/auth');
  });

  it("shows 'Signup Failed' with the server's message", async () => {
    const auth = makeFakeAuth({ signUp: vi.fn(() => Promise.resolve({ error: new Error('User already exists') })) });
    const { user } = await openAuth({ auth });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Full Name'), 'Robin Example');
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Signup Failed')).toBeInTheDocument();
    expect(screen.getByText('User already exists')).toBeInTheDocument();
  });

  it('locally: confirms the new account, says so, signs in and opens the dashboard', async () => {
    const auth = makeFakeAuth();
    const { user } = await openAuth({ auth });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Full Name'), 'Robin Example');
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Account confirmed')).toBeInTheDocument();
    expect(auth.signUp).toHaveBeenCalledWith('new@example.com', 'Secret-pass1', 'Robin Example');
    expect(auth.signIn).toHaveBeenCalledWith('new@example.com', 'Secret-pass1');
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
  });

  it("in AWS: after sign-up says 'Check your email' and returns to Sign In", async () => {
    const auth = makeFakeAuth({ signUp: vi.fn(() => Promise.resolve({ error: null, confirmedLocally: false as const })) });
    const { user } = await openAuth({ auth, config: awsConfigWithGoogle });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Full Name'), 'Robin Example');
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Check your email')).toBeInTheDocument();
    expect(screen.getByText("We've sent you a confirmation link")).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it('says Google sign-in is not configured when the config has no identity provider', async () => {
    const auth = makeFakeAuth();
    const { user } = await openAuth({ auth });
    expect(screen.getByText('Google sign-in is not configured for this environment.')).toBeInTheDocument();
    const google = screen.getByRole('button', { name: 'Continue with Google' });
    expect(google).toBeDisabled();
    expect(google).toHaveAccessibleDescription('Google sign-in is not configured for this environment.');
    await user.click(google);
    expect(auth.signInWithGoogle).not.toHaveBeenCalled();
  });

  it('starts the Google sign-in when it is configured, and reports a failure', async () => {
    const auth = makeFakeAuth({ signInWithGoogle: vi.fn(() => Promise.resolve({ error: new Error('') })) });
    const { user } = await openAuth({ auth, config: awsConfigWithGoogle });
    expect(screen.queryByText('Google sign-in is not configured for this environment.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(auth.signInWithGoogle).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Authentication Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to authenticate with Google')).toBeInTheDocument();
  });

  it("Clear Cache empties local and session storage, says 'Cache Cleared' and reloads", async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    window.localStorage.setItem('CognitoIdentityServiceProvider.client.LastAuthUser', 'someone');
    window.sessionStorage.setItem('anything', '1');
    const { user } = await openAuth();
    await user.click(screen.getByRole('button', { name: 'Clear Cache' }));
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);
    expect(await screen.findByText('Cache Cleared')).toBeInTheDocument();
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1), { timeout: 3000 });
  });

  it("shows 'Something went wrong. Please try again.' when sign-in throws unexpectedly", async () => {
    const auth = makeFakeAuth({ signIn: vi.fn(async () => Promise.reject(new Error('chunk failed'))) });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = await openAuth({ auth });
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Something went wrong. Please try again.')).toBeInTheDocument();
  });
});

describe('/auth confirmation link (/auth?username=…&code=…)', () => {
  const link = '/auth?username=new%40example.com&code=123456';

  it("confirms the account, says 'Account confirmed', removes the parameters and keeps the email on Sign In", async () => {
    const auth = makeFakeAuth();
    renderApp(`${link}&utm_source=email`, { auth, config: awsConfigWithGoogle });
    expect(await screen.findByText('Account confirmed')).toBeInTheDocument();
    expect(screen.getByText('Your email address is confirmed. Sign in with your email and password.')).toBeInTheDocument();
    expect(auth.confirmSignUp).toHaveBeenCalledTimes(1);
    expect(auth.confirmSignUp).toHaveBeenCalledWith('new@example.com', '123456');
    expect(currentPath()).toBe('/auth?utm_source=email');
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('new@example.com');
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it("shows 'Error' with the server's message when the code is wrong or expired, and still cleans the URL", async () => {
    const auth = makeFakeAuth({
      confirmSignUp: vi.fn(() => Promise.resolve({ error: new Error('Invalid code provided, please request a code again.') })),
    });
    renderApp(link, { auth, config: awsConfigWithGoogle });
    expect(await screen.findByText('Invalid code provided, please request a code again.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.queryByText('Account confirmed')).not.toBeInTheDocument();
    expect(currentPath()).toBe('/auth');
    expect(screen.getByLabelText('Email')).toHaveValue('new@example.com');
  });

  it('shows that it is confirming and holds the form until the server answers', async () => {
    let answer: (value: { error: null }) => void = () => {};
    const auth = makeFakeAuth({ confirmSignUp: vi.fn(() => new Promise<{ error: null }>((resolve) => (answer = resolve))) });
    renderApp(link, { auth, config: awsConfigWithGoogle });
    expect(await screen.findByText('Confirming your account…')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    answer({ error: null });
    expect(await screen.findByText('Account confirmed')).toBeInTheDocument();
    expect(screen.queryByText('Confirming your account…')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeEnabled();
  });

  it('confirms once under StrictMode (effects run twice in development)', async () => {
    const auth = makeFakeAuth();
    renderApp(link, { auth, config: awsConfigWithGoogle, strict: true });
    expect(await screen.findByText('Account confirmed')).toBeInTheDocument();
    expect(auth.confirmSignUp).toHaveBeenCalledTimes(1);
    expect(screen.getAllByText('Account confirmed')).toHaveLength(1);
  });

  it('confirms with a user name that is not an email address, and then prefills nothing', async () => {
    // With email sign-in Cognito may put its generated user id in the link: confirm with it, prefill nothing.
    const auth = makeFakeAuth();
    renderApp('/auth?username=7d1c6a8e-0b7e-4c59-9a55-3f0f2b1e9c11&code=654321', { auth, config: awsConfigWithGoogle });
    expect(await screen.findByText('Account confirmed')).toBeInTheDocument();
    expect(auth.confirmSignUp).toHaveBeenCalledWith('7d1c6a8e-0b7e-4c59-9a55-3f0f2b1e9c11', '654321');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(currentPath()).toBe('/auth');
  });

  it('prefills the email from an email parameter when the user name is an id', async () => {
    const auth = makeFakeAuth();
    renderApp('/auth?username=7d1c6a8e&code=654321&email=new%2Btag%40example.com', { auth, config: awsConfigWithGoogle });
    expect(await screen.findByText('Account confirmed')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('new+tag@example.com');
    expect(currentPath()).toBe('/auth');
  });

  it('does the same locally (cognito-local confirms too)', async () => {
    const auth = makeFakeAuth();
    renderApp(link, { auth });
    expect(await screen.findByText('Account confirmed')).toBeInTheDocument();
    expect(auth.confirmSignUp).toHaveBeenCalledWith('new@example.com', '123456');
  });

  it.each(['/auth?username=new%40example.com', '/auth?code=123456', '/auth?username=&code=123456'])(
    'does nothing without both parameters (%s)',
    async (path) => {
      const auth = makeFakeAuth();
      renderApp(path, { auth, config: awsConfigWithGoogle });
      await screen.findByRole('heading', { name: 'Sign In' });
      expect(auth.confirmSignUp).not.toHaveBeenCalled();
      expect(currentPath()).toBe(path);
      expect(screen.queryByText('Confirming your account…')).not.toBeInTheDocument();
    },
  );
});

describe('/auth confirmation link with the real AuthProvider and a faked auth service', () => {
  function service(overrides: Partial<AuthService> = {}): AuthService {
    return {
      getSession: vi.fn(() => Promise.resolve(null)),
      getIdToken: vi.fn(() => Promise.resolve(null)),
      signIn: vi.fn(async () => {}),
      signUp: vi.fn(async () => {}),
      confirmSignUp: vi.fn(async () => {}),
      signInWithGoogle: vi.fn(async () => {}),
      signOut: vi.fn(async () => {}),
      onAuthEvent: () => () => {},
      ...overrides,
    };
  }

  function renderWithProvider(path: string, fake: AuthService) {
    render(
      <ConfigContext.Provider value={awsConfigWithGoogle}>
        <MemoryRouter initialEntries={[path]}>
          <NotificationsProvider>
            <AuthProvider config={awsConfigWithGoogle} loadService={() => Promise.resolve(fake)} fetchImpl={vi.fn<typeof fetch>()}>
              <AppRoutes />
            </AuthProvider>
          </NotificationsProvider>
        </MemoryRouter>
      </ConfigContext.Provider>,
    );
  }

  it('passes the user name and code to the service and reports success', async () => {
    const fake = service();
    renderWithProvider('/auth?username=new%40example.com&code=123456', fake);
    expect(await screen.findByText('Account confirmed')).toBeInTheDocument();
    expect(fake.confirmSignUp).toHaveBeenCalledWith('new@example.com', '123456');
    expect(screen.getByLabelText('Email')).toHaveValue('new@example.com');
  });

  it("reports the service's error message (e.g. an expired code)", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = service({
      confirmSignUp: vi.fn(() => Promise.reject(new Error('Invalid code provided, please request a code again.'))),
    });
    renderWithProvider('/auth?username=new%40example.com&code=000000', fake);
    expect(await screen.findByText('Invalid code provided, please request a code again.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });
});
