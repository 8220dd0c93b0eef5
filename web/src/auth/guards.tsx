import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { FullScreenSpinner } from '../components/FullScreenSpinner';
import { useAuth } from './AuthContext';

interface FromState {
  from?: string;
}

/** The pages RequireAuth guards: /dashboard, /dashboard/… and /admin/beta-waitlist (with any query or hash). */
const SIGNED_IN_PATH = /^\/(dashboard|admin\/beta-waitlist)(?=[/?#]|$)/;

/**
 * Where a signed-in user on / or /auth goes: back to the signed-in page that sent them to /auth
 * (RequireAuth puts it in the location state), else /dashboard. The one place this is decided: the
 * auth page does not navigate after signing in, this guard does as soon as the user is set.
 */
export function afterSignInPath(state: unknown): string {
  const from = (state as FromState | null)?.from;
  return typeof from === 'string' && SIGNED_IN_PATH.test(from) ? from : '/dashboard';
}

/** Signed-in only: a signed-out visitor is sent to /auth, and back here after signing in. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) return <FullScreenSpinner />;
  if (!user) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/auth" replace state={{ from } satisfies FromState} />;
  }
  return <>{children}</>;
}

/** Visitor only (/ and /auth): a signed-in user sees a spinner and goes to the dashboard. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) return <FullScreenSpinner />;
  if (user) {
    return (
      <>
        <FullScreenSpinner label="Opening your dashboard" />
        <Navigate to={afterSignInPath(location.state)} replace />
      </>
    );
  }
  return <>{children}</>;
}
