import { and, asc, eq, inArray } from 'drizzle-orm';
import type { OfferStatus } from '@campus-books/common/conversation.schemas';
import type { Db } from '../../db/database';
import { offerListings, offers, type OfferRow } from '../../db/conversations.schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one writer of `offers` and `offer_listings`. */

/** The conversation's open offer, if any (at most one: a unique partial index). */
export async function findOpenOffer(db: Db, conversationId: string): Promise<OfferRow | undefined> {
  const [row] = await db
    .select()
    .from(offers)
    .where(and(eq(offers.conversationId, conversationId), eq(offers.status, 'open')));
  return row;
}

export async function findOffer(
  db: Db,
  conversationId: string,
  offerId: string,
): Promise<OfferRow | undefined> {
  if (!UUID.test(offerId)) return undefined;
  const [row] = await db
    .select()
    .from(offers)
    .where(and(eq(offers.id, offerId), eq(offers.conversationId, conversationId)));
  return row;
}

/**
 * A new open offer; the one open before it (either side's) is closed as `countered` first. Run under
 * the conversation's lock: the unique index on open offers turns a race that slipped past into an
 * error rather than two open offers.
 */
export async function replaceOpenOffer(
  db: Db,
  values: { conversationId: string; fromId: string; amount: number; now: Date },
): Promise<OfferRow> {
  await db
    .update(offers)
    .set({ status: 'countered', decidedAt: values.now })
    .where(and(eq(offers.conversationId, values.conversationId), eq(offers.status, 'open')));
  const [row] = await db
    .insert(offers)
    .values({
      conversationId: values.conversationId,
      fromId: values.fromId,
      amount: values.amount,
      createdAt: values.now,
    })
    .returning();
  return row!;
}

/**
 * Answers an open offer (accepted or declined) once: the conditional update lets one of any number
 * of copies through; undefined for the others and for an offer answered before.
 */
export async function decideOffer(
  db: Db,
  offerId: string,
  status: Extract<OfferStatus, 'accepted' | 'declined'>,
  now: Date,
): Promise<OfferRow | undefined> {
  const [row] = await db
    .update(offers)
    .set({ status, decidedAt: now })
    .where(and(eq(offers.id, offerId), eq(offers.status, 'open')))
    .returning();
  return row;
}

/** The books of an offer for several, in their order (the conversation's listing first). */
export async function insertOfferListings(
  db: Db,
  offerId: string,
  listingIds: readonly string[],
): Promise<void> {
  if (listingIds.length === 0) return;
  await db
    .insert(offerListings)
    .values(listingIds.map((listingId, position) => ({ offerId, listingId, position })));
}

/** The books of these offers' sets, in order; an offer for one listing has none. */
export async function findOfferListings(
  db: Db,
  offerIds: readonly string[],
): Promise<{ offerId: string; listingId: string }[]> {
  if (offerIds.length === 0) return [];
  return db
    .select({ offerId: offerListings.offerId, listingId: offerListings.listingId })
    .from(offerListings)
    .where(inArray(offerListings.offerId, [...offerIds]))
    .orderBy(asc(offerListings.offerId), asc(offerListings.position));
}
