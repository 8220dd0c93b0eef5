import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { tourSteps } from './steps';

/** The tour's modal dialog, in its own chunk: the dashboard downloads it when the tour first opens. */
export default function TourDialog({ open, step, onStep, onClose }: { open: boolean; step: number; onStep: (step: number) => void; onClose: () => void }) {
  const current = tourSteps[step] ?? tourSteps[0];
  const last = step === tourSteps.length - 1;
  return (
    <Modal
      visible={open}
      onDismiss={onClose}
      closeAriaLabel="Close tour"
      header={current.title}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs" alignItems="center">
            <Button variant="link" onClick={onClose}>
              Skip tour
            </Button>
            {step > 0 && <Button onClick={() => onStep(step - 1)}>Back</Button>}
            {last ? (
              <Button variant="primary" onClick={onClose}>
                Finish
              </Button>
            ) : (
              <Button variant="primary" onClick={() => onStep(step + 1)}>
                Next
              </Button>
            )}
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="s">
        <Box variant="small" color="text-body-secondary">
          Step {step + 1} of {tourSteps.length}
        </Box>
        <Box variant="p">{current.body}</Box>
      </SpaceBetween>
    </Modal>
  );
}
