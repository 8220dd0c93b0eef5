import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import type { ApiClient } from '../../api/client';
import { errorMessage } from '../../api/client';
import { useAuth } from '../../auth/AuthContext';

/** A contact card's section read when it is first opened: loading, failed (with Retry), or its items. */
export type ContactReadState<T> = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; items: T[] };

/**
 * Reads `load` for the contact once mounted (the section mounts it when opened), again on `retry`; an
 * answer after unmount or a newer read is dropped. `setState` lets the section update what it shows.
 */
export function useContactRead<T>(
  contactId: string,
  load: (api: ApiClient, contactId: string, options: { signal: AbortSignal }) => Promise<T[]>,
): { state: ContactReadState<T>; setState: Dispatch<SetStateAction<ContactReadState<T>>>; retry: () => void } {
  const { api } = useAuth();
  const [state, setState] = useState<ContactReadState<T>>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    load(api, contactId, { signal: controller.signal }).then(
      (items) => !controller.signal.aborted && setState({ kind: 'ready', items }),
      (error: unknown) => !controller.signal.aborted && setState({ kind: 'failed', message: errorMessage(error) }),
    );
    return () => controller.abort();
  }, [api, contactId, load, attempt]);

  const retry = () => {
    setState({ kind: 'loading' });
    setAttempt((n) => n + 1);
  };
  return { state, setState, retry };
}

/** 'Failed to load the <what>: <message>' with Retry. */
export function ContactReadFailed({ what, message, onRetry }: { what: string; message: string; onRetry: () => void }) {
  return (
    <SpaceBetween size="xs">
      <StatusIndicator type="error">{`Failed to load the ${what}: ${message}`}</StatusIndicator>
      <Button onClick={onRetry}>Retry</Button>
    </SpaceBetween>
  );
}
