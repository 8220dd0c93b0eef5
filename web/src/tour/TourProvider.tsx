import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useAuth } from '../auth/AuthContext';
import { TourContext } from './TourContext';
import { markTourCompleted, shouldAutoStartTour } from './tourRules';

// Downloaded when the tour first opens, then kept mounted so that closing it behaves as before.
const TourDialog = lazy(() => import('./TourDialog'));

/** A step-by-step walkthrough of the dashboard sections in an accessible modal dialog. */
export function TourProvider({ children }: { children: ReactNode }) {
  const { user, profile } = useAuth();
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState(0);
  const [opened, setOpened] = useState(false);
  const autoChecked = useRef<string | null>(null);

  const start = useCallback(() => {
    setStep(0);
    setOpen(true);
    setOpened(true);
  }, []);

  const close = useCallback(() => {
    setOpen(false);
    if (user) markTourCompleted(user.userId);
  }, [user]);

  // Auto-start once per page session, for a profile created less than 24 hours ago. The check reads the
  // clock and storage, so it runs here; the tour opens right after, in a microtask, not during the effect.
  useEffect(() => {
    if (!user || !profile || autoChecked.current === user.userId) return;
    autoChecked.current = user.userId;
    // Not cancelled on cleanup: the check above runs once per user (StrictMode's second run skips it).
    if (shouldAutoStartTour({ userId: user.userId, profileCreatedAt: profile.created_at })) void Promise.resolve().then(start);
  }, [user, profile, start]);

  const value = useMemo(() => ({ open, start }), [open, start]);

  return (
    <TourContext.Provider value={value}>
      {children}
      {opened && (
        <Suspense fallback={null}>
          <TourDialog open={open} step={step} onStep={setStep} onClose={close} />
        </Suspense>
      )}
    </TourContext.Provider>
  );
}
