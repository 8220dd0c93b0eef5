import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { memo, useEffect, useState } from 'react';
import type { CampaignEmail, CampaignEmailContent } from '../../../../schema/api/sending';
import { errorMessage } from '../../api/client';
import { getCampaignEmail, listCampaignEmails } from '../../api/sending';
import { useAuth } from '../../auth/AuthContext';
import { listPagination, pageOf } from '../../components/ListPagination';
import { SandboxedHtml } from '../../components/SandboxedHtml';
import { answerText, listeningLine } from '../../lib/listenFacts';
import styles from './campaigns.module.css';
import { retryingText } from '../../../../schema/api/sendingValues';
import { formatDateTime, formatTime, recipientStatusLabels } from './campaignView';

export const SENT_EMAILS_TITLE = 'Sent Emails';
export const SENT_EMAILS_PAGE_SIZE = 20;

type ListState = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; emails: CampaignEmail[] };

/**
 * The campaign's emails (spec §2): recipient, status, sent time, opens and clicks, 20 a page, each with
 * an expandable view of the email as sent, loaded when first opened and shown in a sandboxed frame.
 * `refreshKey` changes when the campaign's counters do: the list is read again, keeping what is open.
 */
export function SentEmailsList({ campaignId, refreshKey }: { campaignId: string; refreshKey: string }) {
  const { api } = useAuth();
  const [state, setState] = useState<ListState>({ kind: 'loading' });
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    listCampaignEmails(api, campaignId, { signal: controller.signal }).then(
      (emails) => {
        if (!controller.signal.aborted) setState({ kind: 'ready', emails });
      },
      (error: unknown) => {
        // A refresh that fails keeps the list on screen.
        if (!controller.signal.aborted) setState((current) => (current.kind === 'ready' ? current : { kind: 'failed', message: errorMessage(error) }));
      },
    );
    return () => controller.abort();
  }, [api, campaignId, refreshKey, attempt]);

  const paged = state.kind === 'ready' ? pageOf(state.emails, page, SENT_EMAILS_PAGE_SIZE) : null;
  return (
    <Container
      header={
        <Header variant="h2" counter={state.kind === 'ready' ? `(${state.emails.length})` : undefined}>
          {SENT_EMAILS_TITLE}
        </Header>
      }
      footer={paged && listPagination({ currentPage: paged.currentPage, pagesCount: paged.pagesCount, onChange: setPage, label: 'Sent email pages' })}
    >
      {state.kind === 'loading' ? (
        <StatusIndicator type="loading">Loading emails</StatusIndicator>
      ) : state.kind === 'failed' ? (
        <Alert type="error" action={<Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>}>
          Failed to load the emails of this campaign: {state.message}
        </Alert>
      ) : state.emails.length === 0 ? (
        <Box color="text-body-secondary">No emails yet. Recipients appear here once the campaign is sent.</Box>
      ) : (
        <ul aria-label={SENT_EMAILS_TITLE} className={styles.emailList}>
          {paged?.items.map((email) => (
            <li key={email.position}>
              <EmailItem campaignId={campaignId} email={email} />
            </li>
          ))}
        </ul>
      )}
    </Container>
  );
}

const recipientOf = (email: CampaignEmail) => (email.recipient_name ? `${email.recipient_name} <${email.recipient_email}>` : email.recipient_email);

/** What the recipient did on their listen page (issue 16): 'Listened 78 % · Played 2× · Downloaded', the answer and note. */
function Listening({ email }: { email: CampaignEmail }) {
  const line = listeningLine(email);
  const answer = answerText(email.answer);
  if (line === null && answer === null) return null;
  return (
    <Box variant="small">
      {line}
      {line !== null && answer !== null ? ' · ' : ''}
      {answer !== null && <strong>{answer}</strong>}
      {email.answer_note && <span className={styles.wrap}>{` — “${email.answer_note}”`}</span>}
    </Box>
  );
}

const EmailItem = memo(function EmailItem({ campaignId, email }: { campaignId: string; email: CampaignEmail }) {
  const status = recipientStatusLabels[email.status];
  const [expanded, setExpanded] = useState(false);
  return (
    <SpaceBetween size="xxs">
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        <Box fontWeight="bold">
          <span className={styles.wrap}>{recipientOf(email)}</span>
        </Box>
        <Badge color={status.color}>{status.label}</Badge>
      </SpaceBetween>
      <Box variant="small" color="text-body-secondary">
        Sent: {formatDateTime(email.sent_at)} · {email.opened_at ? `Opened ${formatDateTime(email.opened_at)} (${email.open_count}×)` : 'Not opened'} ·{' '}
        {email.clicked_at ? `Clicked ${formatDateTime(email.clicked_at)} (${email.click_count}×)` : 'Not clicked'}
      </Box>
      <Listening email={email} />
      {email.status === 'pending' && email.retry_at ? (
        <Box variant="small" color="text-status-warning">
          {retryingText(formatTime(email.retry_at), email.attempts + 1, email.detail ?? 'the last attempt failed')}
        </Box>
      ) : (
        email.detail && (
          <Box variant="small" color="text-status-error">
            {email.detail}
          </Box>
        )
      )}
      <ExpandableSection
        variant="footer"
        headerText="Email content"
        headerAriaLabel={`Email content for ${email.recipient_email}`}
        expanded={expanded}
        onChange={({ detail }) => setExpanded(detail.expanded)}
      >
        {expanded && <EmailContent campaignId={campaignId} position={email.position} />}
      </ExpandableSection>
    </SpaceBetween>
  );
});

type ContentState = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; email: CampaignEmailContent };

function EmailContent({ campaignId, position }: { campaignId: string; position: number }) {
  const { api } = useAuth();
  const [state, setState] = useState<ContentState>({ kind: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    getCampaignEmail(api, campaignId, position, { signal: controller.signal }).then(
      (email) => {
        if (!controller.signal.aborted) setState({ kind: 'ready', email });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ kind: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [api, campaignId, position]);

  if (state.kind === 'loading') return <StatusIndicator type="loading">Loading email</StatusIndicator>;
  if (state.kind === 'failed') return <StatusIndicator type="error">Failed to load this email: {state.message}</StatusIndicator>;
  const { email } = state;
  if (email.html === null && email.text === null) return <Box color="text-body-secondary">This email has not been sent yet.</Box>;
  return (
    <SpaceBetween size="s">
      <div>
        <Box variant="awsui-key-label">Subject</Box>
        <Box>{email.subject ?? '—'}</Box>
      </div>
      {email.html !== null ? (
        <SandboxedHtml html={email.html} title={`Email to ${email.recipient_email}`} height={420} />
      ) : (
        <Box variant="code" tagOverride="pre">
          <span style={{ whiteSpace: 'pre-wrap' }}>{email.text}</span>
        </Box>
      )}
    </SpaceBetween>
  );
}
