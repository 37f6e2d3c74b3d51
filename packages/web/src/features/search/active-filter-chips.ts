import { activeCampus } from '@campus-books/common/active-campus';
import { conditionLabel } from '@campus-books/common/display';
import { readMaxPrice, type SearchFilters } from './search-filters';

// Apart from search-filters.ts: the chips name subjects, majors and schools, and the campus's lists
// of those belong to the search page's code, not to the first load of every page (which reads the
// search address through search-filters.ts).

/** An active filter as a removable chip: what it shows, and the filters without it. */
export interface FilterChip {
  key: string;
  label: string;
  without: SearchFilters;
}

/** The search term and every active filter, in the order the panel shows them. */
export function activeFilterChips(filters: SearchFilters): FilterChip[] {
  const { subjectName, majorLabel, schools } = activeCampus();
  const chips: FilterChip[] = [];
  const add = (key: string, label: string, without: Partial<SearchFilters>) =>
    chips.push({ key, label, without: { ...filters, ...without } });
  const term = filters.searchTerm.trim();
  // Without a term 'Best match' has nothing to rank by: the sort falls back to the default.
  if (term)
    add('searchTerm', `“${term}”`, {
      searchTerm: '',
      sort: filters.sort === 'best' ? 'latest' : filters.sort,
    });
  if (filters.subject)
    add('subject', subjectName(filters.subject) ?? filters.subject, { subject: '' });
  if (filters.courseNumber.trim())
    add('courseNumber', `Course ${filters.courseNumber.trim()}`, { courseNumber: '' });
  if (filters.major) add('major', majorLabel(filters.major) ?? filters.major, { major: '' });
  if (filters.condition !== 'con-all')
    add('condition', conditionLabel(filters.condition), { condition: 'con-all' });
  if (filters.school) {
    const school = schools.find((s) => s.key === filters.school);
    add('school', school ? (school.filterLabel ?? school.label) : filters.school, { school: '' });
  }
  const maxPrice = readMaxPrice(filters.maxPrice);
  if (maxPrice)
    add('maxPrice', `Up to $${Number(maxPrice).toLocaleString('en-US')}`, { maxPrice: '' });
  if (filters.type) add('type', filters.type === 'rent' ? 'For rent' : 'For sale', { type: '' });
  return chips;
}
