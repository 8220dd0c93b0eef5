import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards from '@cloudscape-design/components/cards';
import Checkbox from '@cloudscape-design/components/checkbox';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useCallback, useEffect, useState } from 'react';
import { contactMessages, type Unsubscribe } from '../../../../schema/api/contacts';
import { ApiError, errorMessage } from '../../api/client';
import { listUnsubscribes, resubscribe } from '../../api/contacts';
import { useAuth } from '../../auth/AuthContext';
import { useNow } from '../../lib/useNow';
import { useNotifications } from '../../notifications/NotificationsContext';
import styles from './contacts.module.css';
import { timeAgo } from './timeAgo';

const cardsPerRow = [{ cards: 1 }, { minWidth: 600, cards: 2 }, { minWidth: 960, cards: 3 }];

const displayName = (entry: Unsubscribe) => entry.contact_name || entry.contact_email;

/**
 * The Unsubscribed tab (spec §2): loaded each time the tab is opened. Resubscribe removes the record,
 * so the address may be emailed again; `onCount` keeps the tab label's count in step.
 */
export function UnsubscribedList({ onCount }: { onCount: (count: number) => void }) {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const [entries, setEntries] = useState<Unsubscribe[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  /** The entry whose resubscribe is being confirmed, and whether the artist ticked that the recipient asked. */
  const [confirming, setConfirming] = useState<Unsubscribe | null>(null);
  const [recipientAsked, setRecipientAsked] = useState(false);

  // State is set only in the request's callbacks, so the effect below may start it (status starts 'loading').
  const fetchList = useCallback(
    (signal?: AbortSignal) =>
      listUnsubscribes(api, { signal }).then(
        (list) => {
          if (signal?.aborted) return;
          setEntries(list);
          setStatus('ready');
        },
        (error: unknown) => {
          if (signal?.aborted) return;
          setStatus('failed');
          notify({ type: 'error', title: contactMessages.unsubscribedLoadFailed, message: errorMessage(error) });
        },
      ),
    [api, notify],
  );

  /** Retry: back to loading, then read again. */
  const reload = () => {
    setStatus('loading');
    void fetchList();
  };

  // The loaded list is the truest count there is: the tab label follows it.
  useEffect(() => {
    if (status === 'ready') onCount(entries.length);
  }, [entries, status, onCount]);

  useEffect(() => {
    const controller = new AbortController();
    void fetchList(controller.signal);
    return () => controller.abort();
  }, [fetchList]);

  async function resubscribeEntry(entry: Unsubscribe) {
    setBusy((current) => new Set(current).add(entry.id));
    try {
      try {
        await resubscribe(api, entry.id);
      } catch (error) {
        // 404: no longer on the list (resubscribed elsewhere), which is what was asked.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
      setEntries((list) => list.filter((item) => item.id !== entry.id));
      notify({ type: 'success', title: contactMessages.resubscribed });
    } catch (error) {
      notify({ type: 'error', title: contactMessages.resubscribeFailed, message: errorMessage(error) });
    } finally {
      setBusy((current) => {
        const next = new Set(current);
        next.delete(entry.id);
        return next;
      });
    }
  }

  // 'Unsubscribed 5 minutes ago' moves on while the tab stays open.
  const now = useNow(60_000);

  const askToResubscribe = (entry: Unsubscribe) => {
    setRecipientAsked(false);
    setConfirming(entry);
  };
  const closeConfirmation = () => setConfirming(null);
  const confirmResubscribe = () => {
    if (!confirming || !recipientAsked) return;
    const entry = confirming;
    setConfirming(null);
    void resubscribeEntry(entry);
  };

  return (
    <>
      <Cards
        items={entries}
        trackBy="id"
        cardsPerRow={cardsPerRow}
        loading={status === 'loading'}
        loadingText="Loading unsubscribed contacts"
        ariaLabels={{ cardsLabel: 'Unsubscribed contacts', itemSelectionLabel: () => '', selectionGroupLabel: 'Unsubscribed contacts' }}
        empty={
          status === 'failed' ? (
            <Box textAlign="center" color="inherit" padding="l">
              <SpaceBetween size="s">
                <b>{contactMessages.unsubscribedLoadFailed}</b>
                <Button onClick={reload}>Retry</Button>
              </SpaceBetween>
            </Box>
          ) : (
            <Box textAlign="center" color="inherit" padding="l">
              <b>No unsubscribed contacts yet</b>
            </Box>
          )
        }
        cardDefinition={{
          header: (entry) => <span className={styles.cardTitle}>{displayName(entry)}</span>,
          sections: [
            {
              id: 'details',
              content: (entry) => (
                <SpaceBetween size="xxs">
                  <span className={styles.breakAnywhere}>{entry.contact_email}</span>
                  <Box color="text-body-secondary">
                    <time dateTime={entry.unsubscribed_at} title={new Date(entry.unsubscribed_at).toLocaleString()}>
                      {`Unsubscribed ${timeAgo(entry.unsubscribed_at, now)} ago`}
                    </time>
                  </Box>
                  {entry.track_name && <span className={styles.breakAnywhere}>{`From campaign: ${entry.track_name}`}</span>}
                  {entry.unsubscribe_reason && (
                    <span>
                      <Box variant="span" fontWeight="bold">
                        Reason:
                      </Box>{' '}
                      {entry.unsubscribe_reason}
                    </span>
                  )}
                  {entry.unsubscribe_reason_details && <span className={styles.details}>{entry.unsubscribe_reason_details}</span>}
                </SpaceBetween>
              ),
            },
            {
              id: 'actions',
              content: (entry) => (
                <Button onClick={() => askToResubscribe(entry)} loading={busy.has(entry.id)} ariaLabel={`Resubscribe ${displayName(entry)}`}>
                  Resubscribe
                </Button>
              ),
            },
          ],
        }}
      />
      {confirming && (
        <Modal
          visible
          onDismiss={closeConfirmation}
          header={`Resubscribe ${displayName(confirming)}?`}
          footer={
            <Box float="right">
              <SpaceBetween direction="horizontal" size="xs">
                <Button variant="link" onClick={closeConfirmation}>
                  Cancel
                </Button>
                <Button variant="primary" disabled={!recipientAsked} onClick={confirmResubscribe}>
                  Resubscribe
                </Button>
              </SpaceBetween>
            </Box>
          }
        >
          <SpaceBetween size="m">
            <span>
              {`${confirming.contact_email} unsubscribed themselves ${timeAgo(confirming.unsubscribed_at, now)} ago`}
              {confirming.track_name ? `, from your campaign ${confirming.track_name}` : ''}. Resubscribing lets your campaigns email them again.
            </span>
            <span>Only do this if they asked you to add them back. Trackpitch records that you resubscribed them, and when.</span>
            <Checkbox checked={recipientAsked} onChange={({ detail }) => setRecipientAsked(detail.checked)}>
              They asked me to add them back
            </Checkbox>
          </SpaceBetween>
        </Modal>
      )}
    </>
  );
}
