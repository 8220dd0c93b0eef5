import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState, type SubmitEvent } from 'react';
import { campaignLimits } from '../../../../../schema/api/campaigns';
import { htmlTemplateInfo, type HtmlTemplateKind } from '../../../../../schema/email/htmlTemplates';
import { AccentColorField, accentTextInvalid, type AccentChoice } from './AccentColorField';

export const subjectRequired = 'Please enter an email subject.';

/**
 * Customise Minimal, Bold or Professional (spec §2): Email Subject, Accent Color, Create Preview.
 * Controlled by the panel, which keeps the values when the template changes or a save fails.
 */
export function TemplateCustomiser({
  kind,
  subject,
  onSubjectChange,
  accent,
  onAccentChange,
  onCreatePreview,
  saving,
}: {
  kind: Exclude<HtmlTemplateKind, 'custom'>;
  subject: string;
  onSubjectChange: (subject: string) => void;
  accent: AccentChoice;
  onAccentChange: (accent: AccentChoice) => void;
  onCreatePreview: () => void;
  saving: boolean;
}) {
  const [submitted, setSubmitted] = useState(false);
  const [accentLeft, setAccentLeft] = useState(false);
  const subjectBlank = subject.trim() === '';
  const info = htmlTemplateInfo[kind];

  function submit(event: SubmitEvent) {
    event.preventDefault();
    if (saving) return;
    setSubmitted(true);
    if (subjectBlank || accentTextInvalid(accent)) return;
    onCreatePreview();
  }

  return (
    <form onSubmit={submit} noValidate aria-label={`Customize ${info.name}`}>
      <Form
        actions={
          <Button variant="primary" loading={saving} loadingText="Creating preview">
            Create Preview
          </Button>
        }
      >
        <Container header={<Header variant="h2" description={info.blurb}>{`Customize: ${info.name}`}</Header>}>
          <SpaceBetween size="l">
            <FormField
              label="Email Subject"
              description="Follows the track name until you change it."
              errorText={submitted && subjectBlank ? subjectRequired : undefined}
              stretch
            >
              <Input
                value={subject}
                disabled={saving}
                invalid={submitted && subjectBlank}
                onChange={({ detail }) => onSubjectChange(detail.value.slice(0, campaignLimits.subject))}
              />
            </FormField>
            <AccentColorField
              choice={accent}
              onChange={onAccentChange}
              showTextError={submitted || accentLeft}
              onTextBlur={() => setAccentLeft(true)}
              disabled={saving}
            />
          </SpaceBetween>
        </Container>
      </Form>
    </form>
  );
}
