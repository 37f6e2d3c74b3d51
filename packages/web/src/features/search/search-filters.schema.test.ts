import { CONDITIONS, PRICE_MAX } from '@campus-books/common/constants';
import { listingSearchSchema } from '@campus-books/common/listing.schemas';
import { describe, expect, it } from 'vitest';
import { filtersToApiQuery, readFilters } from './search-filters';

// The search page reads its URL without zod (the landing prefetch runs it on the home page's first
// load); these tests hold that reader to the API's search schema: it keeps exactly what the schema
// accepts, and drops the rest instead of sending the API a query it would refuse.
const field = listingSearchSchema.shape;
const read = (query: string) => readFilters(new URLSearchParams(query));

describe('the search URL reader agrees with the search schema', () => {
  it('condition', () => {
    for (const value of [...CONDITIONS, 'bad', 'Good', '']) {
      expect(read(`condition=${value}`).condition !== 'con-all', value).toBe(
        field.condition.safeParse(value).success,
      );
    }
  });

  it('subject', () => {
    for (const value of ['ECON', 'econ', ' MATH ', 'ZZZ', '']) {
      const kept = read(`subject=${encodeURIComponent(value)}`).subject;
      const parsed = field.subject.safeParse(value);
      expect(kept, value).toBe(parsed.success ? parsed.data : '');
    }
  });

  it('schools (one school, as the panel offers)', () => {
    for (const value of ['Jepson', 'bschool', ' ArtScience ', 'Nowhere', '']) {
      const kept = read(`schools=${encodeURIComponent(value)}`).school;
      const parsed = field.schools.safeParse(value);
      expect(kept, value).toBe(parsed.success ? (parsed.data?.[0] ?? '') : '');
    }
  });

  it('maxPrice', () => {
    for (const value of [
      '25',
      '025',
      '0',
      'abc',
      '-1',
      '1.5',
      `${PRICE_MAX}`,
      `${PRICE_MAX + 1}`,
    ]) {
      const kept = read(`maxPrice=${value}`).maxPrice;
      const parsed = field.maxPrice.safeParse(value);
      expect(kept, value).toBe(parsed.success ? String(parsed.data) : '');
    }
  });

  it('type and status', () => {
    for (const value of ['sale', 'rent', 'all', 'bogus']) {
      expect(read(`type=${value}`).type === value, value).toBe(field.type.safeParse(value).success);
    }
    for (const value of ['active', 'active_or_none', 'sold', '']) {
      expect(read(`status=${value}`).status === value, value).toBe(
        field.status.safeParse(value).success,
      );
    }
  });

  it('sort and order', () => {
    for (const sort of ['regularPrice', 'createdAt', 'bogus']) {
      for (const order of ['asc', 'desc', 'up']) {
        const apiQuery = filtersToApiQuery(read(`sort=${sort}&order=${order}`));
        const valid = field.sort.safeParse(sort).success && field.order.safeParse(order).success;
        if (valid) expect(apiQuery).toMatchObject({ sort, order });
        else expect(apiQuery.order === order && apiQuery.sort === sort).toBe(false);
      }
    }
  });

  it('any URL becomes an API query the schema accepts', () => {
    for (const query of [
      '',
      'condition=bad&subject=zzz&maxPrice=-3&type=x&status=sold&sort=x&order=y&Bschool=maybe',
      'searchTerm=calculus&subject=econ&condition=good&maxPrice=025&type=rent&Bschool=true',
      'schools=jepson,Nowhere&LawProfessional=true',
      'sort=regularPrice&order=asc&status=active',
    ]) {
      expect(listingSearchSchema.safeParse(filtersToApiQuery(read(query))).success, query).toBe(
        true,
      );
    }
  });
});
