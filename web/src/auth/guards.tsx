import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { FullScreenSpinner } from '../components/FullScreenSpinner';
import { useAuth } from './AuthContext';

interface FromState {
  from?: string;
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
    const from = (location.state as FromState | null)?.from;
    const target = from && (from.startsWith('/dashboard') || from.startsWith('/admin')) ? from : '/dashboard';
    return (
      <>
        <FullScreenSpinner label="Opening your dashboard" />
        <Navigate to={target} replace />
      </>
    );
  }
  return <>{children}</>;
}
