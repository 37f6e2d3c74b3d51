import {
  CONVERSATION_MESSAGES as M,
  offerFromListingSchema,
  offerSchema,
} from '@campus-books/common/conversation.schemas';
import {
  OFFER_SET_MESSAGES as S,
  type BundleCandidate,
  type OfferListing,
} from '@campus-books/common/offer-sets';
import { formatPrice } from '@campus-books/common/display';
import type { z } from 'zod';

/**
 * One offer for several books (issue 44), the buyer's form's arithmetic: which of the chosen books
 * still go in the offer, the most it may be, and which book a refusal names. Pure, for the tests.
 */

/** A book an offer may be about: its id, title and price. */
export interface OfferBook {
  id: string;
  title: string;
  price: number;
}

/** The chosen books that can still be added: one that became unavailable since is left out. */
export function chosenBooks(
  candidates: readonly BundleCandidate[],
  chosenIds: readonly string[],
): BundleCandidate[] {
  const chosen = new Set(chosenIds);
  return candidates.filter((candidate) => candidate.available && chosen.has(candidate.id));
}

/** The price of the books together, the conversation's own first. */
export function setPrice(ownPrice: number, chosen: readonly Pick<BundleCandidate, 'price'>[]) {
  return chosen.reduce((total, book) => total + book.price, ownPrice);
}

/** The most an offer may be, in whole dollars: the books' prices together, rounded down. */
export function offerMaximum(ownPrice: number, chosen: readonly Pick<BundleCandidate, 'price'>[]) {
  return Math.floor(setPrice(ownPrice, chosen) + 1e-9);
}

/** The line under the choice: "3 books together: $75.50", or null for the one book alone. */
export function setTotalLine(ownPrice: number, chosen: readonly Pick<BundleCandidate, 'price'>[]) {
  if (chosen.length === 0) return null;
  return `${chosen.length + 1} books together: ${formatPrice(setPrice(ownPrice, chosen))}`;
}

/**
 * The book a refusal of the server names ("“Title” is on hold for another buyer", "Listing {id}
 * was not found"), to mark it beside its box; null when the message names none of them. The
 * longest title quoted wins, so a title that starts another never takes its place.
 */
export function refusedBook(
  message: string,
  candidates: readonly BundleCandidate[],
): BundleCandidate | null {
  const byId = candidates.find((candidate) => message.includes(candidate.id));
  if (byId) return byId;
  const named = candidates
    .filter((candidate) => message.includes(`“${candidate.title}”`))
    .sort((a, b) => b.title.length - a.title.length);
  return named[0] ?? null;
}

/**
 * The most an offer may be, and for how many books: a counter's, the set it answers (the seller
 * keeps the buyer's set); a buyer's, the conversation's book with the chosen others.
 */
export function offerLimit(
  price: number,
  counterSet: readonly OfferListing[] | null,
  candidates: readonly BundleCandidate[],
  listingIds: readonly string[],
): { maximum: number; books: number } {
  if (counterSet && counterSet.length > 1) {
    const prices = counterSet.map((book) => ({ price: book.price ?? 0 }));
    return { maximum: offerMaximum(0, prices), books: counterSet.length };
  }
  if (counterSet) return { maximum: Math.floor(price + 1e-9), books: 1 };
  const chosen = chosenBooks(candidates, listingIds);
  return { maximum: offerMaximum(price, chosen), books: chosen.length + 1 };
}

/** The offer form's schema: the API's, and at most the price of the books chosen together. */
export function offerFormSchema(
  price: number,
  counterSet: readonly OfferListing[] | null,
  candidates: readonly BundleCandidate[],
) {
  return offerSchema.superRefine(atMostTheBooks(price, counterSet, candidates));
}

/** The check both forms share: the amount at most the price of the books chosen together. */
function atMostTheBooks(
  price: number,
  counterSet: readonly OfferListing[] | null,
  candidates: readonly BundleCandidate[],
) {
  return (
    value: { amount: number; listingIds?: string[] | undefined },
    context: z.RefinementCtx,
  ) => {
    const { maximum, books } = offerLimit(price, counterSet, candidates, value.listingIds ?? []);
    if (value.amount > maximum) {
      context.addIssue({
        code: 'custom',
        path: ['amount'],
        message: books > 1 ? S.aboveSetPrice : M.offerAbovePrice,
      });
    }
  };
}

/**
 * The form of an offer made from a listing's page or its seller's profile (before any
 * conversation): the amount, the other books chosen and an optional message, the amount at most
 * the books' price together. The page adds the listing and the key.
 */
export function pageOfferFormSchema(price: number, candidates: readonly BundleCandidate[]) {
  return offerFromListingSchema
    .pick({ amount: true, listingIds: true, text: true })
    .superRefine(atMostTheBooks(price, null, candidates));
}
