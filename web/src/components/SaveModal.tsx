import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ReactNode } from 'react';

/**
 * A dialog around a form that saves: Cancel and the save button in the footer, Enter in the form saves
 * too, and neither Cancel nor closing leaves while a save is in flight (its answer would land nowhere).
 */
export function SaveModal({
  header,
  saveLabel,
  saving,
  saveDisabled = false,
  onSave,
  onDismiss,
  children,
}: {
  header: string;
  saveLabel: string;
  saving: boolean;
  saveDisabled?: boolean;
  onSave: () => void;
  onDismiss: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      visible
      onDismiss={() => {
        if (!saving) onDismiss();
      }}
      header={header}
      closeAriaLabel="Close dialog"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss} disabled={saving}>
              Cancel
            </Button>
            <Button variant="primary" onClick={onSave} loading={saving} disabled={saveDisabled}>
              {saveLabel}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSave();
        }}
      >
        {children}
      </form>
    </Modal>
  );
}
