import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { SendingStatus } from '../../../../schema/api/sending';
import { useFollow } from '../../components/useFollow';
import { formatDateTime, monthUsage } from './campaignView';
import type { SendingStatusState } from '../../usage/UsageContext';

export const TODAY_STATUS_TITLE = "Today's Sending Status";

/** The campaigns list's card for today (spec §2): today's sends of the mailbox's daily limit, the month's plan usage, the mailbox, the next send. */
export function TodayStatusCard({ state }: { state: SendingStatusState }) {
  return (
    <Container header={<Header variant="h2">{TODAY_STATUS_TITLE}</Header>}>
      {state.kind === 'loading' ? (
        <StatusIndicator type="loading">Loading sending status</StatusIndicator>
      ) : state.kind === 'failed' ? (
        <StatusIndicator type="warning">Sending status is not available right now.</StatusIndicator>
      ) : (
        <TodayStatus status={state.status} />
      )}
    </Container>
  );
}

function TodayStatus({ status }: { status: SendingStatus }) {
  const follow = useFollow();
  const { today, month, mailbox } = status;
  const dailyPercent = mailbox.daily_limit > 0 ? Math.min(100, Math.round((today.sent / mailbox.daily_limit) * 100)) : 0;
  const usage = monthUsage(month);
  return (
    <KeyValuePairs
      columns={4}
      items={[
        {
          label: 'Sent today',
          value: (
            <ProgressBar
              value={dailyPercent}
              ariaLabel="Sent today"
              additionalInfo={`${today.sent} of ${mailbox.daily_limit} emails (daily limit). Resets at midnight Pacific Time (${formatDateTime(today.resets_at)}).`}
            />
          ),
        },
        {
          label: 'This month',
          value:
            month.limit === null ? (
              `${month.used} emails (unlimited plan)`
            ) : (
              <ProgressBar
                value={usage.percent}
                ariaLabel="Emails used this month"
                status={usage.level === 'limit' ? 'error' : 'in-progress'}
                resultText={`Limit reached: ${month.used} of ${month.limit} emails`}
                additionalInfo={`${month.used} of ${month.limit} emails of your plan`}
              />
            ),
        },
        {
          label: 'Mailbox',
          value: mailbox.connected ? (
            <StatusIndicator type="success">Connected{mailbox.email ? `: ${mailbox.email}` : ''}</StatusIndicator>
          ) : (
            <Box>
              <StatusIndicator type="warning">Not connected</StatusIndicator>{' '}
              <Link href="/dashboard/settings" onFollow={follow}>
                Connect in Settings
              </Link>
            </Box>
          ),
        },
        { label: 'Next send', value: status.next_send_at ? formatDateTime(status.next_send_at) : 'Nothing queued' },
      ]}
    />
  );
}
