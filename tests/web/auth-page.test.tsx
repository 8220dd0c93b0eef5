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
import { PASSWORD_RULE_MESSAGE } from '../../schema/passwordRule.mjs';
import { awsConfigWithGoogle, currentPath, localConfig, makeFakeAuth, preloadRoutes, renderApp } from './helpers';

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

/** An Error named as Cognito names it (the auth service keeps the name, web/src/auth/amplifyService.ts). */
function cognitoError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

async function fillSignUp(user: ReturnType<typeof userEvent.setup>, password: string, name = 'Robin Example') {
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
  if (name) await user.type(screen.getByLabelText('Full Name'), name);
  await user.type(screen.getByLabelText('Email'), 'new@example.com');
  await user.type(screen.getByLabelText('Password'), password);
}

describe('/auth password rule', () => {
  it('shows the rule under the password field when creating an account (not when signing in)', async () => {
    const { user } = await openAuth();
    expect(screen.queryByText(PASSWORD_RULE_MESSAGE)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(PASSWORD_RULE_MESSAGE);
  });

  it.each(['short', 'password', 'abc', 'Abcdefghij1', 'abcdefgh-12'])('refuses %s before calling Cognito, with the rule as the error', async (password) => {
    const auth = makeFakeAuth();
    const { user } = await openAuth({ auth });
    await fillSignUp(user, password);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    // The rule is both the hint and the error.
    await waitFor(() => expect(screen.getAllByText(PASSWORD_RULE_MESSAGE)).toHaveLength(2));
    expect(auth.signUp).not.toHaveBeenCalled();
  });

  it("shows Cognito's InvalidPasswordException under the field", async () => {
    const auth = makeFakeAuth({ signUp: vi.fn(() => Promise.resolve({ error: cognitoError('InvalidPasswordException', 'Password too weak (server)') })) });
    const { user } = await openAuth({ auth });
    await fillSignUp(user, 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Password too weak (server)')).toBeInTheDocument();
    expect(auth.signUp).toHaveBeenCalledWith('new@example.com', 'Secret-pass1', 'Robin Example');
  });

  it("takes down a stale 'Please enter your full name' once the account is created", async () => {
    const auth = makeFakeAuth({ signUp: vi.fn(() => Promise.resolve({ error: null, confirmedLocally: false as const })) });
    const { user } = await openAuth({ auth, config: awsConfigWithGoogle });
    await fillSignUp(user, 'Secret-pass1', '');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Please enter your full name')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Full Name'), 'Robin Example');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Check your email')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Please enter your full name')).not.toBeInTheDocument());
  });
});

describe('/auth sign-in errors', () => {
  it.each([
    ['NotAuthorizedException', 'Incorrect username or password.'],
    ['NotAuthorizedException', 'Invalid password'],
    ['UserNotFoundException', 'User does not exist.'],
    ['NotAuthorizedException', 'User not authorized'],
  ])("answers %s (%s) with 'Incorrect email or password'", async (name, message) => {
    const auth = makeFakeAuth({ signIn: vi.fn(() => Promise.resolve({ error: cognitoError(name, message) })) });
    const { user } = await openAuth({ auth });
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Incorrect email or password')).toBeInTheDocument();
    expect(screen.getByText('Login Failed')).toBeInTheDocument();
    expect(screen.queryByText(message)).not.toBeInTheDocument();
  });

  it("keeps the server's message for other failures (e.g. too many attempts)", async () => {
    const auth = makeFakeAuth({
      signIn: vi.fn(() => Promise.resolve({ error: cognitoError('NotAuthorizedException', 'Password attempts exceeded') })),
    });
    const { user } = await openAuth({ auth });
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Password attempts exceeded')).toBeInTheDocument();
  });
});

describe('/auth forgot password', () => {
  async function openForgot(options: Parameters<typeof renderApp>[1] = {}) {
    const opened = await openAuth(options);
    await opened.user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await opened.user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await screen.findByRole('heading', { name: 'Reset Password' });
    return opened;
  }

  it("asks for the email ('Send code'), keeping the one typed, and goes back to Sign In", async () => {
    const auth = makeFakeAuth();
    const { user } = await openForgot({ auth });
    expect(screen.getByLabelText('Email')).toHaveValue('dj@example.com');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await user.clear(screen.getByLabelText('Email'));
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(screen.getByText('Enter your email address')).toBeInTheDocument();
    expect(auth.resetPassword).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Back to Sign In' }));
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('locally: shows the code, refuses a weak new password before calling Cognito, resets and returns to Sign In', async () => {
    const auth = makeFakeAuth();
    const { user } = await openForgot({ auth, config: localConfig });
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(auth.resetPassword).toHaveBeenCalledWith('dj@example.com');
    expect(await screen.findByTestId('local-reset-code')).toHaveTextContent('123456');
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(PASSWORD_RULE_MESSAGE);

    await user.type(screen.getByLabelText('Code'), '123456');
    await user.type(screen.getByLabelText('New password'), 'password');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(screen.getAllByText(PASSWORD_RULE_MESSAGE)).toHaveLength(2));
    expect(auth.confirmResetPassword).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'New-secret-2');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Password reset')).toBeInTheDocument();
    expect(auth.confirmResetPassword).toHaveBeenCalledWith('dj@example.com', '123456', 'New-secret-2');
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('dj@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('in AWS: says the same whether or not the account exists, and shows a wrong code', async () => {
    const auth = makeFakeAuth({
      resetPassword: vi.fn(() => Promise.resolve({ error: null, localCode: null })),
      confirmResetPassword: vi.fn(() =>
        Promise.resolve({ error: cognitoError('CodeMismatchException', 'Invalid verification code provided, please try again.') }),
      ),
    });
    const { user } = await openForgot({ auth, config: awsConfigWithGoogle });
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText("If an account exists for dj@example.com, we've emailed it a code.")).toBeInTheDocument();
    expect(screen.queryByTestId('local-reset-code')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Code'), '000000');
    await user.type(screen.getByLabelText('New password'), 'New-secret-2');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Invalid verification code provided, please try again.')).toBeInTheDocument();
    expect(screen.getByText('Reset Failed')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
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
      resetPassword: vi.fn(async () => {}),
      confirmResetPassword: vi.fn(async () => {}),
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

  it('forgot password locally: the service sends the code, the local server gives it to the page', async () => {
    const fake = service();
    const fetchImpl = vi.fn<typeof fetch>(() =>
      Promise.resolve(new Response(JSON.stringify({ code: '654321' }), { status: 200, headers: { 'content-type': 'application/json' } })),
    );
    render(
      <ConfigContext.Provider value={localConfig}>
        <MemoryRouter initialEntries={['/auth']}>
          <NotificationsProvider>
            <AuthProvider config={localConfig} loadService={() => Promise.resolve(fake)} fetchImpl={fetchImpl}>
              <AppRoutes />
            </AuthProvider>
          </NotificationsProvider>
        </MemoryRouter>
      </ConfigContext.Provider>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByTestId('local-reset-code')).toHaveTextContent('654321');
    expect(fake.resetPassword).toHaveBeenCalledWith('dj@example.com');
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('/local/reset-code');
    expect(init?.body).toBe(JSON.stringify({ email: 'dj@example.com' }));
  });
});
