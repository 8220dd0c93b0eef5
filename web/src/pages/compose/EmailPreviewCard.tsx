import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { memo, useState, type SubmitEvent } from 'react';
import type { Campaign } from '../../../../schema/api/campaigns';
import type { Tone } from '../../../../schema/api/options';
import type { CampaignTemplate } from '../../../../schema/api/templates';
import { SandboxedHtml } from '../../components/SandboxedHtml';
import styles from './compose.module.css';
import { isHtmlDocument } from '../../../../schema/email/htmlDocument';
import { personalisedNote, type EmailDraft } from './emailDraft';
import { SaveTemplateModal } from './SaveTemplateModal';

function EmailBody({ body }: { body: string }) {
  if (isHtmlDocument(body)) return <SandboxedHtml html={body} title="Email preview" height={420} />;
  return <p className={styles.emailBody}>{body}</p>;
}

/**
 * The Email Preview card of AI mode (spec §2, §4 Email preview): the draft's Subject and Email Body, Edit,
 * then Save (the page PATCHes the draft, or creates one for an email from a template) or Cancel (back
 * to what was saved). 'Save as Template' keeps the email on screen as one of the user's templates.
 */
// Memoised: typing in the track form re-renders the page, not this card.
export const EmailPreviewCard = memo(function EmailPreviewCard({
  campaign,
  editing,
  onEditingChange,
  onSave,
  tone,
  onTemplateSaved,
}: {
  /** The AI-mode draft, once generated or saved. */
  campaign: Campaign | null;
  /** The texts being edited; null shows the draft read-only. */
  editing: EmailDraft | null;
  onEditingChange: (draft: EmailDraft | null) => void;
  /** Saves the edited email; rejects when it was not saved (the page has said why). */
  onSave: (draft: EmailDraft) => Promise<void>;
  tone: Tone;
  onTemplateSaved: (template: CampaignTemplate) => void;
}) {
  const [saving, setSaving] = useState(false);
  const [templateDialog, setTemplateDialog] = useState(false);

  const shown: EmailDraft | null = editing ?? (campaign ? { subject: campaign.email_subject, body: campaign.email_body } : null);

  async function save(event?: SubmitEvent) {
    event?.preventDefault();
    if (!editing || saving) return;
    setSaving(true);
    try {
      await onSave(editing);
    } catch {
      // The page has toasted the failure; the edited text stays for another try.
    } finally {
      setSaving(false);
    }
  }

  const actions = (
    <SpaceBetween direction="horizontal" size="xs">
      {shown && (
        <Button iconName="file" disabled={saving} onClick={() => setTemplateDialog(true)}>
          Save as Template
        </Button>
      )}
      {campaign && !editing && (
        <Button iconName="edit" onClick={() => onEditingChange({ subject: campaign.email_subject, body: campaign.email_body })}>
          Edit
        </Button>
      )}
    </SpaceBetween>
  );

  let content;
  if (editing) {
    content = (
      <form onSubmit={(event) => void save(event)} noValidate aria-label="Edit email">
        <Form
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button formAction="none" variant="link" disabled={saving} onClick={() => onEditingChange(null)}>
                Cancel
              </Button>
              <Button variant="primary" loading={saving} loadingText="Saving email">
                Save
              </Button>
            </SpaceBetween>
          }
        >
          <SpaceBetween size="m">
            <FormField label="Subject">
              <Input value={editing.subject} disabled={saving} onChange={({ detail }) => onEditingChange({ ...editing, subject: detail.value })} />
            </FormField>
            <FormField
              label="Email Body"
              constraintText="[CONTACT_NAME], [LABEL_NAME], [TRACK_NAME] and the other placeholders are filled in for each recipient."
            >
              <Textarea value={editing.body} rows={14} disabled={saving} onChange={({ detail }) => onEditingChange({ ...editing, body: detail.value })} />
            </FormField>
          </SpaceBetween>
        </Form>
      </form>
    );
  } else if (shown) {
    content = (
      <SpaceBetween size="m">
        <div>
          <Box variant="awsui-key-label">Subject</Box>
          <div className={styles.emailSubject}>{shown.subject}</div>
        </div>
        <div>
          <Box variant="awsui-key-label">Email Body</Box>
          <EmailBody body={shown.body} />
        </div>
      </SpaceBetween>
    );
  } else {
    content = (
      <Box textAlign="center" color="inherit" padding="l">
        <SpaceBetween size="xs">
          <b>No email preview yet</b>
          <Box variant="p" color="text-body-secondary">
            Fill in your track, select recipients and press Generate Email Preview, or start from a template.
          </Box>
        </SpaceBetween>
      </Box>
    );
  }

  return (
    <Container
      header={
        <Header variant="h2" actions={actions}>
          Email Preview
        </Header>
      }
    >
      <SpaceBetween size="m">
        {content}
        {campaign && (
          <Alert type="info" i18nStrings={{ infoIconAriaLabel: 'Info' }}>
            {campaign.personalised_by_writer ? personalisedNote.writer : personalisedNote.same}
          </Alert>
        )}
      </SpaceBetween>
      {templateDialog && shown && <SaveTemplateModal email={shown} tone={tone} onSaved={onTemplateSaved} onClose={() => setTemplateDialog(false)} />}
    </Container>
  );
});
