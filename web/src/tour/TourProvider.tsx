import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useAuth } from '../auth/AuthContext';
import { isPhoneViewport } from '../lib/viewport';
import { TourContext } from './TourContext';
import { markTourCompletedOnProfile } from '../api/profile';
import { markTourCompleted, shouldAutoStartTour } from './tourRules';

// Downloaded when the tour first opens; unmounted when it ends, so nothing of it stays over the page.
const TourPopover = lazy(() => import('./TourPopover'));

/** The guided tour over the dashboard: starts by itself for a new profile, or from Show Tour once a page session. */
export function TourProvider({ children }: { children: ReactNode }) {
  const { user, profile, api } = useAuth();
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState(0);
  const [phone, setPhone] = useState(false);
  const [manualStartUsed, setManualStartUsed] = useState(false);
  const autoChecked = useRef<string | null>(null);

  const show = useCallback(() => {
    setPhone(isPhoneViewport());
    setStep(0);
    setOpen(true);
  }, []);

  const canStart = !open && !manualStartUsed;
  const start = useCallback(() => {
    if (!canStart) return;
    setManualStartUsed(true);
    show();
  }, [canStart, show]);

  // Skipping counts as finishing: either way the tour does not start by itself again. The profile keeps
  // the flag for every browser; this browser's flag covers a request that fails (nothing to tell the user).
  // The profile the shell holds is left as loaded, so this visit's greeting does not change under the user.
  const end = useCallback(() => {
    setOpen(false);
    if (!user) return;
    markTourCompleted(user.userId);
    markTourCompletedOnProfile(api).catch(() => {});
  }, [user, api]);

  // Auto-start once per page session, for a profile created less than 24 hours ago. The check reads the
  // clock and storage, so it runs here; the tour opens right after, in a microtask, not during the effect.
  useEffect(() => {
    if (!user || !profile || autoChecked.current === user.userId) return;
    autoChecked.current = user.userId;
    // Not cancelled on cleanup: the check above runs once per user (StrictMode's second run skips it).
    if (shouldAutoStartTour({ userId: user.userId, profileCreatedAt: profile.created_at, profileTourCompleted: profile.tour_completed }))
      void Promise.resolve().then(show);
  }, [user, profile, show]);

  const value = useMemo(() => ({ open, start, canStart }), [open, start, canStart]);

  return (
    <TourContext.Provider value={value}>
      {children}
      {open && (
        <Suspense fallback={null}>
          <TourPopover phone={phone} step={step} onStep={setStep} onEnd={end} />
        </Suspense>
      )}
    </TourContext.Provider>
  );
}
