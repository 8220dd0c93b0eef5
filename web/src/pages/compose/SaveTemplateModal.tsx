import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState, type FormEvent } from 'react';
import { campaignLimits, composeMessages } from '../../../../schema/api/campaigns';
import type { Tone } from '../../../../schema/api/options';
import type { CampaignTemplate } from '../../../../schema/api/templates';
import { errorMessage } from '../../api/client';
import { createTemplate } from '../../api/campaigns';
import { useAuth } from '../../auth/AuthContext';
import { useNotifications } from '../../notifications/NotificationsContext';
import styles from './compose.module.css';

/** The body as the dialog shows it: its first 100 characters (spec §9), '...' when there is more. */
export function templateBodyPreview(body: string): string {
  const limit = campaignLimits.templatePreviewChars;
  return body.length > limit ? `${body.slice(0, limit)}...` : body;
}

/**
 * The save-template dialog (spec §2): saves the email on screen as one of the user's templates, with
 * the current tone. The name is required; on failure the dialog and the typed name stay.
 */
export function SaveTemplateModal({
  email,
  tone,
  onSaved,
  onClose,
}: {
  email: { subject: string; body: string };
  tone: Tone;
  onSaved: (template: CampaignTemplate) => void;
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
      setNameError(composeMessages.templateNameRequired);
      return;
    }
    setSaving(true);
    try {
      const template = await createTemplate(api, { name: name.trim(), subject: email.subject, body: email.body, ai_tone: tone });
      notify({ type: 'success', title: composeMessages.templateSaved });
      onSaved(template);
      onClose();
    } catch (error) {
      setSaving(false);
      notify({ type: 'error', title: composeMessages.saveTemplateFailed, message: errorMessage(error) });
    }
  }

  return (
    <Modal
      visible
      header="Save as Template"
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
            <Button variant="primary" loading={saving} loadingText="Saving template" onClick={() => void save()}>
              Save
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <form onSubmit={(event) => void save(event)} noValidate>
        <SpaceBetween size="m">
          <FormField label="Template Name" errorText={nameError ?? undefined}>
            <Input
              value={name}
              autoFocus
              autoComplete="off"
              disabled={saving}
              invalid={nameError !== null}
              placeholder="e.g. Label pitch, short"
              onChange={({ detail }) => {
                setName(detail.value.slice(0, campaignLimits.templateName));
                if (detail.value.trim() !== '') setNameError(null);
              }}
            />
          </FormField>
          <div>
            <Box variant="awsui-key-label">Subject</Box>
            <div className={styles.emailSubject}>{email.subject}</div>
          </div>
          <div>
            <Box variant="awsui-key-label">Body</Box>
            <p className={styles.emailBody}>
              {templateBodyPreview(email.body)}
            </p>
          </div>
        </SpaceBetween>
      </form>
    </Modal>
  );
}
