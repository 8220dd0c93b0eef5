import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { memo, useEffect, useRef, useState } from 'react';
import type { Campaign, RecipientPreview as RenderedPreview } from '../../../../schema/api/campaigns';
import type { Contact } from '../../../../schema/api/contacts';
import { errorMessage } from '../../api/client';
import { recipientPreview } from '../../api/campaigns';
import { useAuth } from '../../auth/AuthContext';
import { SandboxedHtml } from '../../components/SandboxedHtml';
import styles from './compose.module.css';
import { isUnsubscribed } from './useRecipients';

type PreviewState =
  { key: string; kind: 'loading' } | { key: string; kind: 'failed'; message: string } | { key: string; kind: 'ready'; preview: RenderedPreview };

/**
 * 'Preview per recipient' (beyond the spec): steps through the selected recipients in list order and
 * shows the final email each one gets, as the server renders it for sending. Each is fetched when first
 * shown and kept while the draft is unchanged (the cache key holds the draft's updated_at).
 */
// Memoised: typing in the track form re-renders the page, not this card.
export const RecipientPreview = memo(function RecipientPreview({
  campaign,
  recipients,
  unsubscribed,
}: {
  campaign: Campaign;
  recipients: readonly Contact[];
  unsubscribed: ReadonlySet<string>;
}) {
  const { api } = useAuth();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<PreviewState | null>(null);
  const [attempt, setAttempt] = useState(0);
  const cache = useRef(new Map<string, RenderedPreview>());

  const index = Math.min(Math.max(page, 1), Math.max(recipients.length, 1)) - 1;
  const current = recipients[index];
  const currentId = current?.id;
  const key = currentId === undefined ? null : `${campaign.id}|${campaign.updated_at}|${currentId}`;

  useEffect(() => {
    if (currentId === undefined || key === null) return;
    const hit = cache.current.get(key);
    if (hit) {
      setState({ key, kind: 'ready', preview: hit });
      return;
    }
    const controller = new AbortController();
    setState({ key, kind: 'loading' });
    recipientPreview(api, campaign.id, currentId, { signal: controller.signal }).then(
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
  }, [api, campaign.id, currentId, key, attempt]);

  const shown: PreviewState | null = key === null ? null : state?.key === key ? state : { key, kind: 'loading' };

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
