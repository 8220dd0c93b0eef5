import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { SendingStatus } from '../../../../schema/api/sending';
import { resetDayWords } from '../../../../schema/sendingLimits';
import { formatDateTime, monthUsage } from './campaignView';
import type { SendingStatusState } from '../../usage/UsageContext';

export const USAGE_WIDGET_TITLE = 'Email Usage';
export const usageTexts = { warning: 'Approaching your monthly limit', limit: 'Monthly limit reached' } as const;

/**
 * The compact usage widget (spec §2 Campaign detail, §9): this month's emails used of the plan's limit,
 * refreshed every 60 s (the dashboard's one usage source: useUsage); a warning from 80 %, 'limit
 * reached' at 100 % with the day the plan's limit resets. Also today's mailbox sends.
 */
export function UsageWidget({ state }: { state: SendingStatusState }) {
  return (
    <Container header={<Header variant="h2">{USAGE_WIDGET_TITLE}</Header>}>
      {state.kind === 'loading' ? (
        <StatusIndicator type="loading">Loading usage</StatusIndicator>
      ) : state.kind === 'failed' ? (
        <StatusIndicator type="warning">Usage is not available right now.</StatusIndicator>
      ) : (
        <Usage status={state.status} />
      )}
    </Container>
  );
}

function Usage({ status }: { status: SendingStatus }) {
  const { month, today, mailbox } = status;
  const { percent, level } = monthUsage(month);
  return (
    <SpaceBetween size="xs">
      {month.limit === null ? (
        <Box>{month.used.toLocaleString()} emails sent this month (unlimited plan)</Box>
      ) : (
        <ProgressBar
          value={percent}
          label="This month"
          ariaLabel="Emails used this month"
          description={`${month.used.toLocaleString()} of ${month.limit.toLocaleString()} emails used`}
        />
      )}
      {level === 'warning' && <StatusIndicator type="warning">{usageTexts.warning}</StatusIndicator>}
      {level === 'limit' && (
        <StatusIndicator type="error">{`${usageTexts.limit}: your plan's limit resets on ${resetDayWords(month.resets_at)}`}</StatusIndicator>
      )}
      <Box variant="small" color="text-body-secondary">
        Today: {today.sent.toLocaleString()} of {mailbox.daily_limit.toLocaleString()} (mailbox daily limit); resets at midnight Pacific Time (
        {formatDateTime(today.resets_at)}).
      </Box>
    </SpaceBetween>
  );
}
