import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useNavigate } from 'react-router-dom';
import { pendingEmails, type CampaignSummary } from '../../../../../schema/api/campaigns';
import { sendingMessages, type SendModeName } from '../../../../../schema/api/sending';
import { plural } from '../../../../../schema/plural';
import { queueEta } from '../../../lib/queueEta';
import { paceWords } from '../../../../../schema/sendingLimits';
import { localTime, type QueueTotals } from './sendPlan';

export interface SendSummary {
  campaignId: string;
  mode: SendModeName;
  /** Contacts in the selection. */
  total: number;
  totals: QueueTotals;
  /** The campaign as the last batch left it (null if none was queued). */
  campaign: CampaignSummary | null;
  /** False when the artist stopped after a failed batch: the errors say what went wrong. */
  complete: boolean;
  errors: readonly string[];
  /** The pace the server sends at (its send interval). */
  intervalMs: number;
}

/**
 * The campaign-sent dialog (spec §2, §8 Sending): 'Campaign Started!' or 'Campaign Scheduled!', what
 * was queued and skipped, when the first email goes out and how long the queue takes at the pace (60 an hour).
 */
export function SendSuccessModal({ summary, onClose }: { summary: SendSummary; onClose: () => void }) {
  const navigate = useNavigate();
  const { totals, campaign } = summary;
  const title = !summary.complete ? sendingMessages.completedWithErrors : summary.mode === 'scheduled' ? sendingMessages.scheduled : sendingMessages.started;
  const firstAt = campaign?.next_send_at ?? campaign?.send_after ?? null;
  const skipped = [
    totals.skippedUnsubscribed > 0 ? `${totals.skippedUnsubscribed} unsubscribed` : null,
    totals.skippedAlreadySent > 0 ? `${totals.skippedAlreadySent} already received this track` : null,
    totals.skippedUnknown > 0 ? `${totals.skippedUnknown} no longer in your contacts` : null,
  ].filter((item): item is string => item !== null);

  return (
    <Modal
      visible
      onDismiss={onClose}
      header={title}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onClose}>
              Close
            </Button>
            <Button
              variant="primary"
              onClick={() => {
                onClose();
                void navigate(`/dashboard/campaigns/${encodeURIComponent(summary.campaignId)}`);
              }}
            >
              View campaign
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        {!summary.complete && (
          <>
            <Box>{`${totals.queued}/${summary.total} emails queued successfully`}</Box>
            <ol aria-label="Errors">
              {summary.errors.map((error, index) => (
                <li key={index}>{error}</li>
              ))}
            </ol>
          </>
        )}
        <KeyValuePairs
          columns={2}
          items={[
            { label: 'Queued', value: plural(totals.queued, 'email') },
            { label: 'Skipped', value: skipped.length === 0 ? 'None' : skipped.join(', ') },
            { label: 'First email goes out', value: firstAt ? localTime(firstAt) : '-' },
            {
              label: 'Estimated sending time',
              value: campaign ? `${queueEta(pendingEmails(campaign), summary.intervalMs)} (${paceWords(summary.intervalMs)})` : '-',
            },
          ]}
        />
      </SpaceBetween>
    </Modal>
  );
}
