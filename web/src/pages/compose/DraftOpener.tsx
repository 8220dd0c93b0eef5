import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useEffect, useState } from 'react';
import { composeMessages, type Campaign } from '../../../../schema/api/campaigns';
import { ApiError, errorMessage } from '../../api/client';
import { useAuth } from '../../auth/AuthContext';
import { useFollow } from '../../components/useFollow';
import { PageShell } from '../dashboard/PageShell';
import { campaignPath } from '../campaigns/campaignView';
import { getCampaign } from '../campaigns/campaignsApi';
import { isEmptyComposeSession, readComposeSession, sessionFromDraft, type ComposeSession } from './composeSession';

export const REPLACE_SESSION_TITLE = 'Replace your compose session?';

/** What opening a draft gives Compose: the draft, the session to start from, and whether its recipients must be chosen again. */
export interface OpenedDraft {
  campaign: Campaign;
  session: ComposeSession;
  recipientsToChoose: boolean;
}

type OpenerState =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'notDraft'; campaign: Campaign }
  | { kind: 'confirm'; campaign: Campaign; current: ComposeSession };

/** The draft as Compose opens it: the session already holding it is kept as it is (it has the recipients and unsaved edits). */
function openedFrom(campaign: Campaign, current: ComposeSession | null): OpenedDraft {
  if (current?.campaign_id === campaign.id) return { campaign, session: current, recipientsToChoose: false };
  const session = sessionFromDraft(campaign);
  return { campaign, session, recipientsToChoose: campaign.total_recipients > session.selected_ids.length };
}

/**
 * 'Continue in Compose' (/dashboard/compose?draft=<id>): reads the draft and hands it to Compose. When
 * the browser holds another compose session with work in it, it asks first: 'Open draft' replaces that
 * session (a draft it saved stays on the Campaigns page), 'Keep current session' goes back to it.
 */
export function DraftOpener({ draftId, onOpen, onKeep }: { draftId: string; onOpen: (opened: OpenedDraft) => void; onKeep: () => void }) {
  const { api, user } = useAuth();
  const userId = user?.userId ?? null;
  const follow = useFollow();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<OpenerState>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    getCampaign(api, draftId, { signal: controller.signal }).then(
      (campaign) => {
        if (controller.signal.aborted) return;
        // Work of another campaign (the mode alone is not work) is replaced only when the artist says so.
        const current = userId === null ? null : readComposeSession(userId);
        if (campaign.status !== 'draft') setState({ kind: 'notDraft', campaign });
        else if (current === null || isEmptyComposeSession({ ...current, mode: 'ai' }) || current.campaign_id === campaign.id)
          onOpen(openedFrom(campaign, current));
        else setState({ kind: 'confirm', campaign, current });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof ApiError && error.status === 404 ? composeMessages.campaignNotFound : errorMessage(error);
        setState({ kind: 'failed', message });
      },
    );
    return () => controller.abort();
  }, [api, draftId, userId, onOpen, attempt]);

  const keepButton = <Button onClick={onKeep}>Back to Compose</Button>;
  return (
    <PageShell title="Compose Campaign" description="Pitch your track with a personal email to each contact.">
      {state.kind === 'failed' ? (
        <Alert
          type="error"
          header="The draft could not be opened"
          action={
            <SpaceBetween direction="horizontal" size="xs">
              <Button
                onClick={() => {
                  setState({ kind: 'loading' });
                  setAttempt((n) => n + 1);
                }}
              >
                Retry
              </Button>
              {keepButton}
            </SpaceBetween>
          }
        >
          {state.message}
        </Alert>
      ) : state.kind === 'notDraft' ? (
        <Alert
          type="info"
          header="This campaign is no longer a draft"
          action={
            <SpaceBetween direction="horizontal" size="xs">
              <Button href={campaignPath(state.campaign.id)} onFollow={follow}>
                View campaign
              </Button>
              {keepButton}
            </SpaceBetween>
          }
        >
          {`"${state.campaign.track_name}" has started sending, so it can no longer be changed in Compose.`}
        </Alert>
      ) : (
        <StatusIndicator type="loading">Opening the draft…</StatusIndicator>
      )}
      {state.kind === 'confirm' && (
        <Modal
          visible
          onDismiss={onKeep}
          header={REPLACE_SESSION_TITLE}
          footer={
            <Box float="right">
              <SpaceBetween direction="horizontal" size="xs">
                <Button variant="link" onClick={onKeep}>
                  Keep current session
                </Button>
                <Button variant="primary" onClick={() => onOpen(openedFrom(state.campaign, state.current))}>
                  Open draft
                </Button>
              </SpaceBetween>
            </Box>
          }
        >
          {`Compose holds another campaign you are working on${state.current.track.track_name.trim() ? ` ("${state.current.track.track_name.trim()}")` : ''}. Opening the draft "${state.campaign.track_name}" replaces it in Compose; what it saved as a draft stays on the Campaigns page.`}
        </Modal>
      )}
    </PageShell>
  );
}
