import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import RadioGroup from '@cloudscape-design/components/radio-group';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import Toggle from '@cloudscape-design/components/toggle';
import { memo, useState } from 'react';
import {
  FOLLOW_UP_STEPS_MAX,
  followUpConditionLabels,
  followUpConditions,
  followUpLimits,
  followUpWriterLabels,
  followUpWriters,
  type FollowUpCondition,
  type FollowUpWriter,
} from '../../../../schema/api/followUpValues';
import { followUpsOf, withStepAdded, withStepRemoved, type FollowUpsForm, type FollowUpStepForm } from './followUpsForm';

const writerItems = followUpWriters.map((writer) => ({ value: writer, label: followUpWriterLabels[writer] }));
const conditionItems = followUpConditions.map((condition) => ({ value: condition, label: followUpConditionLabels[condition] }));

/**
 * Compose's "Follow-ups" (issue 27 §1): off by default; up to two steps in the first email's thread, each
 * some days after it, written by the AI (a short, polite nudge from the first email) or in the artist's
 * own words. `showErrors` (after a refused send) shows every problem; until then a field shows its own
 * once it has been left.
 */
export const FollowUpsCard = memo(function FollowUpsCard({
  form,
  onChange,
  showErrors,
}: {
  form: FollowUpsForm;
  onChange: (form: FollowUpsForm) => void;
  showErrors: boolean;
}) {
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const leave = (field: string) => setLeft((current) => new Set(current).add(field));
  const checked = followUpsOf(form);
  const errorOf = (index: number, field: 'after_days' | 'text') => {
    if (checked.ok || !(showErrors || left.has(`${index}.${field}`))) return undefined;
    return checked.errors.steps[index]?.[field];
  };
  const changeStep = (index: number, changes: Partial<FollowUpStepForm>) =>
    onChange({ ...form, steps: form.steps.map((step, at) => (at === index ? { ...step, ...changes } : step)) });

  return (
    <Container
      header={
        <Header variant="h2" description="A short, polite nudge in the same thread to recipients who have not listened or answered.">
          Follow-ups
        </Header>
      }
    >
      <SpaceBetween size="m">
        <Toggle checked={form.on} onChange={({ detail }) => onChange({ ...form, on: detail.checked })}>
          Send follow-ups
        </Toggle>
        {form.on && (
          <>
            {form.steps.map((step, index) => {
              const name = `Follow-up ${index + 1}`;
              return (
                <section key={index} aria-label={name}>
                  <SpaceBetween size="s">
                    <SpaceBetween size="xs" direction="horizontal" alignItems="center">
                      <Box variant="h3">{name}</Box>
                      <Button variant="inline-link" ariaLabel={`Remove ${name}`} onClick={() => onChange(withStepRemoved(form, index))}>
                        Remove
                      </Button>
                    </SpaceBetween>
                    <FormField
                      label="After (days)"
                      description={index === 0 ? 'Days after the first email.' : 'Days after the first email, later than the follow-up before.'}
                      errorText={errorOf(index, 'after_days')}
                    >
                      <Input
                        type="number"
                        inputMode="numeric"
                        value={step.after_days}
                        ariaLabel={`${name}: after (days)`}
                        onChange={({ detail }) => changeStep(index, { after_days: detail.value })}
                        onBlur={() => leave(`${index}.after_days`)}
                      />
                    </FormField>
                    <FormField label="Written by">
                      <RadioGroup
                        ariaLabel={`${name}: written by`}
                        value={step.writer}
                        items={writerItems}
                        onChange={({ detail }) => changeStep(index, { writer: detail.value as FollowUpWriter })}
                      />
                    </FormField>
                    {step.writer === 'ai' ? (
                      <Box color="text-body-secondary">
                        The AI writes each recipient a short nudge from the email they got, when it is due, from your track details only.
                      </Box>
                    ) : (
                      <FormField
                        label="Text"
                        constraintText="[CONTACT_NAME], [TRACK_NAME], [TRACK_URL] and the other placeholders are filled in for each recipient."
                        errorText={errorOf(index, 'text')}
                      >
                        <Textarea
                          value={step.text}
                          rows={5}
                          onChange={({ detail }) => changeStep(index, { text: detail.value.slice(0, followUpLimits.textMax) })}
                          onBlur={() => leave(`${index}.text`)}
                        />
                      </FormField>
                    )}
                  </SpaceBetween>
                </section>
              );
            })}
            {form.steps.length < FOLLOW_UP_STEPS_MAX && <Button onClick={() => onChange(withStepAdded(form))}>Add follow-up</Button>}
            <FormField
              label="Send a follow-up"
              description="Answers, clicks, unsubscribes, 'Not for us' and your Replied or Passed marks always stop the follow-ups. Opens never do: mail privacy proxies open every email."
            >
              <RadioGroup
                value={form.condition}
                items={conditionItems}
                onChange={({ detail }) => onChange({ ...form, condition: detail.value as FollowUpCondition })}
              />
            </FormField>
          </>
        )}
      </SpaceBetween>
    </Container>
  );
});
