import FormField from '@cloudscape-design/components/form-field';
import Multiselect, { type MultiselectProps } from '@cloudscape-design/components/multiselect';
import RadioGroup from '@cloudscape-design/components/radio-group';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { CampaignSendWindow } from '../../../../../schema/api/campaigns';
import { DEFAULT_SEND_WINDOW, sendWindowProblem, type Weekday } from '../../../../../lambdas/core/workingHours';
import { hourLabel, WEEKDAY_NAMES } from '../../../lib/sendWindow';

/** The working hours Compose starts from (issue 27 §2): Monday to Friday, 9:00 to 17:00. */
export const DEFAULT_WORKING_HOURS: CampaignSendWindow = {
  days: [...DEFAULT_SEND_WINDOW.days],
  start_hour: DEFAULT_SEND_WINDOW.startHour,
  end_hour: DEFAULT_SEND_WINDOW.endHour,
};

const dayOptions: MultiselectProps.Option[] = ([1, 2, 3, 4, 5, 6, 7] as const).map((day) => ({ value: String(day), label: WEEKDAY_NAMES[day] }));

const hourOptions = (from: number, to: number): SelectProps.Option[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ value: String(from + i), label: hourLabel(from + i) }));
const startOptions = hourOptions(0, 23);
const endOptions = hourOptions(1, 24);

/** Why the window chosen can never open (the server's rule, sendWindowProblem), or null. */
export const windowProblem = (window: CampaignSendWindow | null): string | null =>
  window === null ? null : sendWindowProblem({ days: window.days, startHour: window.start_hour, endHour: window.end_hour });

/**
 * When recipients may get the email (issue 27 §2): "Any time", or "Recipient's working hours" (days and
 * hours on the recipient's clock; their zone, else yours). `value` null is "Any time".
 */
export function SendWindowField({ value, onChange }: { value: CampaignSendWindow | null; onChange: (window: CampaignSendWindow | null) => void }) {
  const problem = windowProblem(value);
  return (
    <SpaceBetween size="s">
      <FormField label="Send window" description="Emails go only inside the window, in each recipient's time zone (yours when theirs is not known).">
        <RadioGroup
          value={value === null ? 'any' : 'working'}
          onChange={({ detail }) => onChange(detail.value === 'any' ? null : DEFAULT_WORKING_HOURS)}
          items={[
            { value: 'any', label: 'Any time' },
            { value: 'working', label: "Recipient's working hours" },
          ]}
        />
      </FormField>
      {value !== null && (
        <SpaceBetween size="s" direction="horizontal">
          <FormField label="Days" errorText={value.days.length === 0 ? problem : undefined}>
            <Multiselect
              selectedOptions={dayOptions.filter((option) => value.days.includes(Number(option.value) as Weekday))}
              options={dayOptions}
              placeholder="Choose days"
              onChange={({ detail }) =>
                onChange({ ...value, days: detail.selectedOptions.map((option) => Number(option.value) as Weekday).sort((a, b) => a - b) })
              }
            />
          </FormField>
          <FormField label="From" errorText={value.days.length > 0 ? problem : undefined}>
            <Select
              selectedOption={startOptions.find((option) => option.value === String(value.start_hour)) ?? null}
              options={startOptions}
              onChange={({ detail }) => onChange({ ...value, start_hour: Number(detail.selectedOption.value) })}
            />
          </FormField>
          <FormField label="Until">
            <Select
              selectedOption={endOptions.find((option) => option.value === String(value.end_hour)) ?? null}
              options={endOptions}
              onChange={({ detail }) => onChange({ ...value, end_hour: Number(detail.selectedOption.value) })}
            />
          </FormField>
        </SpaceBetween>
      )}
    </SpaceBetween>
  );
}
