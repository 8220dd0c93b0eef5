import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { SendingStatus } from '../../../schema/api/sending';
import { getSendingStatus } from '../api/sending';
import { useAuth } from '../auth/AuthContext';

export type SendingStatusState = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; status: SendingStatus };

/** Spec §9: the usage widget refreshes every 60 s. Also the slowest pace of the poll while emails go out. */
export const USAGE_REFRESH_MS = 60_000;

/** The fastest poll while sending (a demo's pace may be seconds): modest on the server and the battery. */
export const USAGE_SENDING_POLL_MIN_MS = 10_000;

export interface UsageValue {
  /** GET /api/sending/status as last read: the month's usage, today's, the mailbox and the queue. */
  state: SendingStatusState;
  /** Reads the status again now: after a send action (a batch queued, a resume, a pause, a retry). */
  refresh: () => void;
  /** A page that shows the usage widget asks for the 60-s refresh while it is shown; returns the release. */
  requestSteadyRefresh: () => () => void;
}

const UsageContext = createContext<UsageValue | null>(null);

/**
 * How long until the status is read again: at the sending pace (10–60 s) while the user has emails
 * queued, since each one sent adds to the month's figure; every 60 s while a page asks for it; else
 * never (nothing changes the figure but the user's own actions, which refresh it).
 */
export function usagePollMs(state: SendingStatusState, steady: boolean): number | null {
  if (state.kind === 'ready' && state.status.next_send_at !== null) {
    return Math.min(USAGE_REFRESH_MS, Math.max(USAGE_SENDING_POLL_MIN_MS, state.status.send_interval_seconds * 1000));
  }
  return steady ? USAGE_REFRESH_MS : null;
}

/**
 * The one source of the usage figures in the dashboard: the sidebar's 'Emails this month' and the
 * campaign pages' usage widgets read it, so they move together and agree (web/src/lib/monthUsage.ts
 * turns them into the percentage). A failed read keeps the last figures; only a first read that fails
 * reports 'failed'.
 */
export function UsageProvider({ children }: { children: ReactNode }) {
  const { api, profile } = useAuth();
  /** The plan as the profile has it: a plan change (an upgrade just paid) changes the month's limit. */
  const plan = profile ? `${profile.tier}/${profile.email_limit ?? 'unlimited'}` : null;
  const [state, setState] = useState<SendingStatusState>({ kind: 'loading' });
  /** Answered reads, failed ones too: each answer schedules the next poll. */
  const [answers, setAnswers] = useState(0);
  const [steadyRequests, setSteadyRequests] = useState(0);
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(() => {
    // The newer read wins: an older answer must not overwrite it.
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    getSendingStatus(api, { signal: controller.signal })
      .then(
        (status) => {
          if (!controller.signal.aborted) setState({ kind: 'ready', status });
        },
        () => {
          if (!controller.signal.aborted) setState((current) => (current.kind === 'ready' ? current : { kind: 'failed' }));
        },
      )
      .finally(() => {
        if (!controller.signal.aborted) setAnswers((n) => n + 1);
      });
  }, [api]);

  // Read on mount, and again when the plan changes, so the sidebar shows the new limit at once.
  useEffect(() => {
    refresh();
    return () => inFlight.current?.abort();
  }, [refresh, plan]);

  const pollMs = usagePollMs(state, steadyRequests > 0);
  useEffect(() => {
    if (pollMs === null) return;
    const timer = setTimeout(refresh, pollMs);
    return () => clearTimeout(timer);
  }, [answers, pollMs, refresh]);

  const requestSteadyRefresh = useCallback(() => {
    setSteadyRequests((n) => n + 1);
    return () => setSteadyRequests((n) => n - 1);
  }, []);

  const value = useMemo<UsageValue>(() => ({ state, refresh, requestSteadyRefresh }), [state, refresh, requestSteadyRefresh]);
  return <UsageContext.Provider value={value}>{children}</UsageContext.Provider>;
}

/**
 * The dashboard's usage (see UsageProvider). `steadyRefresh`: this page shows the usage widget, which
 * spec §9 refreshes every 60 s while it is on screen.
 */
export function useUsage({ steadyRefresh = false }: { steadyRefresh?: boolean } = {}): UsageValue {
  const value = useContext(UsageContext);
  if (!value) throw new Error('useUsage must be used inside UsageProvider');
  const { requestSteadyRefresh } = value;
  useEffect(() => (steadyRefresh ? requestSteadyRefresh() : undefined), [steadyRefresh, requestSteadyRefresh]);
  return value;
}
