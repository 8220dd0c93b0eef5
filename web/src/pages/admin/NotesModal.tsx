import Box from '@cloudscape-design/components/box';
import FormField from '@cloudscape-design/components/form-field';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useState } from 'react';
import type { WaitlistEntry } from '../../../../schema/api/waitlist';
import { NOTES_MAX } from '../../../../schema/api/waitlistConstants';
import { saveWaitlistNotes } from '../../api/adminWaitlist';
import { errorMessage } from '../../api/client';
import { useAuth } from '../../auth/AuthContext';
import { SaveModal } from '../../components/SaveModal';
import { useNotifications } from '../../notifications/NotificationsContext';
import styles from './waitlist.module.css';

/**
 * The 'Add Internal Notes' dialog for one entry: the artist's why-interested text (read-only) and
 * the current notes, ready to edit (the table leaves both out, spec §2's columns). It keeps its own draft state so that typing does not
 * re-render the (possibly 5,000-row) collection behind it.
 */
export function NotesModal({ entry, onDismiss, onSaved }: { entry: WaitlistEntry; onDismiss: () => void; onSaved: (entry: WaitlistEntry) => void }) {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const [draft, setDraft] = useState(entry.notes ?? '');
  const [saving, setSaving] = useState(false);
  const tooLong = draft.length > NOTES_MAX;

  async function save() {
    if (saving || tooLong) return;
    setSaving(true);
    try {
      const updated = await saveWaitlistNotes(api, entry.id, draft);
      notify({ type: 'success', title: 'Notes saved', message: 'Internal notes have been updated.' });
      onSaved(updated);
    } catch (error) {
      notify({ type: 'error', title: 'Error saving notes', message: errorMessage(error) });
      setSaving(false);
    }
  }

  return (
    <SaveModal header="Add Internal Notes" saveLabel="Save Notes" saving={saving} saveDisabled={tooLong} onSave={() => void save()} onDismiss={onDismiss}>
      <SpaceBetween size="m">
        <div role="group" aria-label="Why interested">
          <Box variant="awsui-key-label">Why interested</Box>
          {entry.why_interested ? <div className={styles.readOnlyText}>{entry.why_interested}</div> : <Box color="text-status-inactive">Not given</Box>}
        </div>
        <FormField
          label="Internal notes"
          description={`For ${entry.artist_name} (${entry.email}). Only administrators see these notes.`}
          constraintText={`${draft.length}/${NOTES_MAX} characters`}
          errorText={tooLong ? `Notes must be at most ${NOTES_MAX} characters` : undefined}
          stretch
        >
          <Textarea value={draft} onChange={({ detail }) => setDraft(detail.value)} rows={6} autoFocus disabled={saving} />
        </FormField>
      </SpaceBetween>
    </SaveModal>
  );
}
