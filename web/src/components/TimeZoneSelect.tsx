import Select, { type SelectProps } from '@cloudscape-design/components/select';

/**
 * The searchable time zone list of the contact form and Settings (issue 27 §2): `options` from
 * lib/timeZones timeZoneOptions; `empty` is what shows while no zone is chosen.
 */
export function TimeZoneSelect({
  value,
  options,
  empty = null,
  disabled,
  onChange,
}: {
  value: string;
  options: SelectProps.Option[];
  empty?: SelectProps.Option | null;
  disabled: boolean;
  onChange: (zone: string) => void;
}) {
  return (
    <Select
      selectedOption={options.find((option) => option.value === value) ?? empty}
      options={options}
      filteringType="auto"
      virtualScroll
      filteringPlaceholder="Find a time zone"
      filteringAriaLabel="Find a time zone"
      disabled={disabled}
      onChange={({ detail }) => onChange(detail.selectedOption.value ?? '')}
    />
  );
}
