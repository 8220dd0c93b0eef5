import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import DatePicker from '@cloudscape-design/components/date-picker';
import FormField from '@cloudscape-design/components/form-field';
import RadioGroup from '@cloudscape-design/components/radio-group';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useState } from 'react';
import { PIPELINE_NOTE_MAX, pipelineMarkRequestSchema, type PipelineEntry, type PipelineMarkRequest } from '../../../../schema/api/pipeline';
import { errorMessage } from '../../api/client';
import { markPipelineEntry } from '../../api/pipeline';
import { useAuth } from '../../auth/AuthContext';
import { SaveModal } from '../../components/SaveModal';
import { derivedText, markText, stageLabel, todayStamp } from './pipelineView';

type Choice = PipelineMarkRequest['stage'];

/** The contract's own messages for the fields the artist filled, by field. */
function fieldErrors(request: unknown): Partial<Record<'note' | 'on', string>> {
  const result = pipelineMarkRequestSchema.safeParse(request);
  if (result.success) return {};
  const errors: Partial<Record<'note' | 'on', string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === 'note' || field === 'on') && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/**
 * 'Move' on a track's board (issue 28 §1): the artist sets Signed or Passed, with a note and the date it
 * happened, or takes their mark back to the stage the events give. The contract's schema checks the form
 * before it is sent; the server's refusal shows in the dialog, which stays open.
 */
export function MoveModal({
  trackKey,
  entry,
  onDismiss,
  onMoved,
}: {
  trackKey: string;
  entry: PipelineEntry;
  onDismiss: () => void;
  onMoved: (entry: PipelineEntry) => void;
}) {
  const { api } = useAuth();
  const [choice, setChoice] = useState<Choice>(entry.mark ? 'derived' : 'signed');
  const [note, setNote] = useState(entry.mark?.note ?? '');
  const [on, setOn] = useState(entry.mark?.on ?? todayStamp());
  const [checked, setChecked] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const request: PipelineMarkRequest =
    choice === 'derived' ? { stage: 'derived' } : { stage: choice, note: note.trim() === '' ? null : note, on: on === '' ? null : on };
  // Too long a note shows as it is typed; the date once the artist tries to save.
  const errors = fieldErrors(request);
  const shown: typeof errors = checked ? errors : { note: errors.note };

  async function save() {
    if (saving) return;
    setChecked(true);
    if (errors.note || errors.on) return;
    setSaving(true);
    setFailure(null);
    try {
      onMoved(await markPipelineEntry(api, trackKey, entry.address_id, request));
    } catch (error) {
      setFailure(errorMessage(error));
      setSaving(false);
    }
  }

  const marked = markText(entry);
  return (
    <SaveModal header={`Move ${entry.name}`} saveLabel="Move" saving={saving} onSave={() => void save()} onDismiss={onDismiss}>
      <SpaceBetween size="m">
        <Box color="text-body-secondary">
          {`Now: ${stageLabel(entry.stage)}`}
          {marked && ` (${marked}). ${derivedText(entry)}.`}
        </Box>
        {failure && (
          <Alert type="error" header="Could not move this contact">
            {failure}
          </Alert>
        )}
        <FormField label="Move to">
          <RadioGroup
            value={choice}
            onChange={({ detail }) => setChoice(detail.value as Choice)}
            items={[
              { value: 'signed', label: 'Signed' },
              { value: 'passed', label: 'Passed' },
              {
                value: 'derived',
                label: 'Use derived stage',
                description: `Back to ${stageLabel(entry.derived_stage)}, the stage the emails and the listen page give.`,
                disabled: !entry.mark,
              },
            ]}
          />
        </FormField>
        {choice !== 'derived' && (
          <>
            <FormField label="Date" description="When it happened." constraintText="YYYY-MM-DD. Empty: today." errorText={shown.on}>
              <DatePicker
                value={on}
                onChange={({ detail }) => setOn(detail.value)}
                format="iso"
                placeholder="YYYY-MM-DD"
                expandToViewport
                i18nStrings={{
                  openCalendarAriaLabel: (selected) => `Choose the date${selected ? `, ${selected}` : ''}`,
                  previousMonthAriaLabel: 'Previous month',
                  nextMonthAriaLabel: 'Next month',
                  todayAriaLabel: 'Today',
                }}
              />
            </FormField>
            <FormField label="Note (optional)" constraintText={`${note.length}/${PIPELINE_NOTE_MAX} characters`} errorText={shown.note} stretch>
              <Textarea value={note} onChange={({ detail }) => setNote(detail.value)} rows={3} placeholder="What was agreed, or why they passed" />
            </FormField>
          </>
        )}
      </SpaceBetween>
    </SaveModal>
  );
}
