import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { MailboxRequired } from './MailboxRequired';
import type { SendFailure } from './sendPlan';

export interface QueueProgress {
  /** Contacts of the selection handled so far (the next batch starts here). */
  done: number;
  total: number;
  /** The batch being queued: the index just past its last contact, and who is in it. */
  inFlight: { end: number; label: string } | null;
  failure: SendFailure | null;
  finished: boolean;
  queued: number;
}

/**
 * The sending progress dialog (spec §2 Compose dialogs): a real progress bar over the batches being
 * queued, the error of a failed batch with Retry (from that batch) or Stop, and 'Complete' at the end.
 * It cannot be dismissed while a batch is on its way.
 */
export function SendProgressModal({
  progress,
  onRetry,
  onStop,
  onContinue,
}: {
  progress: QueueProgress;
  onRetry: () => void;
  onStop: () => void;
  onContinue: () => void;
}) {
  const { done, total, inFlight, failure, finished, queued } = progress;
  const shown = inFlight ? inFlight.end : done;
  const busy = inFlight !== null;

  let footer = null;
  if (finished) {
    footer = (
      <Button variant="primary" onClick={onContinue}>
        Continue
      </Button>
    );
  } else if (failure) {
    footer = (
      <SpaceBetween direction="horizontal" size="xs">
        <Button variant="link" onClick={onStop}>
          {done === 0 ? 'Cancel' : 'Stop'}
        </Button>
        <Button variant="primary" onClick={onRetry}>
          Retry
        </Button>
      </SpaceBetween>
    );
  }

  return (
    <Modal
      visible
      // While queueing, closing would leave the campaign half queued without telling: wait or Stop.
      onDismiss={() => {
        if (finished) onContinue();
        else if (failure && !busy) onStop();
      }}
      header="Sending Campaign"
      footer={footer && <Box float="right">{footer}</Box>}
    >
      <SpaceBetween size="m">
        <ProgressBar
          label="Queueing recipients"
          value={total === 0 ? 0 : Math.round(((finished ? total : done) / total) * 100)}
          description={`Queueing ${shown} of ${total}`}
          additionalInfo={finished ? undefined : inFlight?.label}
          status={finished ? 'success' : 'in-progress'}
          resultText={`Complete: ${queued} email${queued === 1 ? '' : 's'} queued`}
        />
        {failure &&
          !busy &&
          (failure.kind === 'mailbox' ? (
            <MailboxRequired />
          ) : (
            <Alert type="error" i18nStrings={{ errorIconAriaLabel: 'Error' }} header={`Batch starting at contact ${done + 1} failed`}>
              {failure.message}
            </Alert>
          ))}
        {failure && !busy && done > 0 && (
          <Box color="text-body-secondary">
            {`${done} of ${total} contacts were handled before this. Retry continues from this batch; nothing is queued twice.`}
          </Box>
        )}
      </SpaceBetween>
    </Modal>
  );
}
