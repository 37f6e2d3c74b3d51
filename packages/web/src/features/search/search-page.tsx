import { useMemo, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { SelectField } from '../../components/ui/form-field';
import { paths } from '../../config/paths';
import { FilterPanel } from './filter-panel';
import {
  SORT_CHOICES,
  addressWithDefaultStatus,
  filtersToApiQuery,
  filtersToParams,
  readFilters,
  type SearchFilters,
  type SortChoice,
} from './search-filters';
import { SearchResults } from './search-results';
import type { AlertBody } from '@campus-books/common/alert.schemas';

/** The search's filters as an alert; null when they name nothing to watch. */
function alertOf(filters: SearchFilters): AlertBody | null {
  const body: AlertBody = {
    searchTerm: filters.searchTerm || null,
    courseNumber: filters.courseNumber || null,
    subject: filters.subject || null,
    major: filters.major || null,
    condition: filters.condition,
    school: filters.school || null,
    maxPrice: filters.maxPrice ? Number(filters.maxPrice) : null,
  };
  return body.searchTerm || body.courseNumber || body.subject || body.major ? body : null;
}
import { FilterChips } from './filter-chips';

export default function SearchPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const [areFiltersOpen, setAreFiltersOpen] = useState(false);
  const search = searchParams.toString();
  const filters = useMemo(() => readFilters(new URLSearchParams(search)), [search]);
  const apiQuery = useMemo(() => filtersToApiQuery(filters), [filters]);

  // A search without a status filter is given the default one, replacing the history entry.
  const withDefaultStatus = addressWithDefaultStatus(search);
  if (withDefaultStatus) return <Navigate to={withDefaultStatus} replace />;

  const pushFilters = (next: SearchFilters) =>
    navigate(`${paths.search}?${filtersToParams(next).toString()}`);
  const sortChoices = SORT_CHOICES.filter((c) => c.value !== 'best' || filters.searchTerm);

  return (
    <>
      <PageTitle title={filters.searchTerm ? `Search: ${filters.searchTerm}` : 'Search books'} />
      <h1 className="sr-only">Search books</h1>
      <div className="flex flex-col gap-6 md:flex-row">
        <aside className="md:w-64 md:shrink-0">
          <h2 className="sr-only">Filters</h2>
          <FilterPanel
            // A new URL (back/forward, a shared link, the header search) refills the form.
            key={search}
            initial={filters}
            onSearch={pushFilters}
            onClear={() => navigate(paths.search)}
            // Kept here, not in the panel: a search keeps the filters open or folded as they were.
            areFiltersOpen={areFiltersOpen}
            onToggleFilters={() => setAreFiltersOpen((open) => !open)}
          />
        </aside>
        <section aria-labelledby="listing-results" className="min-w-0 flex-1">
          <div className="mb-4 flex flex-wrap items-end justify-between gap-4 border-b border-slate-200 pb-3">
            <h2 id="listing-results" className="text-2xl font-bold text-slate-900">
              Listing results
            </h2>
            <SelectField
              label="Sort by"
              value={filters.sort}
              onChange={(e) => pushFilters({ ...filters, sort: e.target.value as SortChoice })}
              className="w-52"
            >
              {sortChoices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </SelectField>
          </div>
          <FilterChips filters={filters} onChange={pushFilters} />
          <SearchResults
            query={apiQuery}
            alert={alertOf(filters)}
            filters={filters}
            onChange={(next) => (next ? pushFilters(next) : navigate(paths.search))}
          />
        </section>
      </div>
    </>
  );
}
