import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import { formatCourse } from '@campus-books/common/course';
import {
  BUNDLE_REASONS,
  OFFER_SET_MESSAGES as S,
  type BundleCandidate,
  type OfferListing,
} from '@campus-books/common/offer-sets';
import type { Db } from '../../db/database';
import type { ConversationEventRow, ConversationRow } from '../../db/conversations.schema';
import { requiredBooks } from '../../db/courses.schema';
import { listings, type ListingRow, type UserRow } from '../../db/schema';
import { isHeldAt, roleOf, SOLD } from '../../deal/deal';
import { badRequest, conflict, type AppError } from '../../lib/errors';
import { isVisibleTo, visibleTo } from '../listings/listing-visibility';
import { findOfferListings } from './offers.repository';

/**
 * One offer for several books (issue 44): which listings an offer's set may hold, the set as the
 * API shows it, and the seller's other listings a buyer may add. The hold of a set is the deal's
 * (deal.ts), executed by the listings' owner; the set's rows are the offers' owner's.
 */

type Conversation = Pick<ConversationRow, 'sellerId' | 'buyerId' | 'listingId'>;

/** Listings by id, in the order asked (missing ones left out). */
export async function listingsByIds(db: Db, ids: readonly string[]): Promise<ListingRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(listings)
    .where(inArray(listings.id, [...ids]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A book of a set as its two students see it: only the title once hidden, removed or deleted. */
function toOfferListing(row: ListingRow): OfferListing {
  const shown =
    row.sellerDeletedAt === null &&
    (row.status === 'active' || row.status === 'sold' || row.status === 'expired');
  return {
    id: row.id,
    title: row.name,
    price: shown ? Number(row.regularPrice) : null,
    status: shown ? (row.status as OfferListing['status']) : 'unavailable',
  };
}

/** Each offer's set (the conversation's listing first); an offer without rows is its listing alone. */
export async function offerSetsOf(
  db: Db,
  conversation: Conversation,
  offerIds: readonly string[],
): Promise<Map<string, ListingRow[]>> {
  const rows = await findOfferListings(db, [...new Set(offerIds)]);
  const ids = new Set(rows.map((row) => row.listingId));
  if (conversation.listingId) ids.add(conversation.listingId);
  const byId = new Map((await listingsByIds(db, [...ids])).map((row) => [row.id, row]));
  const sets = new Map<string, ListingRow[]>();
  for (const { offerId, listingId } of rows) {
    const listing = byId.get(listingId);
    if (listing) sets.set(offerId, [...(sets.get(offerId) ?? []), listing]);
  }
  const own = conversation.listingId ? byId.get(conversation.listingId) : undefined;
  for (const offerId of offerIds) if (!sets.has(offerId)) sets.set(offerId, own ? [own] : []);
  return sets;
}

/** Each event's set as the API answers it ([] for events that are not offers), in order. */
export async function setsOfEvents(
  db: Db,
  conversation: Conversation,
  rows: Pick<ConversationEventRow, 'offerId'>[],
): Promise<OfferListing[][]> {
  const offerIds = rows.flatMap((row) => (row.offerId === null ? [] : [row.offerId]));
  const sets = await offerSetsOf(db, conversation, offerIds);
  return rows.map((row) =>
    row.offerId === null ? [] : (sets.get(row.offerId) ?? []).map(toOfferListing),
  );
}

/** An offer's set as the API answers it. */
export async function offerListingsOf(
  db: Db,
  conversation: Conversation,
  offerId: string,
): Promise<OfferListing[]> {
  return ((await offerSetsOf(db, conversation, [offerId])).get(offerId) ?? []).map(toOfferListing);
}

/** Why a listing of the seller's cannot join a set now (409), or null when it can. */
export function setRefusal(listing: ListingRow, buyerId: string, now: Date): AppError | null {
  if (listing.status === SOLD) return conflict(S.sold(listing.name));
  if (listing.status !== 'active') return conflict(S.closed(listing.name));
  if (isHeldAt(listing, now)) {
    return conflict(
      listing.heldFor === buyerId ? S.heldForYou(listing.name) : S.held(listing.name),
    );
  }
  return null;
}

/**
 * The other listings of a buyer's offer, checked: each one the buyer can see (else "not found",
 * as for an id that does not exist), the conversation seller's, for sale and not held. Answers them
 * in the order given.
 */
export async function checkSetListings(
  db: Db,
  conversation: Conversation,
  listingIds: readonly string[],
  now: Date,
): Promise<ListingRow[]> {
  if (listingIds.length === 0) return [];
  if (conversation.listingId && listingIds.includes(conversation.listingId)) {
    throw badRequest(S.ownListingListed);
  }
  const buyer = { id: conversation.buyerId!, moderator: false };
  const found = new Map((await listingsByIds(db, listingIds)).map((row) => [row.id, row]));
  return listingIds.map((id) => {
    const listing = found.get(id);
    if (!listing || !isVisibleTo(listing, buyer)) throw badRequest(S.notFound(id));
    if (roleOf(listing.userId, conversation) !== 'seller')
      throw badRequest(S.notSellers(listing.name));
    const refusal = setRefusal(listing, conversation.buyerId!, now);
    if (refusal) throw refusal;
    return listing;
  });
}

/** The courses of each listing: its own (subject and number) and the bookstore's for its ISBN. */
async function coursesOf(db: Db, rows: ListingRow[]): Promise<Map<string, string[]>> {
  const isbns = [...new Set(rows.flatMap((row) => (row.isbn ? [row.isbn] : [])))];
  const required =
    isbns.length === 0
      ? []
      : await db
          .select({
            isbn: requiredBooks.isbn,
            subject: requiredBooks.subject,
            courseNumber: requiredBooks.courseNumber,
          })
          .from(requiredBooks)
          .where(inArray(requiredBooks.isbn, isbns));
  const courses = new Map<string, string[]>();
  for (const row of rows) {
    const own = row.courseNumber.trim() ? [formatCourse(row.subject, row.courseNumber.trim())] : [];
    const store = required
      .filter((book) => book.isbn === row.isbn)
      .map((book) => formatCourse(book.subject, book.courseNumber));
    courses.set(row.id, [...new Set([...own, ...store])]);
  }
  return courses;
}

/** Why a candidate cannot be added now, or null. */
function candidateReason(row: ListingRow, buyerId: string | null, now: Date): string | null {
  if (row.status === SOLD) return BUNDLE_REASONS.sold;
  if (row.status === 'expired') return BUNDLE_REASONS.expired;
  if (row.status !== 'active') return BUNDLE_REASONS.hidden;
  if (isHeldAt(row, now)) {
    return row.heldFor !== null && row.heldFor === buyerId
      ? BUNDLE_REASONS.heldForYou
      : BUNDLE_REASONS.held;
  }
  return null;
}

/** The most candidates answered. */
const CANDIDATES_MAX = 100;

/**
 * The seller's other listings the caller may see (a buyer: never a hidden one), those sharing a
 * course with the conversation's listing first, then those available, newest first.
 */
export async function bundleCandidates(
  db: Db,
  user: UserRow,
  conversation: Conversation,
  now: Date,
): Promise<BundleCandidate[]> {
  if (conversation.sellerId === null || conversation.listingId === null) return [];
  const rows = await db
    .select()
    .from(listings)
    .where(
      and(
        eq(listings.userId, conversation.sellerId),
        ne(listings.id, conversation.listingId),
        inArray(listings.status, ['active', 'sold', 'hidden']),
        visibleTo({ id: user.id, moderator: false }),
      ),
    )
    .orderBy(desc(listings.createdAt), desc(listings.id))
    .limit(CANDIDATES_MAX);
  const [own] = await listingsByIds(db, [conversation.listingId]);
  const courses = await coursesOf(db, own ? [own, ...rows] : rows);
  const ownCourses = new Set(own ? courses.get(own.id) : []);
  const candidates = rows.map((row) => {
    const reason = candidateReason(row, conversation.buyerId, now);
    const rowCourses = courses.get(row.id) ?? [];
    return {
      id: row.id,
      title: row.name,
      price: Number(row.regularPrice),
      courses: rowCourses,
      suggested: rowCourses.some((course) => ownCourses.has(course)),
      available: reason === null,
      reason,
    };
  });
  // A stable sort keeps the newest first within each group.
  return candidates.sort(
    (a, b) =>
      Number(b.suggested) - Number(a.suggested) || Number(b.available) - Number(a.available),
  );
}
