import Badge, { type BadgeProps } from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { memo, useMemo, useState } from 'react';
import type { Tone } from '../../../../schema/api/options';
import type { CampaignTemplate } from '../../../../schema/api/templates';
import { inShownPlaceholderStyle } from '../../../../schema/email/placeholders';
import styles from './compose.module.css';
import { toneLabels } from './trackForm';

/** The Select's value for the Custom Template (template ids never take this form). */
const CUSTOM = '@custom';

const toneColors: Record<Tone, BadgeProps['color']> = { professional: 'blue', friendly: 'green', casual: 'grey' };

export const CUSTOM_TEMPLATE_DESCRIPTION = 'Start from a blank subject and body and write the email yourself.';

function TemplateCard({
  name,
  description,
  tone,
  subject,
  onUse,
  onDelete,
  deleting,
}: {
  name: string;
  description: string;
  tone?: Tone;
  subject?: string;
  onUse: () => void;
  onDelete?: () => void;
  deleting?: boolean;
}) {
  return (
    <div className={styles.templateCard} role="group" aria-label={name}>
      <div className={styles.templateCardHeading}>
        <Box variant="h3" padding="n">
          {name}
        </Box>
        {tone && <Badge color={toneColors[tone]}>{toneLabels[tone]}</Badge>}
      </div>
      {description && <Box color="text-body-secondary">{description}</Box>}
      {subject && (
        <Box fontSize="body-s">
          <span className={styles.templateSubject}>{`Subject: ${subject}`}</span>
        </Box>
      )}
      <div className={styles.templateCardActions}>
        <Button onClick={onUse} ariaLabel={`Use template ${name}`}>
          Use Template
        </Button>
        {onDelete && <Button variant="icon" iconName="remove" ariaLabel={`Delete template ${name}`} loading={deleting} onClick={onDelete} />}
      </div>
    </div>
  );
}

/**
 * The campaign templates picker of AI mode (spec §2): a dropdown plus a card per template (system ones
 * first, then the user's own, which can be deleted) and a Custom Template card that starts blank.
 */
// Memoised: typing in the track form re-renders the page, not this card.
export const CampaignTemplatesPicker = memo(function CampaignTemplatesPicker({
  templates,
  onApply,
  onCustom,
  onDelete,
}: {
  /** null while loading; [] when none (or loading failed: the page says so). */
  templates: readonly CampaignTemplate[] | null;
  onApply: (template: CampaignTemplate) => void;
  onCustom: () => void;
  onDelete: (template: CampaignTemplate) => Promise<void>;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  const systemTemplates = useMemo(() => (templates ?? []).filter((template) => template.is_system_template), [templates]);
  const userTemplates = useMemo(() => (templates ?? []).filter((template) => !template.is_system_template), [templates]);

  const options = useMemo<SelectProps.Options>(() => {
    const option = (template: CampaignTemplate): SelectProps.Option => ({
      value: template.id,
      label: template.name,
      labelTag: toneLabels[template.ai_tone],
      description: template.description || undefined,
    });
    const groups: SelectProps.OptionGroup[] = [];
    if (systemTemplates.length > 0) groups.push({ label: 'Templates', options: systemTemplates.map(option) });
    if (userTemplates.length > 0) groups.push({ label: 'Your templates', options: userTemplates.map(option) });
    return [...groups, { value: CUSTOM, label: 'Custom Template', description: CUSTOM_TEMPLATE_DESCRIPTION }];
  }, [systemTemplates, userTemplates]);

  const flatOptions = useMemo(() => options.flatMap((item) => ('options' in item ? [...item.options] : [item])), [options]);

  const use = (id: string) => {
    setChosen(id);
    if (id === CUSTOM) {
      onCustom();
      return;
    }
    const template = templates?.find((item) => item.id === id);
    if (template) onApply(template);
  };

  const remove = async (template: CampaignTemplate) => {
    setDeleting(template.id);
    try {
      await onDelete(template);
      if (chosen === template.id) setChosen(null);
    } finally {
      setDeleting(null);
    }
  };

  const card = (template: CampaignTemplate) => (
    <TemplateCard
      key={template.id}
      name={template.name}
      description={template.description}
      tone={template.ai_tone}
      subject={inShownPlaceholderStyle(template.subject_template)}
      onUse={() => use(template.id)}
      onDelete={template.is_system_template ? undefined : () => void remove(template)}
      deleting={deleting === template.id}
    />
  );

  return (
    <Container
      header={
        <Header variant="h2" description="Start from a template, then edit the email below.">
          Campaign Templates
        </Header>
      }
    >
      <SpaceBetween size="m">
        <FormField label="Template">
          <Select
            selectedOption={flatOptions.find((option) => option.value === chosen) ?? null}
            options={options}
            placeholder="Choose a template"
            statusType={templates === null ? 'loading' : 'finished'}
            loadingText="Loading templates"
            onChange={({ detail }) => {
              if (detail.selectedOption.value) use(detail.selectedOption.value);
            }}
          />
        </FormField>
        {templates === null && <StatusIndicator type="loading">Loading templates...</StatusIndicator>}
        <div className={styles.templatePicker}>
          <div className={styles.templateCards}>
            {systemTemplates.map(card)}
            {userTemplates.map(card)}
            <TemplateCard name="Custom Template" description={CUSTOM_TEMPLATE_DESCRIPTION} onUse={() => use(CUSTOM)} />
          </div>
        </div>
      </SpaceBetween>
    </Container>
  );
});
