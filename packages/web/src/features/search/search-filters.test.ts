import { setActiveCampus } from '@campus-books/common/active-campus';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CAMPUS, readCampusFile } from '../../test/use-default-campus';
import { activeFilterChips } from './active-filter-chips';
import { filtersToApiQuery, filtersToParams, readFilters, resultCountText } from './search-filters';

afterEach(() => setActiveCampus(DEFAULT_CAMPUS));

describe('the active filters as chips', () => {
  it('shows the term and every filter, each removable on its own', () => {
    const filters = readFilters(
      new URLSearchParams(
        'searchTerm=calculus&subject=MATH&condition=good&schools=Bschool&major=Mathematics&status=active_or_none',
      ),
    );
    const chips = activeFilterChips(filters);
    expect(chips.map((c) => c.label)).toEqual([
      '“calculus”',
      'Mathematics',
      'Mathematics',
      'Good',
      'Bschool',
    ]);
    const withoutTerm = chips[0]!.without;
    expect(withoutTerm.searchTerm).toBe('');
    expect(withoutTerm.sort).toBe('latest');
    expect(withoutTerm.subject).toBe('MATH');
    expect(chips[3]!.without.condition).toBe('con-all');
    expect(chips[4]!.without.school).toBe('');
  });

  it('has none for a plain search', () => {
    expect(activeFilterChips(readFilters(new URLSearchParams('status=active_or_none')))).toEqual(
      [],
    );
  });
});

describe('the school filter', () => {
  const read = (query: string) => readFilters(new URLSearchParams(query));

  it('is written as schools=<key>, in the URL and to the API', () => {
    const filters = read('schools=LawProfessional&status=active');
    expect(filters.school).toBe('LawProfessional');
    expect(filtersToParams(filters).toString()).toBe('schools=LawProfessional&status=active');
    expect(filtersToApiQuery(filters)).toMatchObject({ schools: 'LawProfessional' });
    expect(filtersToApiQuery(filters)).not.toHaveProperty('LawProfessional');
    // The chip says the campus's short label for the filters.
    expect(activeFilterChips(filters).map((c) => c.label)).toEqual(['Law and Prof Studies']);
  });

  it('reads the original links (?Jepson=true) and keys in any case, as the server does', () => {
    expect(read('Jepson=true').school).toBe('Jepson');
    expect(filtersToParams(read('Jepson=true&status=active')).toString()).toBe(
      'schools=Jepson&status=active',
    );
    expect(read('schools=artscience').school).toBe('ArtScience');
    for (const query of ['Jepson=false', 'Jepson=maybe', 'schools=Nowhere', 'jepson=true', '']) {
      expect(read(query).school, query).toBe('');
    }
  });

  it('keeps one school of a link naming several: the first in the campus’s order', () => {
    expect(read('schools=LawProfessional,Jepson').school).toBe('Jepson');
    expect(read('schools=LawProfessional&Bschool=true').school).toBe('Bschool');
  });

  it('is a key of the campus served, labelled by it', () => {
    setActiveCampus(readCampusFile('examples/pacific-crest.yaml'));
    const filters = read('schools=engineering&Jepson=true');
    expect(filters.school).toBe('engineering');
    expect(filtersToApiQuery(filters)).toMatchObject({ schools: 'engineering' });
    expect(activeFilterChips(filters).map((c) => c.label)).toEqual(['Engineering']);
    expect(read('Jepson=true').school).toBe('');
  });
});

describe('the maximum price', () => {
  it('is kept in the URL and sent to the API as whole dollars, with a chip that removes it', () => {
    const filters = readFilters(new URLSearchParams('maxPrice=025&subject=ECON&status=active'));
    expect(filters.maxPrice).toBe('25');
    expect(filtersToParams(filters).get('maxPrice')).toBe('25');
    expect(filtersToApiQuery(filters)).toMatchObject({ maxPrice: '25', subject: 'ECON' });
    const chip = activeFilterChips(filters).find((c) => c.key === 'maxPrice');
    expect(chip?.label).toBe('Up to $25');
    expect(filtersToParams(chip!.without).has('maxPrice')).toBe(false);
    expect(readFilters(new URLSearchParams('maxPrice=0')).maxPrice).toBe('0');
  });

  it('drops a value the API would refuse instead of failing the search', () => {
    for (const bad of ['12.5', '-3', 'cheap', '', '10000001', '1e3']) {
      const filters = readFilters(new URLSearchParams({ maxPrice: bad }));
      expect(filters.maxPrice, bad).toBe('');
      expect(filtersToApiQuery(filters), bad).not.toHaveProperty('maxPrice');
    }
  });
});

describe('the result count', () => {
  it('reads as a sentence', () => {
    const total = (n: number, isCapped = false) => ({ total: n, isCapped });
    expect(resultCountText(total(23), 'calculus')).toBe('23 books for calculus');
    expect(resultCountText(total(1), '')).toBe('1 book');
    expect(resultCountText(total(0), 'qqq')).toBe('0 books for qqq');
    expect(resultCountText(total(1000, true), '')).toBe('1,000+ books');
  });

  it('without a total from the server, says what is shown and whether more can load', () => {
    expect(resultCountText({ shown: 9, hasMore: true }, 'calculus')).toBe('9+ books for calculus');
    expect(resultCountText({ shown: 4, hasMore: false }, '')).toBe('4 books');
  });
});
