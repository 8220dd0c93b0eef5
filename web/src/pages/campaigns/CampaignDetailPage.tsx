import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import Popover from '@cloudscape-design/components/popover';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import type { Campaign } from '../../../../schema/api/campaigns';
import { campaignMessages } from '../../../../schema/api/sending';
import { resetDayWords } from '../../../../schema/sendingLimits';
import { hasPlaceholders } from '../../../../schema/email/placeholders';
import { ApiError, errorMessage } from '../../api/client';
import { pauseCampaign, resumeCampaign, retryFailedEmails } from '../../api/sending';
import { useAuth } from '../../auth/AuthContext';
import { StatCard, StatGrid } from '../../components/StatCard';
import { useFollow } from '../../components/useFollow';
import { useKeyedState } from '../../lib/useKeyedState';
import { useNotifications } from '../../notifications/NotificationsContext';
import { PageShell } from '../dashboard/PageShell';
import { CampaignBadge } from './CampaignsPage';
import styles from './campaigns.module.css';
import { campaignTotal, formatDateTime, genreLabel, mailboxDisconnectedText, monthlyLimitPauseTexts, progressPercent, STATISTICS_ANCHOR } from './campaignView';
import { Figures, type Figure } from './Figures';
import { followUpName } from './followUpView';
import { FollowUpsPanel } from './FollowUpsPanel';
import { useCampaignEmails, type CampaignEmailsState } from './useCampaignEmails';
import { getCampaign } from './campaignsApi';
import { composeDraftPath } from '../compose/composeSession';
import { QueuePanel } from './QueuePanel';
import { SentEmailsList } from './SentEmailsList';
import { UsageWidget } from './UsageWidget';
import { useUsage } from '../../usage/UsageContext';
import { sendWindowWords } from '../../lib/sendWindow';
import { browserTimeZone } from '../../lib/timeZones';

/** How often a sending campaign is read again: the queue panel is never more than this behind (< 5 s). */
export const CAMPAIGN_POLL_MS = 3000;

const LIST_PATH = '/dashboard/campaigns';

type PageState = { kind: 'loading' } | { kind: 'notFound' } | { kind: 'failed' } | { kind: 'ready'; campaign: Campaign };

const LOADING: PageState = { kind: 'loading' };

/**
 * /dashboard/campaigns/{id} (spec §2): Back, Pause / Resume Sending, the usage widget, the live queue
 * panel while sending (the campaign is read again every CAMPAIGN_POLL_MS until it stops sending), the
 * Delivery Summary, the statistics, the campaign's details and its emails.
 */
export default function CampaignDetailPage() {
  const { id = '' } = useParams();
  const { api, profile } = useAuth();
  const { notify } = useNotifications();
  const navigate = useNavigate();
  const follow = useFollow();
  const { hash } = useLocation();
  const [attempt, setAttempt] = useState(0);
  // Loading until the read for this campaign and attempt answers.
  const request = `${id}#${attempt}`;
  const [state, setStateFor, updateState] = useKeyedState(request, LOADING);
  const [changing, setChanging] = useState(false);
  // The usage widget's figures (read again every 60 s while shown), and the pace the queue panel's ETA counts.
  const { state: sendingStatus, refresh: refreshUsage } = useUsage({ steadyRefresh: true });
  // Bumped by pause / resume: a poll answered from before the change must not undo it on screen.
  const generation = useRef(0);
  // The emails (and the follow-up steps counted over them), read once the campaign is, and again when its counters change.
  const readCampaign = state.kind === 'ready' ? state.campaign : null;
  const emails = useCampaignEmails(readCampaign?.id ?? null, readCampaign ? emailsRefreshKey(readCampaign) : '');
  /** The zones of the recipients still to send (for the queue's working-hours estimate); null until read. */
  const pendingZones = useMemo(
    () => (emails.state.kind === 'ready' ? emails.state.emails.filter((email) => email.status === 'pending').map((email) => email.time_zone) : null),
    [emails.state],
  );

  useEffect(() => {
    const controller = new AbortController();
    getCampaign(api, id, { signal: controller.signal }).then(
      (campaign) => {
        if (!controller.signal.aborted) setStateFor(request, { kind: 'ready', campaign });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setStateFor(request, error instanceof ApiError && error.status === 404 ? { kind: 'notFound' } : { kind: 'failed' });
      },
    );
    return () => controller.abort();
  }, [api, id, request, setStateFor]);

  const sending = state.kind === 'ready' && state.campaign.sending_status === 'sending';

  // The live panel: read the campaign again while it is sending; stop when it is not, or on leaving.
  useEffect(() => {
    if (!sending) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const poll = () => {
      const started = generation.current;
      getCampaign(api, id, { signal: controller.signal })
        .then(
          (campaign) => {
            if (!controller.signal.aborted && started === generation.current) updateState(() => ({ kind: 'ready', campaign }));
          },
          // A missed poll is retried at the next one; the page keeps what it shows.
          () => {},
        )
        .finally(() => {
          if (!controller.signal.aborted) timer = setTimeout(poll, CAMPAIGN_POLL_MS);
        });
    };
    timer = setTimeout(poll, CAMPAIGN_POLL_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [api, id, sending, updateState]);

  // The card's 'Stats' button links to #statistics: go there once the page has it.
  const ready = state.kind === 'ready';
  useEffect(() => {
    if (ready && hash === `#${STATISTICS_ANCHOR}`) {
      // jsdom has no scrollIntoView: the type says it may be missing.
      const anchor: Partial<Pick<HTMLElement, 'scrollIntoView'>> | null = document.getElementById(STATISTICS_ANCHOR);
      anchor?.scrollIntoView?.({ block: 'start' });
    }
  }, [ready, hash]);

  const changeSending = useCallback(
    async (campaign: Campaign) => {
      const pausing = campaign.sending_status === 'sending';
      setChanging(true);
      generation.current += 1;
      try {
        const summary = pausing ? await pauseCampaign(api, campaign.id) : await resumeCampaign(api, campaign.id);
        updateState((current) => (current.kind === 'ready' ? { kind: 'ready', campaign: { ...current.campaign, ...summary } } : current));
        // The queue started or stopped: the sidebar's usage starts or stops following it.
        refreshUsage();
        notify({ type: 'success', title: pausing ? campaignMessages.paused : campaignMessages.resumed });
      } catch (error) {
        const message = errorMessage(error);
        notify({ type: 'error', title: pausing ? campaignMessages.pauseFailed(message) : campaignMessages.resumeFailed(message) });
      } finally {
        setChanging(false);
      }
    },
    [api, notify, updateState, refreshUsage],
  );

  /** Retry failed: the campaign's failed emails (not the refused ones) back in the queue at the pace. */
  const retryFailed = useCallback(
    async (campaign: Campaign) => {
      setChanging(true);
      generation.current += 1;
      try {
        const summary = await retryFailedEmails(api, campaign.id);
        updateState((current) => (current.kind === 'ready' ? { kind: 'ready', campaign: { ...current.campaign, ...summary } } : current));
        refreshUsage();
        notify({ type: 'success', title: campaignMessages.retryQueued });
      } catch (error) {
        notify({ type: 'error', title: campaignMessages.retryFailedError(errorMessage(error)) });
      } finally {
        setChanging(false);
      }
    },
    [api, notify, updateState, refreshUsage],
  );

  const back = (
    <Button iconName="arrow-left" onClick={() => void navigate(LIST_PATH)}>
      Back
    </Button>
  );

  if (state.kind === 'loading') {
    return (
      <PageShell title="Campaign" actions={back}>
        <StatusIndicator type="loading">Loading campaign</StatusIndicator>
      </PageShell>
    );
  }
  if (state.kind === 'notFound') {
    return (
      <PageShell title={campaignMessages.notFound}>
        <Box>
          <Button variant="primary" onClick={() => void navigate(LIST_PATH)}>
            Back to Campaigns
          </Button>
        </Box>
      </PageShell>
    );
  }
  if (state.kind === 'failed') {
    return (
      <PageShell title="Campaign" actions={back}>
        <Alert type="error" action={<Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>}>
          {campaignMessages.detailFailed}
        </Alert>
      </PageShell>
    );
  }

  const { campaign } = state;
  const paused = campaign.sending_status === 'paused';
  const hasFollowUps = campaign.follow_ups.steps.length > 0;
  return (
    <PageShell
      title={campaign.track_name}
      description={hasPlaceholders(campaign.email_subject) ? `Subject template: ${campaign.email_subject}` : campaign.email_subject}
      actions={
        <SpaceBetween direction="horizontal" size="xs">
          {back}
          {campaign.status === 'draft' && (
            <Button variant="primary" iconName="edit" href={composeDraftPath(campaign.id)} onFollow={follow}>
              Continue in Compose
            </Button>
          )}
          {sending && (
            <Button iconName="pause" loading={changing} onClick={() => void changeSending(campaign)}>
              Pause
            </Button>
          )}
          {paused && (
            <Button variant="primary" iconName="caret-right-filled" loading={changing} onClick={() => void changeSending(campaign)}>
              Resume Sending
            </Button>
          )}
          {campaign.status === 'completed' && campaign.emails_failed > 0 && (
            <Button iconName="refresh" loading={changing} onClick={() => void retryFailed(campaign)}>
              {campaignMessages.retryFailed}
            </Button>
          )}
        </SpaceBetween>
      }
    >
      {paused && campaign.pause_reason === 'mailbox_disconnected' && <MailboxDisconnected />}
      {paused && campaign.pause_reason === 'monthly_limit' && (
        <MonthlyLimitPause resetDay={sendingStatus.kind === 'ready' ? resetDayWords(sendingStatus.status.month.resets_at) : null} />
      )}
      <UsageWidget state={sendingStatus} />
      {sending && (
        <QueuePanel
          campaign={campaign}
          intervalMs={sendingStatus.kind === 'ready' ? sendingStatus.status.send_interval_seconds * 1000 : null}
          pendingZones={pendingZones}
          artistZone={profile?.time_zone ?? browserTimeZone()}
        />
      )}
      <DeliverySummary campaign={campaign} emails={emails.state} />
      <StatCards campaign={campaign} />
      {campaign.track_id && <ListenFunnel campaign={campaign} emails={emails.state} />}
      {hasFollowUps && <FollowUpsPanel campaign={campaign} emails={emails.state} />}
      <CampaignDetails campaign={campaign} />
      <SentEmailsList campaignId={campaign.id} list={emails.state} onRetry={emails.retry} onReplied={emails.setReplied} />
    </PageShell>
  );
}

/** The emails are read again when one of these counters changes (the campaign is polled while it sends). */
const emailsRefreshKey = (campaign: Campaign) =>
  [
    campaign.emails_sent,
    campaign.emails_failed,
    campaign.emails_skipped,
    campaign.emails_unknown,
    campaign.emails_opened,
    campaign.emails_clicked,
    campaign.emails_listened,
    campaign.emails_answered,
  ].join('/');

/**
 * How many of each follow-up step went ('Follow-up 1 sent'), for the Delivery Summary and the funnel:
 * none for a campaign without steps; '—' until the emails are read. `format` writes a count.
 */
function followUpSentFigures(campaign: Campaign, emails: CampaignEmailsState, format: (count: number) => string): Figure[] {
  return campaign.follow_ups.steps.map((_, index) => ({
    label: `${followUpName(index + 1)} sent`,
    value: emails.kind === 'ready' ? format(emails.followUps[index]?.sent ?? 0) : '—',
  }));
}

function MailboxDisconnected() {
  const follow = useFollow();
  return (
    <Alert
      type="warning"
      header="Mailbox disconnected"
      action={
        <Button href="/dashboard/settings" onFollow={follow}>
          Go to Settings
        </Button>
      }
    >
      {mailboxDisconnectedText}
    </Alert>
  );
}

/** The Upgrade action leads to the Subscription page, as the other 'limit reached' notices' do. */
function MonthlyLimitPause({ resetDay }: { resetDay: string | null }) {
  const follow = useFollow();
  return (
    <Alert
      type="warning"
      header={monthlyLimitPauseTexts.header}
      action={
        <Button href="/dashboard/subscription" onFollow={follow}>
          Upgrade
        </Button>
      }
    >
      {monthlyLimitPauseTexts.detail(resetDay)}
    </Alert>
  );
}

function DeliverySummary({ campaign, emails }: { campaign: Campaign; emails: CampaignEmailsState }) {
  const rate = (count: number) => (campaign.emails_sent > 0 ? `${Math.round((count / campaign.emails_sent) * 100)}%` : '—');
  return (
    <Container header={<Header variant="h2">Delivery Summary</Header>}>
      <SpaceBetween size="m">
        <ProgressBar value={progressPercent(campaign)} label="Delivered" additionalInfo={`${campaign.emails_sent} of ${campaignTotal(campaign)} sent`} />
        <Figures
          items={[
            { label: 'Recipients', value: campaign.total_recipients.toLocaleString() },
            { label: 'Queued', value: campaign.total_queued.toLocaleString() },
            { label: 'Delivered', value: campaign.emails_sent.toLocaleString() },
            ...followUpSentFigures(campaign, emails, (count) => count.toLocaleString()),
            { label: 'Failed', value: campaign.emails_failed.toLocaleString() },
            { label: 'Skipped', value: campaign.emails_skipped.toLocaleString() },
            { label: 'Outcome unknown', value: campaign.emails_unknown.toLocaleString() },
            { label: 'Open rate', value: rate(campaign.emails_opened) },
            { label: 'Click rate', value: rate(campaign.emails_clicked) },
          ]}
        />
      </SpaceBetween>
    </Container>
  );
}

export const listenedHelp =
  'Recipients who played at least 25 % of the track on their private listen page. Opening the page, or a link scanner fetching it, is not a listen.';

/**
 * Sent → (its follow-up steps sent) → opened → listened → answered, for a campaign with an uploaded track
 * (issue 16), each as a share of the first emails sent.
 */
function ListenFunnel({ campaign, emails }: { campaign: Campaign; emails: CampaignEmailsState }) {
  const rate = (count: number) => (campaign.emails_sent > 0 ? `${Math.round((count / campaign.emails_sent) * 100)}%` : '—');
  const steps = [
    { label: 'Sent', value: campaign.emails_sent },
    { label: 'Opened', value: campaign.emails_opened },
    { label: 'Listened', value: campaign.emails_listened },
    { label: 'Answered', value: campaign.emails_answered },
  ];
  const figure = (count: number) => `${count.toLocaleString()} (${rate(count)})`;
  const figures = steps.map((step): Figure => ({ label: step.label, value: figure(step.value) }));
  return (
    <Container header={<Header variant="h2">Listening funnel</Header>}>
      <Figures items={[...figures.slice(0, 1), ...followUpSentFigures(campaign, emails, figure), ...figures.slice(1)]} />
    </Container>
  );
}

export const openedHelp = (machineOpened: number) =>
  `People who opened the email. Opens by mail-privacy proxies and link scanners are counted apart and not included: ${machineOpened} such open${machineOpened === 1 ? '' : 's'}.`;

function StatCards({ campaign }: { campaign: Campaign }) {
  return (
    <section id={STATISTICS_ANCHOR} aria-labelledby={`${STATISTICS_ANCHOR}-heading`}>
      <SpaceBetween size="s">
        <Header variant="h2" headingTagOverride="h2">
          <span id={`${STATISTICS_ANCHOR}-heading`}>Statistics</span>
        </Header>
        <StatGrid minWidth={140}>
          <StatCard label="Total Sent">{campaign.emails_sent.toLocaleString()}</StatCard>
          <StatCard
            label="Opened"
            info={
              <Popover header="About opens" content={openedHelp(campaign.emails_machine_opened)} triggerType="custom" dismissAriaLabel="Close">
                <Button variant="inline-icon" iconName="status-info" ariaLabel="About opens" />
              </Popover>
            }
          >
            {campaign.emails_opened.toLocaleString()}
          </StatCard>
          <StatCard label="Clicked">{campaign.emails_clicked.toLocaleString()}</StatCard>
          {campaign.track_id && (
            <StatCard
              label="Listened"
              info={
                <Popover header="About listens" content={listenedHelp} triggerType="custom" dismissAriaLabel="Close">
                  <Button variant="inline-icon" iconName="status-info" ariaLabel="About listens" />
                </Popover>
              }
            >
              {campaign.emails_listened.toLocaleString()}
            </StatCard>
          )}
          {campaign.track_id && <StatCard label="Answered">{campaign.emails_answered.toLocaleString()}</StatCard>}
          <StatCard label="Status">
            <CampaignBadge campaign={campaign} />
          </StatCard>
          <StatCard label="Unsubscribed">{campaign.emails_unsubscribed.toLocaleString()}</StatCard>
        </StatGrid>
      </SpaceBetween>
    </section>
  );
}

function CampaignDetails({ campaign }: { campaign: Campaign }) {
  const follow = useFollow();
  return (
    <Container header={<Header variant="h2">Campaign Details</Header>}>
      <KeyValuePairs
        columns={3}
        items={[
          { label: 'Track', value: campaign.track_name },
          {
            label: 'Link',
            // An uploaded track replaces the typed link in every email with the recipient's own listen page.
            value: campaign.track_id ? (
              'Your uploaded track: each recipient gets their own listen link'
            ) : campaign.track_url ? (
              <Link href={campaign.track_url} external onFollow={follow}>
                <span className={styles.wrap}>{campaign.track_url}</span>
              </Link>
            ) : (
              '—'
            ),
          },
          { label: 'Genre', value: campaign.genre ? genreLabel(campaign.genre) : '—' },
          { label: 'Mood', value: campaign.mood ?? '—' },
          { label: 'BPM', value: campaign.bpm === null ? '—' : String(campaign.bpm) },
          { label: 'Tone', value: campaign.ai_tone.charAt(0).toUpperCase() + campaign.ai_tone.slice(1) },
          { label: hasPlaceholders(campaign.email_subject) ? 'Subject template' : 'Subject', value: campaign.email_subject },
          { label: 'Send window', value: sendWindowWords(campaign.send_window) },
          { label: 'Created', value: formatDateTime(campaign.created_at) },
          { label: 'Started', value: formatDateTime(campaign.started_sending_at) },
          { label: 'Completed', value: formatDateTime(campaign.completed_sending_at) },
        ]}
      />
    </Container>
  );
}
