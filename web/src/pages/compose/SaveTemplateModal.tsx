import Box from '@cloudscape-design/components/box';
import { campaignLimits, composeMessages } from '../../../../schema/api/campaigns';
import type { Tone } from '../../../../schema/api/options';
import type { CampaignTemplate } from '../../../../schema/api/templates';
import { createTemplate } from '../../api/campaigns';
import { useAuth } from '../../auth/AuthContext';
import { useNotifications } from '../../notifications/NotificationsContext';
import styles from './compose.module.css';
import { NamedSaveModal } from './NamedSaveModal';

/** The body as the dialog shows it: its first 100 characters (spec §9), '...' when there is more. */
export function templateBodyPreview(body: string): string {
  const limit = campaignLimits.templatePreviewChars;
  return body.length > limit ? `${body.slice(0, limit)}...` : body;
}

/**
 * The save-template dialog (spec §2): saves the email on screen as one of the user's templates, with
 * the current tone.
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

  async function save(name: string) {
    const template = await createTemplate(api, { name, subject: email.subject, body: email.body, ai_tone: tone });
    notify({ type: 'success', title: composeMessages.templateSaved });
    onSaved(template);
  }

  return (
    <NamedSaveModal
      header="Save as Template"
      nameLabel="Template Name"
      namePlaceholder="e.g. Label pitch, short"
      maxLength={campaignLimits.templateName}
      nameRequired={composeMessages.templateNameRequired}
      savingText="Saving template"
      failureTitle={composeMessages.saveTemplateFailed}
      onSave={save}
      onClose={onClose}
    >
      <div>
        <Box variant="awsui-key-label">Subject</Box>
        <div className={styles.emailSubject}>{email.subject}</div>
      </div>
      <div>
        <Box variant="awsui-key-label">Body</Box>
        <p className={styles.emailBody}>{templateBodyPreview(email.body)}</p>
      </div>
    </NamedSaveModal>
  );
}
