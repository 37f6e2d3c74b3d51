import { PRICE_MAX } from '@campus-books/common/constants';
import { CONDITION_OPTIONS } from '@campus-books/common/display';
import { useId, useState, type FormEvent } from 'react';
import { MajorSelect } from '../../components/major-select';
import { Button } from '../../components/ui/button';
import { ScanIsbnButton } from '../../components/scan-isbn-button';
import { SelectField, TextField } from '../../components/ui/form-field';
import { SubjectOptions } from '../../components/subject-options';
import { useCampus } from '../../lib/campus';
import type { SearchFilters } from './search-filters';

/** The search's condition filter: any, or one condition by its label. */
const CONDITION_FILTER = [{ value: 'con-all', label: 'All' }, ...CONDITION_OPTIONS];

/** A collapsible group of radio buttons (open by default). */
function RadioSection(props: {
  legend: string;
  name: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange(value: string): void;
}) {
  return (
    <details open className="group rounded-lg border border-slate-200 bg-white">
      <summary className="flex cursor-pointer items-center justify-between rounded-lg px-3 py-2 font-semibold text-slate-900">
        {props.legend}
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 group-open:rotate-180">
          <path d="M5 7l5 6 5-6z" fill="currentColor" />
        </svg>
      </summary>
      <fieldset className="px-3 pb-3">
        <legend className="sr-only">{props.legend}</legend>
        {props.options.map((option) => (
          <label
            key={option.value}
            className="flex min-h-11 items-center gap-2 py-1 text-sm text-slate-800 md:min-h-0"
          >
            <input
              type="radio"
              name={props.name}
              value={option.value}
              checked={props.value === option.value}
              onChange={() => props.onChange(option.value)}
              className="size-4 accent-brand-700"
            />
            {option.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

export interface FilterPanelProps {
  initial: SearchFilters;
  onSearch(filters: SearchFilters): void;
  onClear(): void;
  /** On a phone the filters other than the search box fold away behind "Search filters". */
  areFiltersOpen: boolean;
  onToggleFilters(): void;
}

/**
 * The left-hand filters. Edits stay local until Search pushes them into the URL. The search box and
 * the Search button are always shown: on a phone only the other filters fold away.
 */
export function FilterPanel({
  initial,
  onSearch,
  onClear,
  areFiltersOpen,
  onToggleFilters,
}: FilterPanelProps) {
  const foldId = useId();
  const schoolOptions = [
    { value: '', label: 'All' },
    ...useCampus().schools.map((s) => ({ value: s.key, label: s.filterLabel ?? s.label })),
  ];
  const [filters, setFilters] = useState(initial);
  const set = <K extends keyof SearchFilters>(key: K, value: SearchFilters[K]) =>
    setFilters((current) => ({ ...current, [key]: value }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(filters);
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Filters">
      <TextField
        label="Search by Name"
        type="search"
        value={filters.searchTerm}
        hint="A title, an ISBN or a course such as ECON 101"
        onChange={(e) => set('searchTerm', e.target.value)}
      />
      <button
        type="button"
        aria-expanded={areFiltersOpen}
        aria-controls={foldId}
        onClick={onToggleFilters}
        className="flex min-h-11 w-full items-center justify-between rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-semibold text-slate-900 md:hidden"
      >
        Search filters
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className={`size-4 ${areFiltersOpen ? 'rotate-180' : ''}`}
        >
          <path d="M5 7l5 6 5-6z" fill="currentColor" />
        </svg>
      </button>
      <div id={foldId} className={`${areFiltersOpen ? 'flex' : 'hidden'} flex-col gap-4 md:flex`}>
        <Button variant="secondary" onClick={onClear}>
          Clear Filters
        </Button>
        <ScanIsbnButton onIsbn={(isbn) => onSearch({ ...filters, searchTerm: isbn })} />
        <SelectField
          label="Subject"
          value={filters.subject}
          onChange={(e) => set('subject', e.target.value)}
        >
          <SubjectOptions emptyLabel="Any subject" />
        </SelectField>
        <TextField
          label="Course Number"
          type="number"
          inputMode="numeric"
          min={0}
          value={filters.courseNumber}
          onChange={(e) => set('courseNumber', e.target.value)}
        />
        <MajorSelect
          label="Major"
          value={filters.major}
          onChange={(major) => set('major', major)}
        />
        <TextField
          label="Max price ($)"
          type="number"
          inputMode="numeric"
          min={0}
          max={PRICE_MAX}
          step={1}
          value={filters.maxPrice}
          hint="Whole dollars; leave empty for any price"
          onChange={(e) => set('maxPrice', e.target.value)}
        />
        <RadioSection
          legend="Condition"
          name="condition"
          options={CONDITION_FILTER}
          value={filters.condition}
          onChange={(value) => set('condition', value as SearchFilters['condition'])}
        />
        <RadioSection
          legend="School"
          name="school"
          options={schoolOptions}
          value={filters.school}
          onChange={(value) => set('school', value)}
        />
      </div>
      <Button type="submit">Search</Button>
    </form>
  );
}
