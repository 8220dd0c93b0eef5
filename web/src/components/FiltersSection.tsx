import Box from '@cloudscape-design/components/box';
import Checkbox from '@cloudscape-design/components/checkbox';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState, type ReactNode } from 'react';
import { isPhoneViewport } from '../lib/viewport';

/**
 * The 'Filters' panel of a list page (Contacts, LabelFinder). It starts folded on phones, where it
 * would push the list below it off screen; the user can open it there.
 */
export function FiltersSection({ headerActions, children }: { headerActions?: ReactNode; children: ReactNode }) {
  const [expanded, setExpanded] = useState(() => !isPhoneViewport());
  return (
    <ExpandableSection
      variant="container"
      headerText="Filters"
      expanded={expanded}
      onChange={({ detail }) => setExpanded(detail.expanded)}
      headerActions={headerActions}
    >
      <SpaceBetween size="l">{children}</SpaceBetween>
    </ExpandableSection>
  );
}

/**
 * A titled group of filter controls, named by its title. Not a FormField: FormField appends its label
 * to the name of every control inside it ('Techno (3) Genres').
 */
export function FilterGroup({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={label}>
      <Box variant="awsui-key-label" margin={{ bottom: 'xxs' }}>
        {label}
      </Box>
      {children}
    </div>
  );
}

export interface FilterOption<K extends string> {
  key: K;
  label: string;
  /** How many items have this option; shown after the label. */
  count: number;
}

/** A filter group of checkboxes, one per option, each reading 'Label (count)'. */
export function CheckboxFilter<K extends string>({
  label,
  options,
  isChecked,
  onToggle,
  empty,
  listClassName,
}: {
  label: string;
  options: readonly FilterOption<K>[];
  isChecked: (key: K) => boolean;
  onToggle: (key: K, checked: boolean) => void;
  /** Shown instead of the checkboxes when there are no options. */
  empty?: string;
  /** Styles the list of checkboxes (e.g. to scroll a long one). */
  listClassName?: string;
}) {
  return (
    <FilterGroup label={label}>
      {options.length === 0 && empty !== undefined ? (
        <Box color="text-body-secondary">{empty}</Box>
      ) : (
        <div className={listClassName}>
          {options.map((option) => (
            <Checkbox key={option.key} checked={isChecked(option.key)} onChange={({ detail }) => onToggle(option.key, detail.checked)}>
              {`${option.label} (${option.count.toLocaleString()})`}
            </Checkbox>
          ))}
        </div>
      )}
    </FilterGroup>
  );
}
