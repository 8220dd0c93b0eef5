import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';
import { contactMessages, type Contact } from '../../../../schema/api/contacts';
import { plural } from '../../../../schema/plural';
import { ApiError, errorMessage } from '../../api/client';
import { deleteContact, deleteContactsInBatches } from '../../api/contacts';
import { useAuth } from '../../auth/AuthContext';
import { useNotifications } from '../../notifications/NotificationsContext';

export type DeleteTarget = { kind: 'single'; contact: Contact } | { kind: 'bulk'; ids: readonly string[] };

/**
 * The 'Delete Contacts' confirmation (spec §2), for one contact (its delete button) or the selection
 * (Delete Selected, in batches of 100 with progress). `onRemoved` gets the ids that no longer exist, also
 * when a batch fails part-way: those are gone, the others are still there (and stay selected).
 */
export function DeleteContactsModal({
  target,
  onRemoved,
  onClose,
}: {
  target: DeleteTarget;
  onRemoved: (ids: ReadonlySet<string>) => void;
  onClose: () => void;
}) {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const [deleting, setDeleting] = useState(false);
  const [progress, setProgress] = useState(0);
  const count = target.kind === 'single' ? 1 : target.ids.length;

  async function deleteSingle(contact: Contact) {
    try {
      await deleteContact(api, contact.id);
    } catch (error) {
      // 404: it is not there any more, which is what was asked.
      if (!(error instanceof ApiError && error.status === 404)) {
        notify({ type: 'error', title: contactMessages.deleteFailed, message: errorMessage(error) });
        return;
      }
    }
    onRemoved(new Set([contact.id]));
    notify({ type: 'success', title: contactMessages.deleted });
  }

  async function deleteMany(ids: readonly string[]) {
    const outcome = await deleteContactsInBatches(api, ids, { onProgress: (done) => setProgress(done) });
    if (outcome.removed.length > 0) onRemoved(new Set(outcome.removed));
    if (outcome.error === undefined) {
      notify({ type: 'success', title: contactMessages.deletedManyTitle, message: contactMessages.deletedMany(outcome.removed.length) });
    } else {
      const before = outcome.removed.length > 0 ? `${contactMessages.deletedMany(outcome.removed.length)} ` : '';
      notify({ type: 'error', title: contactMessages.deleteManyFailed, message: `${before}${errorMessage(outcome.error)}` });
    }
  }

  async function confirm() {
    if (deleting) return;
    setDeleting(true);
    if (target.kind === 'single') await deleteSingle(target.contact);
    else await deleteMany(target.ids);
    onClose();
  }

  return (
    <Modal
      visible
      onDismiss={() => {
        if (!deleting) onClose();
      }}
      header="Delete Contacts"
      closeAriaLabel="Close dialog"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onClose} disabled={deleting}>
              Cancel
            </Button>
            <Button variant="primary" onClick={() => void confirm()} disabled={deleting}>
              {deleting ? 'Deleting...' : 'Delete'}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box variant="p">{`You are about to delete ${plural(count, 'contact')}. This action cannot be undone.`}</Box>
        {deleting && target.kind === 'bulk' && (
          <ProgressBar
            label="Deleting contacts"
            value={count === 0 ? 0 : Math.round((progress / count) * 100)}
            description={`${progress} of ${count} deleted`}
          />
        )}
      </SpaceBetween>
    </Modal>
  );
}
