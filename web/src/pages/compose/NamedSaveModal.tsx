import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState, type SubmitEvent, type ReactNode } from 'react';
import { errorMessage } from '../../api/client';
import { useNotifications } from '../../notifications/NotificationsContext';

/**
 * A dialog that saves something under a name (the contact list and the template dialogs): the name is
 * required, Cancel or Save, Save busy while saving. A blank name is refused before anything is sent; on
 * failure the error is toasted and the dialog and the typed name stay for another try.
 */
export function NamedSaveModal({
  header,
  nameLabel,
  namePlaceholder,
  maxLength,
  nameRequired,
  savingText,
  failureTitle,
  intro,
  children,
  onSave,
  onClose,
}: {
  header: string;
  nameLabel: string;
  namePlaceholder: string;
  maxLength: number;
  /** Shown when Save is pressed with a blank name. */
  nameRequired: string;
  /** The Save button's loading text. */
  savingText: string;
  /** The error toast's title when saving fails. */
  failureTitle: string;
  /** Shown above the name field. */
  intro?: ReactNode;
  /** Shown below the name field. */
  children?: ReactNode;
  /** Saves under the trimmed name; the dialog closes when it resolves. */
  onSave: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const { notify } = useNotifications();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(event?: SubmitEvent) {
    event?.preventDefault();
    if (saving) return;
    if (name.trim() === '') {
      setNameError(nameRequired);
      return;
    }
    setSaving(true);
    try {
      await onSave(name.trim());
      onClose();
    } catch (error) {
      setSaving(false);
      notify({ type: 'error', title: failureTitle, message: errorMessage(error) });
    }
  }

  return (
    <Modal
      visible
      header={header}
      closeAriaLabel="Close dialog"
      onDismiss={() => {
        if (!saving) onClose();
      }}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button variant="primary" loading={saving} loadingText={savingText} onClick={() => void save()}>
              Save
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <form onSubmit={(event) => void save(event)} noValidate>
        <SpaceBetween size="m">
          {intro}
          <FormField label={nameLabel} errorText={nameError ?? undefined}>
            <Input
              value={name}
              autoFocus
              autoComplete="off"
              disabled={saving}
              invalid={nameError !== null}
              placeholder={namePlaceholder}
              onChange={({ detail }) => {
                setName(detail.value.slice(0, maxLength));
                if (detail.value.trim() !== '') setNameError(null);
              }}
            />
          </FormField>
          {children}
        </SpaceBetween>
      </form>
    </Modal>
  );
}
