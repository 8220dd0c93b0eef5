import { useCallback, useEffect, useState } from 'react';
import type { FollowUpStepSummary } from '../../../../schema/api/followUps';
import type { CampaignEmail } from '../../../../schema/api/sending';
import { errorMessage } from '../../api/client';
import { listCampaignEmails } from '../../api/sending';
import { useAuth } from '../../auth/AuthContext';

export type CampaignEmailsState =
  { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; emails: CampaignEmail[]; followUps: FollowUpStepSummary[] };

const LOADING: CampaignEmailsState = { kind: 'loading' };

/**
 * A campaign's emails and its follow-up steps counted over them (one read serves the Sent Emails list,
 * the Follow-ups card and the funnel). `campaignId` null: the campaign is not read yet, nothing is
 * fetched. Read again when `refreshKey` changes (the campaign's counters did), keeping what is shown; a
 * refresh that fails keeps the list. Another campaign starts from loading.
 */
export function useCampaignEmails(campaignId: string | null, refreshKey: string) {
  const { api } = useAuth();
  const [stored, setStored] = useState<{ campaignId: string; state: CampaignEmailsState } | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (campaignId === null) return;
    const controller = new AbortController();
    listCampaignEmails(api, campaignId, { signal: controller.signal }).then(
      ({ emails, follow_ups }) => {
        if (!controller.signal.aborted) setStored({ campaignId, state: { kind: 'ready', emails, followUps: follow_ups } });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setStored((current) =>
          current?.campaignId === campaignId && current.state.kind === 'ready'
            ? current
            : { campaignId, state: { kind: 'failed', message: errorMessage(error) } },
        );
      },
    );
    return () => controller.abort();
  }, [api, campaignId, refreshKey, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  // The artist's "Replied" mark changes one email in place (the next refresh reads the same from the server).
  const setReplied = useCallback(
    (position: number, repliedAt: string | null) =>
      setStored((current) =>
        current?.state.kind === 'ready'
          ? {
              campaignId: current.campaignId,
              state: {
                ...current.state,
                emails: current.state.emails.map((email) => (email.position === position ? { ...email, replied_at: repliedAt } : email)),
              },
            }
          : current,
      ),
    [],
  );

  const state = stored !== null && stored.campaignId === campaignId ? stored.state : LOADING;
  return { state, retry, setReplied };
}
