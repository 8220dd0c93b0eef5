import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext';
import styles from '../../components/layout.module.css';
import { useFollow } from '../../components/useFollow';
import { useConfig } from '../../config/ConfigContext';
import { browser } from '../../lib/browser';
import { useNotifications } from '../../notifications/NotificationsContext';

type Mode = 'signin' | 'signup';

export const GOOGLE_NOT_CONFIGURED = 'Google sign-in is not configured for this environment.';

export default function AuthPage() {
  const config = useConfig();
  const { signIn, signUp, signInWithGoogle } = useAuth();
  const { notify } = useNotifications();
  const navigate = useNavigate();
  const location = useLocation();
  const follow = useFollow();

  const [mode, setMode] = useState<Mode>('signin');
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);
  const [googleBusy, setGoogleBusy] = useState(false);

  // Fetch the sign-in library while the visitor types, so pressing the button does not wait for it.
  useEffect(() => {
    if (import.meta.env.MODE === 'test') return;
    const timer = setTimeout(() => void import('../../auth/amplifyService').catch(() => {}), 300);
    return () => clearTimeout(timer);
  }, []);

  const signingUp = mode === 'signup';
  const from = (location.state as { from?: string } | null)?.from;
  const afterSignIn = from && (from.startsWith('/dashboard') || from.startsWith('/admin')) ? from : '/dashboard';

  function toggleMode() {
    setMode(signingUp ? 'signin' : 'signup');
    setErrors({});
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const trimmedEmail = email.trim();
    const nextErrors: typeof errors = {};
    if (!trimmedEmail) nextErrors.email = 'Enter your email address';
    if (!password) nextErrors.password = 'Enter your password';
    setErrors(nextErrors);
    if (signingUp && !fullName.trim()) {
      notify({ type: 'error', title: 'Error', message: 'Please enter your full name' });
      return;
    }
    if (nextErrors.email || nextErrors.password) return;

    setBusy(true);
    try {
      if (signingUp) {
        const result = await signUp(trimmedEmail, password, fullName.trim());
        if (result.error) {
          notify({ type: 'error', title: 'Signup Failed', message: result.error.message });
          return;
        }
        if (!result.confirmedLocally) {
          notify({ type: 'success', title: 'Check your email', message: "We've sent you a confirmation link" });
          setMode('signin');
          setPassword('');
          return;
        }
        notify({
          type: 'success',
          title: 'Account confirmed',
          message: 'Your local account was confirmed right away (no email is sent locally). Signing you in…',
        });
        const signedIn = await signIn(trimmedEmail, password);
        if (signedIn.error) {
          notify({ type: 'error', title: 'Login Failed', message: signedIn.error.message });
          setMode('signin');
          return;
        }
        navigate('/dashboard', { replace: true });
        return;
      }
      const result = await signIn(trimmedEmail, password);
      if (result.error) {
        notify({ type: 'error', title: 'Login Failed', message: result.error.message });
        return;
      }
      navigate(afterSignIn, { replace: true });
    } catch (error) {
      console.error('Authentication failed', error);
      notify({ type: 'error', title: 'Error', message: 'Something went wrong. Please try again.' });
    } finally {
      setBusy(false);
    }
  }

  async function handleGoogle() {
    if (!config.oauth || googleBusy) return;
    setGoogleBusy(true);
    const result = await signInWithGoogle();
    // On success the browser is already on its way to the identity provider.
    if (result.error) {
      notify({
        type: 'error',
        title: 'Authentication Error',
        message: result.error.message || 'Failed to authenticate with Google',
      });
    }
    setGoogleBusy(false);
  }

  function clearCache() {
    try {
      window.localStorage.clear();
      window.sessionStorage.clear();
    } catch (error) {
      console.error('Could not clear storage', error);
    }
    notify({ type: 'success', title: 'Cache Cleared', message: 'Stored sign-in data was removed. Reloading…' });
    setTimeout(() => browser.reload(), 1200);
  }

  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <main className={styles.grow}>
        <SpaceBetween size="l">
          <Box textAlign="center" padding={{ top: 'l' }}>
            <Link href="/" onFollow={follow} variant="secondary" fontSize="heading-l">
              Trackpitch
            </Link>
          </Box>
          <Container
            header={
              <Header
                variant="h1"
                description={
                  signingUp ? 'Start pitching your tracks to labels and DJs.' : 'Welcome back. Sign in to your dashboard.'
                }
              >
                {signingUp ? 'Create Account' : 'Sign In'}
              </Header>
            }
          >
            <SpaceBetween size="l">
              <form onSubmit={handleSubmit} noValidate aria-label={signingUp ? 'Create account form' : 'Sign in form'}>
                <Form
                  actions={
                    <Button variant="primary" formAction="submit" loading={busy} loadingText={signingUp ? 'Creating account' : 'Signing in'}>
                      {signingUp ? 'Create Account' : 'Sign In'}
                    </Button>
                  }
                >
                  <SpaceBetween size="m">
                    {signingUp && (
                      <FormField label="Full Name" controlId="auth-full-name">
                        <Input
                          controlId="auth-full-name"
                          value={fullName}
                          onChange={({ detail }) => setFullName(detail.value)}
                          autoComplete="name"
                          disabled={busy}
                        />
                      </FormField>
                    )}
                    <FormField label="Email" controlId="auth-email" errorText={errors.email}>
                      <Input
                        controlId="auth-email"
                        type="email"
                        inputMode="email"
                        value={email}
                        onChange={({ detail }) => setEmail(detail.value)}
                        autoComplete="username"
                        disabled={busy}
                      />
                    </FormField>
                    <FormField label="Password" controlId="auth-password" errorText={errors.password}>
                      <Input
                        controlId="auth-password"
                        type="password"
                        value={password}
                        onChange={({ detail }) => setPassword(detail.value)}
                        autoComplete={signingUp ? 'new-password' : 'current-password'}
                        disabled={busy}
                      />
                    </FormField>
                  </SpaceBetween>
                </Form>
              </form>
              <Box textAlign="center">
                {signingUp ? 'Already have an account? ' : "Don't have an account? "}
                <Button variant="inline-link" onClick={toggleMode} disabled={busy}>
                  {signingUp ? 'Sign In' : 'Create Account'}
                </Button>
              </Box>
              <Box textAlign="center" color="text-body-secondary" fontSize="body-s">
                or
              </Box>
              <SpaceBetween size="xs">
                <Button
                  fullWidth
                  onClick={handleGoogle}
                  loading={googleBusy}
                  disabled={!config.oauth}
                  ariaDescribedby={config.oauth ? undefined : 'google-not-configured'}
                >
                  Continue with Google
                </Button>
                {!config.oauth && (
                  <Box color="text-body-secondary" textAlign="center" fontSize="body-s">
                    <span id="google-not-configured">{GOOGLE_NOT_CONFIGURED}</span>
                  </Box>
                )}
              </SpaceBetween>
            </SpaceBetween>
          </Container>
          <Box textAlign="center" color="text-body-secondary" fontSize="body-s">
            Trouble signing in?{' '}
            <Button variant="inline-link" onClick={clearCache}>
              Clear Cache
            </Button>
          </Box>
        </SpaceBetween>
      </main>
    </div>
  );
}
