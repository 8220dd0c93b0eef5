import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState, type ReactNode } from 'react';
import type { DirectoryContactType } from '../../../../schema/api/directory';
import type { Genre } from '../../../../schema/api/options';
import { defaultFilters, filtersActive, genreLabels, type Count, type DirectoryFilters } from './filters';
import { isPhoneViewport } from '../../lib/viewport';
import styles from './labelfinder.module.css';

/** Cloudscape's own phone breakpoint (the dashboard layout's drawer switches there too). */

function toggle<T>(list: readonly T[], value: T, on: boolean): T[] {
  return on ? (list.includes(value) ? [...list] : [...list, value]) : list.filter((item) => item !== value);
}

/**
 * A titled group of checkboxes. A fieldset rather than a FormField: FormField appends its label to the
 * name of every control inside it ('Techno (3) Genres').
 */
function OptionGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className={styles.options}>
      <legend className={styles.legend}>
        <Box variant="awsui-key-label" tagOverride="span">
          {legend}
        </Box>
      </legend>
      {children}
    </fieldset>
  );
}

export interface FiltersPanelProps {
  filters: DirectoryFilters;
  onChange: (filters: DirectoryFilters) => void;
  typeCounts: readonly Count<DirectoryContactType>[];
  genreCounts: readonly Count<Genre>[];
}

/** Type, genre and location filters; folded away by default on phones, where they would push the cards off screen. */
export function FiltersPanel({ filters, onChange, typeCounts, genreCounts }: FiltersPanelProps) {
  const [expanded, setExpanded] = useState(() => !isPhoneViewport());
  return (
    <ExpandableSection
      variant="container"
      headerText="Filters"
      expanded={expanded}
      onChange={({ detail }) => setExpanded(detail.expanded)}
      headerActions={
        filtersActive(filters) ? (
          <Button variant="inline-link" onClick={() => onChange(defaultFilters)}>
            Clear filters
          </Button>
        ) : undefined
      }
    >
      <SpaceBetween size="l">
        <OptionGroup legend="Contact type">
          {typeCounts.map(({ value, count }) => (
            <Checkbox
              key={value}
              checked={filters.types.includes(value)}
              onChange={({ detail }) => onChange({ ...filters, types: toggle(filters.types, value, detail.checked) })}
            >
              {`${value} (${count})`}
            </Checkbox>
          ))}
        </OptionGroup>
        <OptionGroup legend="Genres">
          {genreCounts.length === 0 ? (
            <Box color="text-body-secondary">No genres listed</Box>
          ) : (
            genreCounts.map(({ value, count }) => (
              <Checkbox
                key={value}
                checked={filters.genres.includes(value)}
                onChange={({ detail }) => onChange({ ...filters, genres: toggle(filters.genres, value, detail.checked) })}
              >
                {`${genreLabels[value]} (${count})`}
              </Checkbox>
            ))
          )}
        </OptionGroup>
        <OptionGroup legend="Location">
          <Checkbox checked={filters.withLocationOnly} onChange={({ detail }) => onChange({ ...filters, withLocationOnly: detail.checked })}>
            Only contacts with location info
          </Checkbox>
        </OptionGroup>
      </SpaceBetween>
    </ExpandableSection>
  );
}
