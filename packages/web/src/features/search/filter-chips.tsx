import { activeFilterChips } from './active-filter-chips';
import type { SearchFilters } from './search-filters';

/** The search term and each active filter as a chip; its × removes just that one. */
export function FilterChips({
  filters,
  onChange,
}: {
  filters: SearchFilters;
  onChange(next: SearchFilters): void;
}) {
  const chips = activeFilterChips(filters);
  if (chips.length === 0) return null;
  return (
    <div role="group" aria-label="Active filters" className="mb-3 flex flex-wrap gap-2">
      {chips.map((chip) => (
        <button
          key={chip.key}
          type="button"
          onClick={() => onChange(chip.without)}
          aria-label={`Remove filter ${chip.label}`}
          className="inline-flex min-h-11 items-center gap-2 rounded-full border border-brand-200 bg-brand-50 py-1 pr-3 pl-4 text-sm font-semibold text-brand-900 hover:bg-brand-100"
        >
          {chip.label}
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4">
            <path
              d="M6 6l8 8M14 6l-8 8"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </button>
      ))}
    </div>
  );
}
