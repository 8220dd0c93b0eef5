import { useCallback, useEffect, useState } from 'react';
import type { DashboardStats } from '../../../../schema/api/insights';
import { ApiError } from '../../api/client';
import { useAuth } from '../../auth/AuthContext';

export type DashboardStatsState = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; stats: DashboardStats };

/**
 * GET /api/dashboard on mount and on `retry`. The client (and the zod schema it checks the answer with)
 * is imported here, not with the page: the dashboard's first paint stays free of zod
 * (prefetchPageLibraries.ts), and the request waits only for that chunk.
 */
export function useDashboardStats(): { state: DashboardStatsState; retry: () => void } {
  const { api } = useAuth();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<DashboardStatsState>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    import('../../api/insights')
      .then(({ getDashboardStats }) => getDashboardStats(api, controller.signal))
      .then(
        (stats) => {
          if (!controller.signal.aborted) setState({ kind: 'ready', stats });
        },
        (error: unknown) => {
          // The client's words (an error answer, no network, an answer that does not fit the contract); anything
          // else, e.g. the client's chunk failing to load, says nothing a person can use.
          if (!controller.signal.aborted) setState({ kind: 'failed', message: error instanceof ApiError ? error.message : 'Please try again.' });
        },
      );
    return () => controller.abort();
  }, [api, attempt]);

  const retry = useCallback(() => {
    setState({ kind: 'loading' });
    setAttempt((count) => count + 1);
  }, []);

  return { state, retry };
}
