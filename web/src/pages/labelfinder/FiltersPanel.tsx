import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import type { DirectoryContactType } from '../../../../schema/api/directory';
import { genreLabels, type Genre } from '../../../../schema/api/options';
import { CheckboxFilter, FilterGroup, FiltersSection } from '../../components/FiltersSection';
import { defaultFilters, filtersActive, type Count, type DirectoryFilters } from './filters';

function toggle<T>(list: readonly T[], value: T, on: boolean): T[] {
  return on ? (list.includes(value) ? [...list] : [...list, value]) : list.filter((item) => item !== value);
}

export interface FiltersPanelProps {
  filters: DirectoryFilters;
  onChange: (filters: DirectoryFilters) => void;
  typeCounts: readonly Count<DirectoryContactType>[];
  genreCounts: readonly Count<Genre>[];
}

/** Type, genre and location filters, with Clear filters while any narrows the list. */
export function FiltersPanel({ filters, onChange, typeCounts, genreCounts }: FiltersPanelProps) {
  return (
    <FiltersSection
      headerActions={
        filtersActive(filters) ? (
          <Button variant="inline-link" onClick={() => onChange(defaultFilters)}>
            Clear filters
          </Button>
        ) : undefined
      }
    >
      <CheckboxFilter
        label="Contact type"
        options={typeCounts.map(({ value, count }) => ({ key: value, label: value, count }))}
        isChecked={(type) => filters.types.includes(type)}
        onToggle={(type, on) => onChange({ ...filters, types: toggle(filters.types, type, on) })}
      />
      <CheckboxFilter
        label="Genres"
        options={genreCounts.map(({ value, count }) => ({ key: value, label: genreLabels[value], count }))}
        isChecked={(genre) => filters.genres.includes(genre)}
        onToggle={(genre, on) => onChange({ ...filters, genres: toggle(filters.genres, genre, on) })}
        empty="No genres listed"
      />
      <FilterGroup label="Location">
        <Checkbox checked={filters.withLocationOnly} onChange={({ detail }) => onChange({ ...filters, withLocationOnly: detail.checked })}>
          Only contacts with location info
        </Checkbox>
      </FilterGroup>
      <FilterGroup label="Demo policy">
        <Checkbox checked={filters.emailDemosOnly} onChange={({ detail }) => onChange({ ...filters, emailDemosOnly: detail.checked })}>
          Accepts email demos
        </Checkbox>
      </FilterGroup>
    </FiltersSection>
  );
}
