import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards, { type CardsProps } from '@cloudscape-design/components/cards';
import Header from '@cloudscape-design/components/header';
import Modal from '@cloudscape-design/components/modal';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useCallback, useEffect, useState } from 'react';
import { pendingEmails, type CampaignSummary } from '../../../../schema/api/campaigns';
import { campaignMessages } from '../../../../schema/api/sending';
import { errorMessage } from '../../api/client';
import { resumeCampaign } from '../../api/sending';
import { useAuth } from '../../auth/AuthContext';
import { useFollow } from '../../components/useFollow';
import { useKeyedState } from '../../lib/useKeyedState';
import { plural } from '../../../../schema/plural';
import { useNotifications } from '../../notifications/NotificationsContext';
import { PageShell } from '../dashboard/PageShell';
import {
  badgeColors,
  campaignBadge,
  campaignPath,
  campaignTotal,
  formatDateTime,
  genreLabel,
  monthlyLimitPauseTexts,
  progressPercent,
  STATISTICS_ANCHOR,
} from './campaignView';
import { Figures } from './Figures';
import { deleteDraft, deleteDrafts, listCampaigns } from './campaignsApi';
import { composeDraftPath } from '../compose/composeSession';
import { TodayStatusCard } from './TodayStatusCard';
import { useUsage } from '../../usage/UsageContext';

/** 1 column on phones, 2 on tablets, 3 on desktop (widths of the list, not the window). */
export const CAMPAIGN_CARDS_PER_ROW: CardsProps.CardsLayout[] = [{ cards: 1 }, { minWidth: 600, cards: 2 }, { minWidth: 900, cards: 3 }];

type ListState = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; campaigns: CampaignSummary[] };

const LOADING: ListState = { kind: 'loading' };

/**
 * /dashboard/campaigns (spec §2): today's sending status, then a card per campaign with its badge
 * (spec §4), progress and counts, 'Resume (n)' for a paused one, 'View' and 'Stats' (the detail page's
 * statistics: the analytics page has no per-campaign view).
 */
export default function CampaignsPage() {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const follow = useFollow();
  const { state: sendingStatus, refresh: refreshUsage } = useUsage();
  const [attempt, setAttempt] = useState(0);
  // Loading until the read for this attempt answers.
  const request = String(attempt);
  const [list, setListFor, updateList] = useKeyedState(request, LOADING);
  const [resuming, setResuming] = useState<ReadonlySet<string>>(new Set());
  /** Drafts ticked for 'Delete Selected' (only drafts can be: a sent campaign keeps its history). */
  const [selectedDrafts, setSelectedDrafts] = useState<readonly CampaignSummary[]>([]);
  /** The drafts the confirmation dialog is about to delete, while it is open. */
  const [confirmingDelete, setConfirmingDelete] = useState<readonly CampaignSummary[] | null>(null);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    listCampaigns(api, { signal: controller.signal }).then(
      (campaigns) => {
        if (!controller.signal.aborted) setListFor(request, { kind: 'ready', campaigns });
      },
      () => {
        if (!controller.signal.aborted) setListFor(request, { kind: 'failed' });
      },
    );
    return () => controller.abort();
  }, [api, request, setListFor]);

  const resume = useCallback(
    async (campaign: CampaignSummary) => {
      setResuming((current) => new Set(current).add(campaign.id));
      try {
        const updated = await resumeCampaign(api, campaign.id);
        updateList((current) =>
          current.kind === 'ready' ? { ...current, campaigns: current.campaigns.map((c) => (c.id === updated.id ? updated : c)) } : current,
        );
        // Its queue goes out again: the sidebar's usage follows it.
        refreshUsage();
        notify({ type: 'success', title: campaignMessages.resumed });
      } catch (error) {
        notify({ type: 'error', title: campaignMessages.resumeFailed(errorMessage(error)) });
      } finally {
        setResuming((current) => {
          const next = new Set(current);
          next.delete(campaign.id);
          return next;
        });
      }
    },
    [api, notify, updateList, refreshUsage],
  );

  async function removeDrafts(drafts: readonly CampaignSummary[]) {
    setDeleting(true);
    try {
      const ids = drafts.map((draft) => draft.id);
      const [only] = drafts;
      // One draft: its own DELETE, so a campaign sent meanwhile is named (409) instead of silently kept.
      if (only && drafts.length === 1) await deleteDraft(api, only.id);
      const gone = new Set(only && drafts.length === 1 ? ids : await deleteDrafts(api, ids));
      updateList((current) => (current.kind === 'ready' ? { ...current, campaigns: current.campaigns.filter((c) => !gone.has(c.id)) } : current));
      setSelectedDrafts((current) => current.filter((c) => !gone.has(c.id)));
      const kept = drafts.length - gone.size;
      notify({
        type: 'success',
        title: `${plural(gone.size, 'draft')} deleted`,
        ...(kept > 0 ? { message: `${plural(kept, 'draft')} could not be deleted: sent meanwhile, or already gone.` } : {}),
      });
      setConfirmingDelete(null);
    } catch (error) {
      // The dialog stays open, so the artist can try again or cancel; nothing was deleted that the list still shows.
      notify({ type: 'error', title: 'Failed to delete drafts', message: errorMessage(error) });
    } finally {
      setDeleting(false);
    }
  }

  const cardDefinition: CardsProps.CardDefinition<CampaignSummary> = {
    header: (campaign) => (
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        <Box variant="h3" tagOverride="h2" padding="n">
          {campaign.track_name}
        </Box>
        <CampaignBadge campaign={campaign} />
      </SpaceBetween>
    ),
    sections: [
      {
        id: 'about',
        content: (campaign) => (
          <SpaceBetween size="xxs">
            <Box color="text-body-secondary">{genreLabel(campaign.genre)}</Box>
            {campaign.description && <Box>{campaign.description}</Box>}
            {campaign.sending_status === 'paused' && campaign.pause_reason === 'monthly_limit' && (
              <StatusIndicator type="warning">{monthlyLimitPauseTexts.card}</StatusIndicator>
            )}
          </SpaceBetween>
        ),
      },
      {
        id: 'times',
        content: (campaign) => (
          <Figures
            minWidth={120}
            items={[
              { label: 'Started', value: formatDateTime(campaign.started_sending_at) },
              { label: 'Completed', value: formatDateTime(campaign.completed_sending_at) },
            ]}
          />
        ),
      },
      {
        id: 'progress',
        content: (campaign) => (
          <ProgressBar
            value={progressPercent(campaign)}
            label="Progress"
            ariaLabel={`${campaign.track_name}: progress`}
            additionalInfo={`${campaign.emails_sent} of ${campaignTotal(campaign)} sent`}
          />
        ),
      },
      {
        id: 'counts',
        content: (campaign) => (
          <Figures
            large
            minWidth={64}
            items={[
              { label: 'Sent', value: campaign.emails_sent.toLocaleString() },
              { label: 'Opened', value: campaign.emails_opened.toLocaleString() },
              { label: 'Clicked', value: campaign.emails_clicked.toLocaleString() },
              ...(campaign.track_id
                ? [
                    { label: 'Listened', value: campaign.emails_listened.toLocaleString() },
                    { label: 'Answered', value: campaign.emails_answered.toLocaleString() },
                  ]
                : []),
            ]}
          />
        ),
      },
      {
        id: 'actions',
        content: (campaign) => (
          <SpaceBetween direction="horizontal" size="xs">
            {campaign.sending_status === 'paused' && (
              <Button
                variant="primary"
                loading={resuming.has(campaign.id)}
                ariaLabel={`Resume ${campaign.track_name} (${pendingEmails(campaign)} pending)`}
                onClick={() => void resume(campaign)}
              >
                Resume ({pendingEmails(campaign)})
              </Button>
            )}
            {campaign.status === 'draft' && (
              <Button variant="primary" href={composeDraftPath(campaign.id)} onFollow={follow} ariaLabel={`Continue in Compose: ${campaign.track_name}`}>
                Continue in Compose
              </Button>
            )}
            <Button href={campaignPath(campaign.id)} onFollow={follow} ariaLabel={`View ${campaign.track_name}`}>
              View
            </Button>
            <Button href={`${campaignPath(campaign.id)}#${STATISTICS_ANCHOR}`} onFollow={follow} ariaLabel={`Stats of ${campaign.track_name}`}>
              Stats
            </Button>
            {campaign.status === 'draft' && (
              <Button ariaLabel={`Delete draft ${campaign.track_name}`} onClick={() => setConfirmingDelete([campaign])}>
                Delete
              </Button>
            )}
          </SpaceBetween>
        ),
      },
    ],
  };

  return (
    <PageShell title="Campaigns" description="Track your campaigns as they send, pause or resume them, and see how they did.">
      <TodayStatusCard state={sendingStatus} />
      {list.kind === 'failed' ? (
        <Alert type="error" action={<Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>}>
          {campaignMessages.loadFailed}
        </Alert>
      ) : (
        <Cards
          items={list.kind === 'ready' ? list.campaigns : []}
          trackBy="id"
          loading={list.kind === 'loading'}
          loadingText="Loading campaigns"
          cardsPerRow={CAMPAIGN_CARDS_PER_ROW}
          cardDefinition={cardDefinition}
          selectionType="multi"
          selectedItems={[...selectedDrafts]}
          onSelectionChange={({ detail }) => setSelectedDrafts(detail.selectedItems)}
          isItemDisabled={(campaign) => campaign.status !== 'draft'}
          header={
            <Header
              counter={selectedDrafts.length > 0 ? `(${selectedDrafts.length} selected)` : undefined}
              description="Tick drafts to delete several at once; a sent campaign keeps its history."
              actions={
                <Button disabled={selectedDrafts.length === 0} onClick={() => setConfirmingDelete(selectedDrafts)}>
                  Delete Selected
                </Button>
              }
            >
              Your campaigns
            </Header>
          }
          ariaLabels={{
            cardsLabel: 'Campaigns',
            itemSelectionLabel: (_state, campaign) =>
              campaign.status === 'draft' ? `Select draft ${campaign.track_name}` : `${campaign.track_name}: sent, cannot be deleted`,
            // Cloudscape puts the group label before each item's label; the item's label says it all.
            selectionGroupLabel: '',
          }}
          empty={
            <Box textAlign="center" color="inherit" padding="l">
              <SpaceBetween size="s">
                <Box variant="h2" tagOverride="p" padding="n">
                  {campaignMessages.empty}
                </Box>
                <Box color="text-body-secondary">Create your first campaign from the Compose page.</Box>
                <Button href="/dashboard/compose" onFollow={follow} variant="primary">
                  Go to Compose
                </Button>
              </SpaceBetween>
            </Box>
          }
        />
      )}
      {confirmingDelete && (
        <Modal
          visible
          onDismiss={() => !deleting && setConfirmingDelete(null)}
          header="Delete Drafts"
          footer={
            <Box float="right">
              <SpaceBetween direction="horizontal" size="xs">
                <Button variant="link" disabled={deleting} onClick={() => setConfirmingDelete(null)}>
                  Cancel
                </Button>
                <Button variant="primary" loading={deleting} loadingText="Deleting..." onClick={() => void removeDrafts(confirmingDelete)}>
                  Delete
                </Button>
              </SpaceBetween>
            </Box>
          }
        >
          {`You are about to delete ${plural(confirmingDelete.length, 'draft')}. This action cannot be undone.`}
        </Modal>
      )}
    </PageShell>
  );
}

export function CampaignBadge({ campaign }: { campaign: Parameters<typeof campaignBadge>[0] }) {
  const label = campaignBadge(campaign);
  return <Badge color={badgeColors[label]}>{label}</Badge>;
}
