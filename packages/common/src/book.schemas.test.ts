import { describe, expect, it } from 'vitest';
import { listingCreateSchema, listingSearchSchema } from './listing.schemas';

const base = {
  name: 'Principles of Economics',
  courseNumber: '101',
  regularPrice: 40,
  imageUrls: ['/api/images/a.webp'],
};

const issues = (body: object) =>
  listingCreateSchema.safeParse({ ...base, ...body }).error?.issues.map((i) => i.message) ?? [];

describe('the book fields of a listing', () => {
  it('are optional: a body without them parses as before', () => {
    const parsed = listingCreateSchema.parse(base);
    expect(parsed.isbn).toBeUndefined();
    expect(parsed.subject).toBeUndefined();
  });

  it('store any ISBN form as its ISBN-13 and subjects in upper case', () => {
    const parsed = listingCreateSchema.parse({
      ...base,
      isbn: '0-262-03384-4',
      authors: ' Cormen, Leiserson ',
      edition: '3rd',
      subject: 'econ',
    });
    expect(parsed).toMatchObject({
      isbn: '9780262033848',
      authors: 'Cormen, Leiserson',
      edition: '3rd',
      subject: 'ECON',
    });
  });

  it("read '' and null as cleared", () => {
    const parsed = listingCreateSchema.parse({ ...base, isbn: '', authors: null, subject: ' ' });
    expect(parsed).toMatchObject({ isbn: null, authors: null, subject: null });
  });

  it('refuse a bad check digit, a misplaced X, a wrong length, an unknown subject with written copy', () => {
    expect(issues({ isbn: '9780262033849' })).toEqual([
      "That ISBN's check digit is wrong: check the number on the back cover",
    ]);
    expect(issues({ isbn: '026203384X' })).toEqual([
      "That ISBN's check digit is wrong: check the number on the back cover",
    ]);
    expect(issues({ isbn: 'X262033844' })[0]).toMatch(/^ISBN must be 10 or 13 digits/);
    expect(issues({ isbn: 9780262033848 })).toEqual([
      'ISBN must be text, such as 978-0-262-03384-8',
    ]);
    expect(issues({ subject: 'WXYZ' })).toEqual([
      'Choose a subject from the list (such as ECON or MATH)',
    ]);
    expect(issues({ authors: 'a'.repeat(201) })).toEqual([
      'Authors must be at most 200 characters',
    ]);
  });

  it("keep the publisher's cover among the listing's images", () => {
    expect(issues({ publisherCover: '/api/images/other.webp' })).toEqual([
      "The publisher's cover must be one of the listing's images",
    ]);
    expect(issues({ publisherCover: '/api/images/a.webp' })).toEqual([]);
  });
});

describe('the search subject filter', () => {
  it('takes a known subject in any case and refuses others', () => {
    expect(listingSearchSchema.parse({ subject: 'econ' }).subject).toBe('ECON');
    expect(listingSearchSchema.safeParse({ subject: 'NOPE' }).success).toBe(false);
  });
});
