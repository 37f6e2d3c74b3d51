import { CONVERSATION_MESSAGES as M } from '@campus-books/common/conversation.schemas';
import {
  BUNDLE_REASONS,
  OFFER_SET_MESSAGES as S,
  type BundleCandidate,
  type OfferListing,
} from '@campus-books/common/offer-sets';
import { describe, expect, it } from 'vitest';
import {
  chosenBooks,
  offerFormSchema,
  offerLimit,
  pageOfferFormSchema,
  refusedBook,
  setTotalLine,
} from './offer-set';

const A1 = '00000000-0000-4000-8000-000000000001';
const A2 = '00000000-0000-4000-8000-000000000002';
const A3 = '00000000-0000-4000-8000-000000000003';

const candidate = (fields: Partial<BundleCandidate> & { id: string }): BundleCandidate => ({
  title: `Book ${fields.id}`,
  price: 10,
  courses: [],
  suggested: false,
  available: true,
  reason: null,
  ...fields,
});

const organic = candidate({ id: A1, title: 'Organic Chemistry', price: 30.25, suggested: true });
const lab = candidate({ id: A2, title: 'Organic Chemistry Lab Manual', price: 10 });
const held = candidate({
  id: A3,
  title: '有機化学 第2版',
  price: 50,
  available: false,
  reason: BUNDLE_REASONS.held,
});
const candidates = [organic, lab, held];

describe('one offer for several books: the form’s total and maximum', () => {
  it('adds the chosen books to the conversation’s book, and the most is their total rounded down', () => {
    expect(offerLimit(20.5, null, candidates, [])).toEqual({ maximum: 20, books: 1 });
    expect(offerLimit(20.5, null, candidates, [A1, A2])).toEqual({ maximum: 60, books: 3 });
    expect(setTotalLine(20.5, [])).toBeNull();
    expect(setTotalLine(20.5, chosenBooks(candidates, [A1, A2]))).toBe('3 books together: $60.75');
  });

  it('leaves out a chosen book that cannot be added any more, and ids it does not know', () => {
    expect(chosenBooks(candidates, [A3, A2, 'zz']).map((book) => book.id)).toEqual([A2]);
    expect(offerLimit(20, null, candidates, [A3])).toEqual({ maximum: 20, books: 1 });
  });

  it('holds a counter to the price of the set it answers', () => {
    const set: OfferListing[] = [
      { id: 'own', title: 'Own', price: 20, status: 'active' },
      { id: A1, title: 'Organic Chemistry', price: 30.25, status: 'active' },
    ];
    expect(offerLimit(20, set, [], [])).toEqual({ maximum: 50, books: 2 });
    expect(offerLimit(20, [set[0]!], [], [])).toEqual({ maximum: 20, books: 1 });
  });

  it('refuses an amount above the chosen books’ total with the set’s message, and takes one up to it', () => {
    const schema = offerFormSchema(20.5, null, candidates);
    const messageOf = (value: unknown) => {
      const result = schema.safeParse(value);
      return result.success ? null : result.error.issues.map((issue) => issue.message);
    };
    expect(messageOf({ amount: 60, listingIds: [A1, A2] })).toBeNull();
    expect(messageOf({ amount: 61, listingIds: [A1, A2] })).toEqual([S.aboveSetPrice]);
    expect(messageOf({ amount: 21, listingIds: [] })).toEqual([M.offerAbovePrice]);
    // A book refused since counts no more.
    expect(messageOf({ amount: 21, listingIds: [A3] })).toEqual([M.offerAbovePrice]);
    expect(offerFormSchema(20, [], []).safeParse({ amount: 20 }).success).toBe(true);
  });
});

describe('one offer for several books from a listing’s page or the seller’s profile', () => {
  const form = pageOfferFormSchema(20.5, candidates);
  it('takes the amount up to the books chosen together, with or without a message', () => {
    expect(form.safeParse({ amount: 60, listingIds: [A1, A2], text: 'All three?' }).success).toBe(
      true,
    );
    expect(form.safeParse({ amount: 20, listingIds: [] }).success).toBe(true);
    expect(form.safeParse({ amount: 20, listingIds: [], text: '' }).success).toBe(true);
  });

  it('refuses more than the books chosen together (a held book counts for nothing), or a message too long', () => {
    const above = form.safeParse({ amount: 61, listingIds: [A1, A2] });
    expect(above.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['amount', S.aboveSetPrice],
    ]);
    const held = form.safeParse({ amount: 30, listingIds: [A3] });
    expect(held.error?.issues.map((issue) => issue.message)).toEqual([M.offerAbovePrice]);
    const long = form.safeParse({ amount: 10, listingIds: [], text: 'x'.repeat(2001) });
    expect(long.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['text']);
  });
});

describe('one offer for several books: the server’s refusal beside its book', () => {
  it('finds the book a refusal names by its quoted title, the longest that matches', () => {
    expect(refusedBook(S.held(held.title), candidates)).toBe(held);
    expect(refusedBook(S.sold(lab.title), candidates)).toBe(lab);
    expect(refusedBook(S.sold(organic.title), candidates)).toBe(organic);
  });

  it('finds it by its id when the listing is gone, and names none for another message', () => {
    expect(refusedBook(S.notFound(A2), candidates)).toBe(lab);
    expect(refusedBook(S.aboveSetPrice, candidates)).toBeNull();
    expect(refusedBook('Network error', [])).toBeNull();
  });
});
