import { useEffect, useState } from 'react';
import type { SendingStatus } from '../../../../schema/api/sending';
import { getSendingStatus } from '../../api/sending';
import { useAuth } from '../../auth/AuthContext';

export type SendingStatusState = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; status: SendingStatus };

/** Spec §9: the usage widget refreshes every 60 s. */
export const USAGE_REFRESH_MS = 60_000;

/**
 * GET /api/sending/status on mount and then every `refreshMs` (none when undefined). A failed refresh
 * keeps the last figures on screen; only a first load that fails reports 'failed'.
 */
export function useSendingStatus(refreshMs?: number): SendingStatusState {
  const { api } = useAuth();
  const [state, setState] = useState<SendingStatusState>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    const load = () =>
      getSendingStatus(api, { signal: controller.signal }).then(
        (status) => {
          if (!controller.signal.aborted) setState({ kind: 'ready', status });
        },
        () => {
          if (!controller.signal.aborted) setState((current) => (current.kind === 'ready' ? current : { kind: 'failed' }));
        },
      );
    void load();
    const timer = refreshMs === undefined ? undefined : setInterval(() => void load(), refreshMs);
    return () => {
      controller.abort();
      if (timer !== undefined) clearInterval(timer);
    };
  }, [api, refreshMs]);

  return state;
}
