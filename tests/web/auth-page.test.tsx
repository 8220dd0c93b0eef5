import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { browser } from '../../web/src/lib/browser';
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

  it("shows 'Login Failed' with the server's message", async () => {
    const auth = makeFakeAuth({ signIn: vi.fn(async () => ({ error: new Error('Incorrect username or password.') })) });
    const { user } = await openAuth({ auth });
    await user.type(screen.getByLabelText('Email'), 'dj@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login Failed')).toBeInTheDocument();
    expect(screen.getByText('Incorrect username or password.')).toBeInTheDocument();
    expect(currentPath()).toBe('/auth');
  });

  it("shows 'Signup Failed' with the server's message", async () => {
    const auth = makeFakeAuth({ signUp: vi.fn(async () => ({ error: new Error('User already exists') })) });
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
    const auth = makeFakeAuth({ signUp: vi.fn(async () => ({ error: null, confirmedLocally: false as const })) });
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
    const auth = makeFakeAuth({ signInWithGoogle: vi.fn(async () => ({ error: new Error('') })) });
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
