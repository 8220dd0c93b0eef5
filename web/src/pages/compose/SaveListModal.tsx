import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState, type FormEvent } from 'react';
import { campaignLimits, composeMessages, type ContactListInput, type SavedContactList } from '../../../../schema/api/campaigns';
import { errorMessage } from '../../api/client';
import { createContactList } from '../../api/campaigns';
import { useAuth } from '../../auth/AuthContext';
import { useNotifications } from '../../notifications/NotificationsContext';

/**
 * The 'Save Contact List' dialog (spec §2): saves the recipient filters and the selection under a name,
 * for Quick Load later. A blank name is refused before anything is sent; on failure the dialog and the
 * typed name stay.
 */
export function SaveListModal({
  contents,
  onSaved,
  onClose,
}: {
  contents: Omit<ContactListInput, 'name'>;
  onSaved: (list: SavedContactList) => void;
  onClose: () => void;
}) {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(event?: FormEvent) {
    event?.preventDefault();
    if (saving) return;
    if (name.trim() === '') {
      setNameError(composeMessages.listNameRequired);
      return;
    }
    setSaving(true);
    try {
      const list = await createContactList(api, { ...contents, name: name.trim() });
      notify({ type: 'success', title: composeMessages.listSaved, message: `"${list.name}": ${list.contact_ids.length.toLocaleString()} contacts.` });
      onSaved(list);
      onClose();
    } catch (error) {
      setSaving(false);
      notify({ type: 'error', title: composeMessages.saveListFailed, message: errorMessage(error) });
    }
  }

  const count = contents.contact_ids.length;
  return (
    <Modal
      visible
      header="Save Contact List"
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
            <Button variant="primary" loading={saving} loadingText="Saving list" onClick={() => void save()}>
              Save
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <form onSubmit={(event) => void save(event)} noValidate>
        <SpaceBetween size="m">
          <Box variant="p">{`Saves the contact type and genre filters and the ${count.toLocaleString()} selected contact${count === 1 ? '' : 's'}.`}</Box>
          <FormField label="List Name" errorText={nameError ?? undefined}>
            <Input
              value={name}
              autoFocus
              autoComplete="off"
              disabled={saving}
              invalid={nameError !== null}
              placeholder="e.g. Techno labels"
              onChange={({ detail }) => {
                setName(detail.value.slice(0, campaignLimits.listName));
                if (detail.value.trim() !== '') setNameError(null);
              }}
            />
          </FormField>
        </SpaceBetween>
      </form>
    </Modal>
  );
}
