import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { bulkAddSummary } from './allowance';

export type BulkAddState = { phase: 'running'; done: number; total: number } | { phase: 'done'; added: number; skipped: number };

/**
 * The bulk add's dialog: a progress bar while the requests run ('Adding contacts... X of Y'), then
 * the summary. It cannot be closed while running: the requests would go on unseen.
 */
export function BulkAddModal({ state, onClose }: { state: BulkAddState; onClose: () => void }) {
  const running = state.phase === 'running';
  return (
    <Modal
      visible
      header={running ? 'Adding contacts' : 'Contacts added'}
      closeAriaLabel="Close dialog"
      onDismiss={() => {
        if (!running) onClose();
      }}
      footer={
        running ? undefined : (
          <Box float="right">
            <Button variant="primary" onClick={onClose}>
              Close
            </Button>
          </Box>
        )
      }
    >
      {running ? (
        <ProgressBar
          value={state.total === 0 ? 0 : Math.round((state.done / state.total) * 100)}
          label={`Adding contacts... ${state.done} of ${state.total}`}
        />
      ) : (
        <StatusIndicator type="success">{bulkAddSummary(state.added, state.skipped)}</StatusIndicator>
      )}
    </Modal>
  );
}
