import { useCallback, useEffect, useRef, useState } from 'react';
import { BETA_SPOTS, fetchWaitlistSpots, spotsRemaining } from '../../api/waitlist';
import styles from './landing.module.css';

export type SpotsState = { status: 'loading' } | { status: 'ready'; remaining: number } | { status: 'error' };

/** Spots remaining from GET /api/waitlist/spots; refresh() asks again (after a sign-up). */
export function useWaitlistSpots(fetchImpl?: typeof fetch) {
  const [state, setState] = useState<SpotsState>({ status: 'loading' });
  const controller = useRef<AbortController | null>(null);

  const refresh = useCallback(() => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    fetchWaitlistSpots(current.signal, fetchImpl).then(
      (spots) => {
        if (!current.signal.aborted) setState({ status: 'ready', remaining: spotsRemaining(spots) });
      },
      (error: unknown) => {
        if (current.signal.aborted) return;
        console.error('Could not load the beta spots', error);
        // Keep a number already shown; otherwise fall back to the plain claim without a count.
        setState((previous) => (previous.status === 'ready' ? previous : { status: 'error' }));
      },
    );
  }, [fetchImpl]);

  useEffect(() => {
    refresh();
    return () => controller.current?.abort();
  }, [refresh]);

  return { state, refresh };
}

/** The beta block's '50 spots' badge and how many are left (never below 0; no made-up number). */
export function BetaSpots({ state }: { state: SpotsState }) {
  const remaining = state.status === 'ready' ? state.remaining : null;
  const filled = remaining === null ? 0 : ((BETA_SPOTS - remaining) / BETA_SPOTS) * 100;
  return (
    <div className={styles.spots} aria-busy={state.status === 'loading'} data-testid="beta-spots">
      <p className={styles.spotsBadge}>{BETA_SPOTS} spots</p>
      <p className={styles.spotsText} aria-live="polite">
        {state.status === 'loading' && <span className={styles.spotsMuted}>Checking how many spots are left…</span>}
        {state.status === 'error' && <span>Limited to the first {BETA_SPOTS} producers.</span>}
        {remaining !== null && remaining > 0 && (
          <span>
            <strong className={styles.spotsCount}>{remaining}</strong> of {BETA_SPOTS} spots remaining
          </span>
        )}
        {remaining === 0 && <span>All {BETA_SPOTS} spots are taken. Join the waitlist and we'll tell you when more open.</span>}
      </p>
      <div className={styles.spotsBar} aria-hidden="true">
        <span style={{ width: `${Math.min(100, Math.max(0, filled))}%` }} data-loading={state.status === 'loading' || undefined} />
      </div>
    </div>
  );
}
