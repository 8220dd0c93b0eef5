import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { Campaign, RecipientPreview as RenderedPreview } from '../../../../schema/api/campaigns';
import type { Contact } from '../../../../schema/api/contacts';
import type { FollowUps } from '../../../../schema/api/followUpValues';
import { errorMessage } from '../../api/client';
import { recipientPreview } from '../../api/campaigns';
import { useAuth } from '../../auth/AuthContext';
import { SandboxedHtml } from '../../components/SandboxedHtml';
import styles from './compose.module.css';
import { isUnsubscribed } from './useRecipients';
import { campaignPreSendInput, preSendWarnings } from '../../../../lambdas/core/preSendCheck';
import { browserTimeZone } from '../../lib/timeZones';
import { PreSendWarningList, SKIPPED_UNLESS_INSISTED } from './PreSendWarnings';

type PreviewState =
  { key: string; kind: 'loading' } | { key: string; kind: 'failed'; message: string } | { key: string; kind: 'ready'; preview: RenderedPreview };

/**
 * 'Preview per recipient' (beyond the spec): steps through the selected recipients in list order and
 * shows the final email each one gets, as the server renders it for sending, and with follow-ups on,
 * each step of theirs (issue 27 §1). Each is fetched when first shown and kept while the draft and the
 * step are unchanged (the cache key holds the draft's updated_at and the step).
 */
// Memoised: typing in the track form re-renders the page, not this card.
export const RecipientPreview = memo(function RecipientPreview({
  campaign,
  recipients,
  unsubscribed,
  followUps,
  onUseListenPage,
}: {
  campaign: Campaign;
  recipients: readonly Contact[];
  unsubscribed: ReadonlySet<string>;
  /** The follow-ups as they would be sent (none while off or not yet valid). */
  followUps: FollowUps;
  /** Switches the email to the private listen page (a label taking private links only). */
  onUseListenPage?: () => void;
}) {
  const { api, profile } = useAuth();
  const artistZone = profile?.time_zone ?? browserTimeZone();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<PreviewState | null>(null);
  const [attempt, setAttempt] = useState(0);
  const cache = useRef(new Map<string, RenderedPreview>());

  const index = Math.min(Math.max(page, 1), Math.max(recipients.length, 1)) - 1;
  const current = recipients[index];
  const currentId = current?.id;
  /** Which email is shown: 0 the first, n follow-up n (back to the first when that step is gone). */
  const [chosenEmail, setChosenEmail] = useState(0);
  const emailIndex = chosenEmail <= followUps.steps.length ? chosenEmail : 0;
  const step = emailIndex === 0 ? undefined : followUps.steps[emailIndex - 1];
  const followUp = useMemo(() => (step ? { number: emailIndex, step } : undefined), [emailIndex, step]);
  const followUpKey = JSON.stringify(followUp ?? null);
  const key = currentId === undefined ? null : `${campaign.id}|${campaign.updated_at}|${currentId}|${followUpKey}`;

  useEffect(() => {
    if (currentId === undefined || key === null) return;
    const hit = cache.current.get(key);
    if (hit) {
      setState({ key, kind: 'ready', preview: hit });
      return;
    }
    const controller = new AbortController();
    setState({ key, kind: 'loading' });
    const request = { contact_id: currentId, ...(followUp ? { follow_up: followUp } : {}) };
    recipientPreview(api, campaign.id, request, { signal: controller.signal }).then(
      (preview) => {
        cache.current.set(key, preview);
        if (!controller.signal.aborted) setState({ key, kind: 'ready', preview });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ key, kind: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
    // `attempt` asks again after a failure.
  }, [api, campaign.id, currentId, key, followUp, attempt]);

  const shown: PreviewState | null = key === null ? null : state?.key === key ? state : { key, kind: 'loading' };
  // The pre-send check of this recipient (issue 28 §2): their policy's warnings at once, a pass on the
  // track once the server's answer says so.
  const passedAt = shown?.kind === 'ready' ? shown.preview.passed_at : null;
  const policy = current?.demo_policy;
  const warnings = useMemo(() => preSendWarnings(campaignPreSendInput(campaign, { policy, passedAt }, artistZone)), [campaign, policy, passedAt, artistZone]);

  return (
    <Container
      header={
        <Header variant="h2" description="The final email each selected recipient gets, with their details filled in.">
          Preview per recipient
        </Header>
      }
    >
      {!current || !shown ? (
        <Box color="text-body-secondary">Select recipients to see the email each one gets.</Box>
      ) : (
        <SpaceBetween size="m">
          <div className={styles.selectionBar}>
            <Box variant="span">{`Recipient ${index + 1} of ${recipients.length.toLocaleString()}`}</Box>
            <Pagination
              currentPageIndex={index + 1}
              pagesCount={recipients.length}
              onChange={({ detail }) => setPage(detail.currentPageIndex)}
              ariaLabels={{
                nextPageLabel: 'Next recipient',
                previousPageLabel: 'Previous recipient',
                pageLabel: (n) => `Recipient ${n} of ${recipients.length}`,
                paginationLabel: 'Recipients',
              }}
            />
          </div>
          <div>
            <Box variant="awsui-key-label">To</Box>
            <div className={styles.emailSubject}>{`${current.name} <${current.email}>`}</div>
            {isUnsubscribed(unsubscribed, current) && (
              <StatusIndicator type="warning">Unsubscribed: this recipient will be skipped when sending.</StatusIndicator>
            )}
          </div>
          {warnings.length > 0 && (
            <section aria-label="Pre-send check" data-testid="pre-send-warnings">
              <Box variant="awsui-key-label">Pre-send check</Box>
              <SpaceBetween size="xxs">
                <PreSendWarningList warnings={warnings} onUseListenPage={onUseListenPage} />
                {warnings.some((warning) => warning.skipByDefault) && <Box color="text-body-secondary">{SKIPPED_UNLESS_INSISTED}</Box>}
              </SpaceBetween>
            </section>
          )}
          {followUps.steps.length > 0 && (
            <SegmentedControl
              label="Email shown"
              selectedId={String(emailIndex)}
              options={[{ id: '0', text: 'First email' }, ...followUps.steps.map((_, index) => ({ id: String(index + 1), text: `Follow-up ${index + 1}` }))]}
              onChange={({ detail }) => setChosenEmail(Number(detail.selectedId))}
            />
          )}
          {step?.writer === 'ai' && (
            <Box color="text-body-secondary">
              The AI writes this follow-up when it is due, from the email actually sent: the words may differ from this sample.
            </Box>
          )}
          {shown.kind === 'loading' && <StatusIndicator type="loading">Loading this recipient's email...</StatusIndicator>}
          {shown.kind === 'failed' && (
            <SpaceBetween size="xs" direction="horizontal" alignItems="center">
              <StatusIndicator type="error">{`This recipient's email could not be shown: ${shown.message}`}</StatusIndicator>
              <Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>
            </SpaceBetween>
          )}
          {shown.kind === 'ready' && (
            <>
              <div>
                <Box variant="awsui-key-label">Subject</Box>
                <div className={styles.emailSubject}>{shown.preview.subject}</div>
              </div>
              <SandboxedHtml html={shown.preview.html} title="Recipient email preview" height={480} />
            </>
          )}
        </SpaceBetween>
      )}
    </Container>
  );
});
