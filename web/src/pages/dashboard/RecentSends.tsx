import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { useNavigate } from 'react-router-dom';
import type { RecentSend } from '../../../../schema/api/insights';
import { insightsMessages, RECENT_SENDS } from '../../../../schema/api/insightsValues';
import { useFollow } from '../../components/useFollow';
import { answerText, listenedText } from '../../lib/listenFacts';
import { campaignPath, formatDateTime } from '../campaigns/campaignView';
import styles from './dashboard.module.css';
import type { DashboardStatsState } from './useDashboardStats';

const HEADING_ID = 'recent-sends-heading';

/**
 * The furthest step a person took: an answer on the listen page, then a listen (pressing play there
 * means the email was read), then a click (a clicked email was opened too), then an open.
 */
function engagement(send: RecentSend): { type: StatusIndicatorProps.Type; text: string } {
  const answer = answerText(send.answer);
  if (answer !== null) return { type: 'success', text: answer };
  const listened = listenedText(send);
  if (listened !== null) return { type: 'success', text: listened };
  if (send.clicked_at) return { type: 'success', text: 'Clicked' };
  if (send.opened_at) return { type: 'success', text: 'Opened' };
  return { type: 'pending', text: 'Not opened' };
}

function SendItem({ send }: { send: RecentSend }) {
  const follow = useFollow();
  const { type, text } = engagement(send);
  return (
    <li data-testid="recent-send">
      <div>
        <Box fontWeight="bold">{send.recipient_name ?? send.recipient_email}</Box>
        {send.recipient_name && <Box color="text-body-secondary">{send.recipient_email}</Box>}
      </div>
      <div>
        <Link href={campaignPath(send.campaign_id)} onFollow={follow}>
          {send.track_name}
        </Link>
        <Box color="text-body-secondary" fontSize="body-s">
          Sent <time dateTime={send.sent_at}>{formatDateTime(send.sent_at)}</time>
        </Box>
      </div>
      <StatusIndicator type={type}>{text}</StatusIndicator>
    </li>
  );
}

/** Spec §2, §9: the last 5 sends, newest first, each leading to its campaign. */
export function RecentSends({ state }: { state: DashboardStatsState }) {
  const navigate = useNavigate();
  let body;
  if (state.kind === 'loading') {
    body = <StatusIndicator type="loading">Loading recent sends</StatusIndicator>;
  } else if (state.kind === 'failed') {
    body = <Box color="text-body-secondary">Your recent sends are not available right now.</Box>;
  } else if (state.stats.recent_sends.length === 0) {
    body = (
      <Box textAlign="center" color="text-body-secondary" padding={{ vertical: 'l' }}>
        <Box variant="p" fontWeight="bold" color="inherit">
          {insightsMessages.empty}
        </Box>
        <Box variant="p" color="inherit">
          Your last {RECENT_SENDS} emails and whether they were opened will show here.
        </Box>
        <Button onClick={() => void navigate('/dashboard/compose')}>Compose</Button>
      </Box>
    );
  } else {
    body = (
      <ul className={styles.recentSends} aria-labelledby={HEADING_ID}>
        {state.stats.recent_sends.map((send) => (
          <SendItem key={`${send.campaign_id}/${send.position}`} send={send} />
        ))}
      </ul>
    );
  }
  return (
    <Container
      data-testid="recent-sends"
      header={
        <Header variant="h2" description={`Your last ${RECENT_SENDS} emails, newest first.`}>
          <span id={HEADING_ID}>Recent sends</span>
        </Header>
      }
    >
      {body}
    </Container>
  );
}
