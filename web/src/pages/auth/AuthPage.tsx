import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { characterMessages, hasInvisibleOrControl } from '../../../../schema/api/characters';
import { meetsPasswordRule, PASSWORD_RULE_MESSAGE } from '../../../../schema/passwordRule.mjs';
import { useAuth } from '../../auth/AuthContext';
import { BrandedPage } from '../../brand/BrandedPage';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useConfig } from '../../config/ConfigContext';
import { browser } from '../../lib/browser';
import { useNotifications } from '../../notifications/NotificationsContext';

/** signin/signup; forgot: the email to send a reset code to; reset: the code and the new password. */
type Mode = 'signin' | 'signup' | 'forgot' | 'reset';

export const GOOGLE_NOT_CONFIGURED = 'Google sign-in is not configured for this environment.';

/** One answer for a wrong password and an unknown email: the page does not tell which accounts exist. */
export const INCORRECT_CREDENTIALS = 'Incorrect email or password';

/** Cognito's errors for a wrong password or an unknown user (cognito-local's too, lib/local/cognito-guard.mjs). */
const CREDENTIAL_ERRORS = new Set(['NotAuthorizedException', 'UserNotFoundException']);

/** The sign-in failure as shown: the merged message for bad credentials, the server's otherwise (e.g. too many attempts). */
function signInFailure(error: Error): string {
  if (CREDENTIAL_ERRORS.has(error.name) && !/attempts exceeded|disabled/i.test(error.message)) return INCORRECT_CREDENTIALS;
  return error.message;
}

const HEADINGS: Record<Mode, { title: string; description: string }> = {
  signin: { title: 'Sign In', description: 'Welcome back. Sign in to your dashboard.' },
  signup: { title: 'Create Account', description: 'Start pitching your tracks to labels and DJs.' },
  forgot: { title: 'Reset Password', description: "Enter your account's email address and we'll send you a code." },
  reset: { title: 'Reset Password', description: 'Enter the code from the email and choose a new password.' },
};

/** The query parameters of the confirmation email's link (lambdas/workers/cognitoCustomMessage.ts). */
const CONFIRMATION_PARAMS = ['username', 'code', 'email'] as const;

/** The confirmation link in the address, if any, and the email it fills in ('' when it has none). */
function confirmationLink(params: URLSearchParams): { username: string; code: string; prefill: string } | null {
  const username = params.get('username')?.trim() ?? '';
  const code = params.get('code')?.trim() ?? '';
  if (!username || !code) return null;
  // With email sign-in Cognito's user name may be a generated id: prefill only an email address.
  const prefill = params.get('email')?.trim() || (username.includes('@') ? username : '');
  return { username, code, prefill };
}

/**
 * /auth (spec §2). Signing in only sets the user: RedirectIfSignedIn (auth/guards.tsx) then leaves
 * this page for the dashboard, or for the signed-in page that sent the visitor here.
 */
export default function AuthPage() {
  const config = useConfig();
  const { signIn, signUp, confirmSignUp, resetPassword, confirmResetPassword, signInWithGoogle } = useAuth();
  const { notify, dismiss } = useNotifications();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();

  // The confirmation email links to /auth?username=…&code=… (spec §2: the sign-up confirmation email
  // leads back to the site): read as the page opens, since the effect below takes it out of the address bar.
  const [confirmation] = useState(() => confirmationLink(searchParams));
  const [mode, setMode] = useState<Mode>('signin');
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState(() => confirmation?.prefill ?? '');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  /** Locally no email is sent: the code the local server gave, shown on the reset screen. */
  const [localCode, setLocalCode] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ email?: string; password?: string; code?: string }>({});
  /** The 'Please enter your full name' toast, taken down once the form is filled in. */
  const fullNameToast = useRef<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [googleBusy, setGoogleBusy] = useState(false);
  const [confirming, setConfirming] = useState(() => confirmation !== null);
  const confirmationStarted = useRef(false);

  // Fetch the sign-in library while the visitor types, so pressing the button does not wait for it.
  useEffect(() => {
    if (import.meta.env.MODE === 'test') return;
    const timer = setTimeout(() => void import('../../auth/amplifyService').catch(() => {}), 300);
    return () => clearTimeout(timer);
  }, []);

  // A confirmation link: confirm the account, take the code out of the address bar, and leave the
  // visitor on Sign In (the initial mode) with their email filled in (the initial email).
  useEffect(() => {
    if (!confirmation || confirmationStarted.current) return;
    confirmationStarted.current = true; // StrictMode runs effects twice; confirm once
    const rest = new URLSearchParams(searchParams);
    for (const name of CONFIRMATION_PARAMS) rest.delete(name);
    setSearchParams(rest, { replace: true, state: location.state as unknown });

    void confirmSignUp(confirmation.username, confirmation.code)
      .then((result) => {
        if (result.error) {
          notify({ type: 'error', title: 'Error', message: result.error.message || 'Something went wrong. Please try again.' });
        } else {
          notify({
            type: 'success',
            title: 'Account confirmed',
            message: 'Your email address is confirmed. Sign in with your email and password.',
          });
        }
      })
      .finally(() => setConfirming(false));
  }, [confirmation, searchParams, setSearchParams, location.state, confirmSignUp, notify]);

  const signingUp = mode === 'signup';
  const resetting = mode === 'forgot' || mode === 'reset';
  const heading = HEADINGS[mode];
  useDocumentTitle(heading.title);
  const formDisabled = busy || confirming;

  function clearFieldErrors() {
    setErrors({});
    if (fullNameToast.current) dismiss(fullNameToast.current);
    fullNameToast.current = null;
  }

  function changeMode(next: Mode) {
    setMode(next);
    setPassword('');
    setCode('');
    clearFieldErrors();
  }

  // Between Sign In and Create Account the typed password stays (changeMode clears it for the reset screens).
  function toggleMode() {
    setMode(signingUp ? 'signin' : 'signup');
    clearFieldErrors();
  }

  async function handleSendCode() {
    const trimmedEmail = email.trim();
    if (!trimmedEmail) {
      setErrors({ email: 'Enter your email address' });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const result = await resetPassword(trimmedEmail);
      if (result.error) {
        notify({ type: 'error', title: 'Reset Failed', message: result.error.message });
        return;
      }
      setLocalCode(result.localCode);
      setCode('');
      setPassword('');
      setMode('reset');
    } finally {
      setBusy(false);
    }
  }

  async function handleResetPassword() {
    const nextErrors: typeof errors = {};
    if (!code.trim()) nextErrors.code = 'Enter the code from the email';
    if (!password) nextErrors.password = 'Enter a new password';
    else if (!meetsPasswordRule(password)) nextErrors.password = PASSWORD_RULE_MESSAGE;
    setErrors(nextErrors);
    if (nextErrors.code || nextErrors.password) return;
    setBusy(true);
    try {
      const result = await confirmResetPassword(email.trim(), code.trim(), password);
      if (result.error) {
        if (result.error.name === 'InvalidPasswordException') setErrors({ password: result.error.message });
        else notify({ type: 'error', title: 'Reset Failed', message: result.error.message });
        return;
      }
      setLocalCode(null);
      changeMode('signin');
      notify({ type: 'success', title: 'Password reset', message: 'Your password has been changed. Sign in with your new password.' });
    } finally {
      setBusy(false);
    }
  }

  async function handleSubmit(event: SubmitEvent) {
    event.preventDefault();
    if (formDisabled) return;
    if (mode === 'forgot') return handleSendCode();
    if (mode === 'reset') return handleResetPassword();
    const trimmedEmail = email.trim();
    const nextErrors: typeof errors = {};
    if (!trimmedEmail) nextErrors.email = 'Enter your email address';
    // The account's address becomes the profile's: the app's email rule (an existing account still signs in).
    else if (signingUp && hasInvisibleOrControl(trimmedEmail)) nextErrors.email = characterMessages.invisibleInEmail;
    if (!password) nextErrors.password = 'Enter your password';
    // The pool's rule, checked here so a weak password never reaches Cognito (which would refuse it).
    else if (signingUp && !meetsPasswordRule(password)) nextErrors.password = PASSWORD_RULE_MESSAGE;
    setErrors(nextErrors);
    if (signingUp && !fullName.trim()) {
      if (fullNameToast.current) dismiss(fullNameToast.current);
      fullNameToast.current = notify({ type: 'error', title: 'Error', message: 'Please enter your full name' });
      return;
    }
    if (nextErrors.email || nextErrors.password) return;
    clearFieldErrors();

    setBusy(true);
    try {
      if (signingUp) {
        const result = await signUp(trimmedEmail, password, fullName.trim());
        if (result.error) {
          if (result.error.name === 'InvalidPasswordException') setErrors({ password: result.error.message });
          else notify({ type: 'error', title: 'Signup Failed', message: result.error.message });
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
        // Once signed in, RedirectIfSignedIn opens the dashboard.
        const signedIn = await signIn(trimmedEmail, password);
        if (signedIn.error) {
          notify({ type: 'error', title: 'Login Failed', message: signInFailure(signedIn.error) });
          setMode('signin');
        }
        return;
      }
      // Once signed in, RedirectIfSignedIn opens the dashboard (or the page that sent the visitor here).
      const result = await signIn(trimmedEmail, password);
      if (result.error) notify({ type: 'error', title: 'Login Failed', message: signInFailure(result.error) });
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

  const submitLabel = { signin: 'Sign In', signup: 'Create Account', forgot: 'Send code', reset: 'Reset password' }[mode];
  const loadingText = { signin: 'Signing in', signup: 'Creating account', forgot: 'Sending code', reset: 'Resetting password' }[mode];
  const formLabel = { signin: 'Sign in form', signup: 'Create account form', forgot: 'Forgot password form', reset: 'Reset password form' }[mode];

  return (
    <BrandedPage home>
      <Container
        header={
          <Header variant="h1" description={heading.description}>
            {heading.title}
          </Header>
        }
      >
        <SpaceBetween size="l">
          {confirming && (
            <Box color="text-status-info" textAlign="center">
              <span role="status">
                <Spinner /> Confirming your account…
              </span>
            </Box>
          )}
          {mode === 'reset' && (
            <Alert type="info" header={localCode ? 'Local stack: no email is sent' : undefined}>
              {localCode ? (
                <>
                  Your reset code is <strong data-testid="local-reset-code">{localCode}</strong>.
                </>
              ) : (
                `If an account exists for ${email.trim()}, we've emailed it a code.`
              )}
            </Alert>
          )}
          <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label={formLabel}>
            <Form
              actions={
                <Button variant="primary" formAction="submit" loading={busy} disabled={confirming} loadingText={loadingText}>
                  {submitLabel}
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
                      disabled={formDisabled}
                    />
                  </FormField>
                )}
                {mode !== 'reset' && (
                  <FormField label="Email" controlId="auth-email" errorText={errors.email}>
                    <Input
                      controlId="auth-email"
                      type="email"
                      inputMode="email"
                      value={email}
                      onChange={({ detail }) => setEmail(detail.value)}
                      autoComplete="username"
                      disabled={formDisabled}
                    />
                  </FormField>
                )}
                {mode === 'reset' && (
                  <FormField label="Code" controlId="auth-reset-code" errorText={errors.code}>
                    <Input
                      controlId="auth-reset-code"
                      inputMode="numeric"
                      value={code}
                      onChange={({ detail }) => setCode(detail.value)}
                      autoComplete="one-time-code"
                      disabled={formDisabled}
                    />
                  </FormField>
                )}
                {mode !== 'forgot' && (
                  <FormField
                    label={mode === 'reset' ? 'New password' : 'Password'}
                    controlId="auth-password"
                    errorText={errors.password}
                    constraintText={signingUp || mode === 'reset' ? PASSWORD_RULE_MESSAGE : undefined}
                    secondaryControl={
                      mode === 'signin' ? (
                        <Button variant="inline-link" onClick={() => changeMode('forgot')} disabled={formDisabled}>
                          Forgot password?
                        </Button>
                      ) : undefined
                    }
                  >
                    <Input
                      controlId="auth-password"
                      type="password"
                      value={password}
                      onChange={({ detail }) => setPassword(detail.value)}
                      autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
                      disabled={formDisabled}
                    />
                  </FormField>
                )}
              </SpaceBetween>
            </Form>
          </form>
          {resetting && (
            <Box textAlign="center">
              <Button variant="inline-link" onClick={() => changeMode('signin')} disabled={formDisabled}>
                Back to Sign In
              </Button>
            </Box>
          )}
          {!resetting && (
            <>
              <Box textAlign="center">
                {signingUp ? 'Already have an account? ' : "Don't have an account? "}
                <Button variant="inline-link" onClick={toggleMode} disabled={formDisabled}>
                  {signingUp ? 'Sign In' : 'Create Account'}
                </Button>
              </Box>
              <Box textAlign="center" color="text-body-secondary" fontSize="body-s">
                or
              </Box>
              <SpaceBetween size="xs">
                <Button
                  fullWidth
                  onClick={() => void handleGoogle()}
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
              <Box textAlign="center" color="text-body-secondary" fontSize="body-s">
                Trouble signing in?{' '}
                <Button variant="inline-link" onClick={clearCache}>
                  Clear Cache
                </Button>
              </Box>
            </>
          )}
        </SpaceBetween>
      </Container>
    </BrandedPage>
  );
}
