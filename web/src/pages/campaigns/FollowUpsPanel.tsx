import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { Campaign } from '../../../../schema/api/campaigns';
import type { FollowUpStepSummary } from '../../../../schema/api/followUps';
import { followUpConditionLabels, followUpStopReasonLabels } from '../../../../schema/api/followUpValues';
import styles from './campaigns.module.css';
import { formatDateTime } from './campaignView';
import { Figures } from './Figures';
import { FOLLOW_UPS_PAUSED, FOLLOW_UPS_TITLE, followUpHeading } from './followUpView';
import type { CampaignEmailsState } from './useCampaignEmails';

/**
 * The campaign's follow-up steps (issue 27 §1), shown only for a campaign that has some: per step, how
 * many went, how many were stopped and why, how many wait and when the next is due, counted over the
 * campaign's emails (read with the Sent Emails list).
 */
export function FollowUpsPanel({ campaign, emails }: { campaign: Campaign; emails: CampaignEmailsState }) {
  const { steps, condition } = campaign.follow_ups;
  return (
    <Container
      header={
        <Header variant="h2" description={followUpConditionLabels[condition]}>
          {FOLLOW_UPS_TITLE}
        </Header>
      }
    >
      {emails.kind === 'loading' ? (
        <StatusIndicator type="loading">Loading follow-ups</StatusIndicator>
      ) : emails.kind === 'failed' ? (
        <StatusIndicator type="error">Failed to load the follow-ups: {emails.message}</StatusIndicator>
      ) : emails.emails.length === 0 ? (
        <Box color="text-body-secondary">No emails yet. Each step is counted here once the emails are queued.</Box>
      ) : (
        <SpaceBetween size="l">
          {/* A pause holds the steps too, even of a campaign whose first emails all went (its last one in flight when paused). */}
          {campaign.sending_status === 'paused' && <StatusIndicator type="stopped">{FOLLOW_UPS_PAUSED}</StatusIndicator>}
          {steps.map((step, index) => (
            <FollowUpStep key={index} heading={followUpHeading(index + 1, step.after_days)} summary={emails.followUps[index]} />
          ))}
        </SpaceBetween>
      )}
    </Container>
  );
}

function FollowUpStep({ heading, summary }: { heading: string; summary: FollowUpStepSummary | undefined }) {
  return (
    <section aria-label={heading}>
      <SpaceBetween size="xs">
        <Box variant="h3" tagOverride="h3">
          {heading}
        </Box>
        <Figures
          items={[
            { label: 'Sent', value: (summary?.sent ?? 0).toLocaleString() },
            { label: 'Stopped', value: (summary?.stopped ?? 0).toLocaleString() },
            { label: 'Waiting', value: (summary?.waiting ?? 0).toLocaleString() },
            { label: 'Next due', value: formatDateTime(summary?.next_due_at) },
          ]}
        />
        {summary && summary.stopped_by_reason.length > 0 && (
          <ul aria-label={`${heading}: why stopped`} className={styles.reasons}>
            {summary.stopped_by_reason.map(({ reason, count }) => (
              <li key={reason}>
                <Box variant="small" color="text-body-secondary">{`${followUpStopReasonLabels[reason]}: ${count.toLocaleString()}`}</Box>
              </li>
            ))}
          </ul>
        )}
      </SpaceBetween>
    </section>
  );
}
