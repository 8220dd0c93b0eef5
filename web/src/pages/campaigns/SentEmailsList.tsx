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
import { getCampaignEmail } from '../../api/sending';
import { useAuth } from '../../auth/AuthContext';
import { listPagination, pageOf } from '../../components/ListPagination';
import { RepliedMark } from '../../components/RepliedMark';
import { SandboxedHtml } from '../../components/SandboxedHtml';
import { answerText, listeningLine } from '../../lib/listenFacts';
import styles from './campaigns.module.css';
import { OUTSIDE_WINDOW_DETAIL, outsideWindowText, retryingText } from '../../../../schema/api/sendingValues';
import { formatDateTime, formatTime, recipientStatusLabels } from './campaignView';
import { followUpStateText } from './followUpView';
import type { CampaignEmailsState } from './useCampaignEmails';

export const SENT_EMAILS_TITLE = 'Sent Emails';
export const SENT_EMAILS_PAGE_SIZE = 20;

/**
 * The campaign's emails (spec §2): recipient, status, sent time, opens and clicks, its follow-up steps,
 * 20 a page, each with an expandable view of the email as sent, loaded when first opened and shown in a
 * sandboxed frame. The page reads the emails (useCampaignEmails) and reads them again when the
 * campaign's counters change, keeping what is open.
 */
export function SentEmailsList({
  campaignId,
  list,
  onRetry,
  onReplied,
}: {
  campaignId: string;
  list: CampaignEmailsState;
  onRetry: () => void;
  onReplied: (position: number, repliedAt: string | null) => void;
}) {
  const [page, setPage] = useState(1);
  const paged = list.kind === 'ready' ? pageOf(list.emails, page, SENT_EMAILS_PAGE_SIZE) : null;
  return (
    <Container
      header={
        <Header variant="h2" counter={list.kind === 'ready' ? `(${list.emails.length})` : undefined}>
          {SENT_EMAILS_TITLE}
        </Header>
      }
      footer={paged && listPagination({ currentPage: paged.currentPage, pagesCount: paged.pagesCount, onChange: setPage, label: 'Sent email pages' })}
    >
      {list.kind === 'loading' ? (
        <StatusIndicator type="loading">Loading emails</StatusIndicator>
      ) : list.kind === 'failed' ? (
        <Alert type="error" action={<Button onClick={onRetry}>Retry</Button>}>
          Failed to load the emails of this campaign: {list.message}
        </Alert>
      ) : list.emails.length === 0 ? (
        <Box color="text-body-secondary">No emails yet. Recipients appear here once the campaign is sent.</Box>
      ) : (
        <ul aria-label={SENT_EMAILS_TITLE} className={styles.emailList}>
          {paged?.items.map((email) => (
            <li key={email.position}>
              <EmailItem campaignId={campaignId} email={email} onReplied={onReplied} />
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

/** Each follow-up step of the email, one line each ('Follow-up 1: Stopped — Answered on the listen page'); none without steps. */
function FollowUpLines({ email }: { email: CampaignEmail }) {
  if (email.follow_ups.length === 0) return null;
  const now = Date.now();
  return email.follow_ups.map((state) => (
    <Box key={state.step} variant="small" display="block" color={state.state === 'stopped' ? 'text-body-secondary' : 'inherit'}>
      {followUpStateText(state, now)}
    </Box>
  ));
}

const EmailItem = memo(function EmailItem({
  campaignId,
  email,
  onReplied,
}: {
  campaignId: string;
  email: CampaignEmail;
  onReplied: (position: number, repliedAt: string | null) => void;
}) {
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
      <FollowUpLines email={email} />
      {/* Only an email that went out can have been answered. */}
      {email.status === 'sent' && (
        <RepliedMark
          campaignId={campaignId}
          position={email.position}
          repliedAt={email.replied_at}
          onChange={(repliedAt) => onReplied(email.position, repliedAt)}
        />
      )}
      {email.status === 'pending' && email.retry_at && email.detail === OUTSIDE_WINDOW_DETAIL ? (
        <Box variant="small" color="text-status-info">
          {outsideWindowText(formatDateTime(email.retry_at))}
        </Box>
      ) : email.status === 'pending' && email.retry_at ? (
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
