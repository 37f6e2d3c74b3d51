import {
  CONVERSATION_MESSAGES as M,
  type OfferInput,
} from '@campus-books/common/conversation.schemas';
import { OFFER_SET_MESSAGES as S } from '@campus-books/common/offer-sets';
import type { ConversationEventRow, ConversationRow } from '../../db/conversations.schema';
import type { ListingRow, UserRow } from '../../db/schema';
import { holdUntilOf, isHeldAt, participantRole, roleOf } from '../../deal/deal';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import {
  endDueHolds,
  findListingById,
  holdListings,
  releaseListingHold,
} from '../listings/listings.repository';
import { markListingSold, markListingsSold } from '../listings/listings.service';
import {
  findBuyersOfListing,
  insertEvent,
  insertListingLine,
  lockConversation,
} from './conversations.repository';
import {
  assertWritable,
  getParticipantConversation,
  type ConversationDeps,
} from './conversations.service';
import { checkSetListings, listingsByIds, offerSetsOf, setRefusal } from './offer-sets';
import {
  decideOffer,
  findOffer,
  findOpenOffer,
  insertOfferListings,
  replaceOpenOffer,
} from './offers.repository';

type Sent = { conversation: ConversationRow; event: ConversationEventRow };

/** The conversation's listing, if it can still take offers: active (held or not); else 409. */
async function listingTakingOffers(
  deps: ConversationDeps,
  conversation: ConversationRow,
): Promise<ListingRow> {
  const listing = conversation.listingId
    ? await findListingById(deps.db, conversation.listingId)
    : undefined;
  if (!listing || listing.status !== 'active') throw conflict(M.listingClosed);
  return listing;
}

/**
 * The buyer offers whole dollars up to the listing's price, or for a set (`listingIds`: other
 * listings of the same seller, each checked) up to the sum of its books' prices; the seller counters
 * an open offer of the buyer's, for the same set. A new offer closes the open one (as `countered`),
 * under the conversation's lock.
 */
export async function makeOffer(
  deps: ConversationDeps,
  user: UserRow,
  conversationId: string,
  { amount, listingIds = [] }: OfferInput,
): Promise<Sent> {
  const conversation = await getParticipantConversation(deps, user, conversationId);
  await assertWritable(deps, conversation);
  const listing = await listingTakingOffers(deps, conversation);
  const isSeller = participantRole(user.id, conversation) === 'seller';
  if (isSeller && listingIds.length > 0) throw badRequest(S.counterKeepsSet);
  if (!isSeller && listingIds.length === 0 && amount > Number(listing.regularPrice)) {
    throw badRequest(M.offerAbovePrice);
  }
  const others = await checkSetListings(deps.db, conversation, listingIds, deps.now());
  return deps.db.transaction(async (tx) => {
    await lockConversation(tx, conversation.id);
    let set = [listing, ...others];
    if (isSeller) {
      const open = await findOpenOffer(tx, conversation.id);
      if (!open || roleOf(open.fromId, conversation) !== 'buyer') {
        throw conflict(M.counterNeedsOffer);
      }
      set = (await offerSetsOf(tx, conversation, [open.id])).get(open.id) ?? set;
    }
    const price = set.reduce((sum, book) => sum + Number(book.regularPrice), 0);
    if (amount > price) throw badRequest(set.length > 1 ? S.aboveSetPrice : M.offerAbovePrice);
    const now = deps.now();
    const offer = await replaceOpenOffer(tx, {
      conversationId: conversation.id,
      fromId: user.id,
      amount,
      now,
    });
    if (set.length > 1) {
      await insertOfferListings(
        tx,
        offer.id,
        set.map((book) => book.id),
      );
    }
    const event = await insertEvent(tx, {
      conversationId: conversation.id,
      kind: 'offer',
      senderId: user.id,
      amount,
      offerId: offer.id,
    });
    return { conversation, event };
  });
}

/**
 * The other side's open offer, answered once. Accepting puts every book of the offer's set on hold
 * for the buyer: the offer's update and the conditional hold of the set are one transaction, so
 * when another offer already holds one of them (or it was sold meanwhile) nothing is written and
 * the answer is 409, naming the first book that could not be held.
 */
export async function answerOffer(
  deps: ConversationDeps,
  user: UserRow,
  conversationId: string,
  offerId: string,
  answer: 'accepted' | 'declined',
): Promise<Sent> {
  const conversation = await getParticipantConversation(deps, user, conversationId);
  await assertWritable(deps, conversation);
  const offer = await findOffer(deps.db, conversation.id, offerId);
  if (!offer) throw notFound('Offer not found');
  if (offer.fromId === user.id) throw forbidden(M.ownOffer);
  if (offer.status !== 'open') throw conflict(M.offerNotOpen);
  let set: ListingRow[] = [];
  if (answer === 'accepted') {
    await listingTakingOffers(deps, conversation);
    set = (await offerSetsOf(deps.db, conversation, [offer.id])).get(offer.id) ?? [];
  }
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    if (!(await decideOffer(tx, offer.id, answer, now))) throw conflict(M.offerNotOpen);
    if (set.length > 0) {
      const buyerId = conversation.buyerId!;
      const held = await holdListings(
        tx,
        set.map((book) => book.id),
        { buyerId, offerId: offer.id, until: holdUntilOf(now, deps.config.holdMs), now },
      );
      const missed = set.find((book) => !held.includes(book.id));
      if (missed) {
        const current = await findListingById(tx, missed.id);
        if (set.length === 1) {
          throw conflict(current?.status === 'active' ? M.alreadyHeld : M.listingClosed);
        }
        throw (current && setRefusal(current, buyerId, now)) ?? conflict(S.held(missed.name));
      }
    }
    const event = await insertEvent(tx, {
      conversationId: conversation.id,
      kind: answer === 'accepted' ? 'offer_accepted' : 'offer_declined',
      senderId: user.id,
      amount: offer.amount,
      offerId: offer.id,
    });
    for (const book of set) {
      await insertListingLine(tx, book.id, 'pending', {
        conversationId: conversation.id,
        offerId: offer.id,
      });
    }
    return { conversation, event };
  });
}

/**
 * The seller ends the hold before its time: the hold of every book of its set ends with it, and
 * every conversation about each of them is told.
 */
export async function releaseHold(deps: ConversationDeps, listing: ListingRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const released = await releaseListingHold(tx, listing.id);
    if (released.length === 0) throw conflict(M.notHeld);
    for (const id of released) await insertListingLine(tx, id, 'hold_released');
  });
}

/**
 * The hold job: ends every hold whose time is over (a set's books together, as they share their
 * time), and tells each listing's conversations.
 */
export async function expireHolds(deps: ConversationDeps): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const ended = await endDueHolds(tx, deps.now());
    for (const listingId of ended) await insertListingLine(tx, listingId, 'hold_expired');
    return ended.length;
  });
}

/**
 * "Sold" by the seller: a book held for the buyer named is sold with every book of its set, each to
 * that buyer (the deal's trigger records an exchange per book). Sold otherwise (to someone else),
 * the book goes alone and the rest of its set is released: a set is held whole or not at all.
 */
export async function sellListing(
  deps: ConversationDeps & { jobs: Parameters<typeof markListingSold>[0]['jobs'] },
  listing: ListingRow,
  buyerId: string | null,
): Promise<void> {
  const held = isHeldAt(listing, deps.now()) && listing.holdOfferId !== null;
  if (held && buyerId !== null && listing.heldFor === buyerId) {
    const set = await listingsByIds(deps.db, await heldWith(deps, listing));
    await markListingsSold(deps, set, buyerId);
    return;
  }
  if (held && (await heldWith(deps, listing)).length > 1) await releaseHold(deps, listing);
  await markListingSold(deps, listing, buyerId);
}

/** The listings held under the same accepted offer as `listing` (itself included). */
async function heldWith(deps: ConversationDeps, listing: ListingRow): Promise<string[]> {
  const sets = await offerSetsOf(
    deps.db,
    { sellerId: null, buyerId: null, listingId: listing.id },
    [listing.holdOfferId!],
  );
  const books = sets.get(listing.holdOfferId!) ?? [listing];
  return books.filter((book) => book.holdOfferId === listing.holdOfferId).map((book) => book.id);
}

/** "Sold to whom?": one of the students who wrote about the listing, or null ("someone else"). */
export async function checkBuyerOfListing(
  deps: ConversationDeps,
  listing: ListingRow,
  buyerId: string | null,
): Promise<void> {
  if (buyerId === null) return;
  if (isHeldAt(listing, deps.now()) && listing.heldFor === buyerId) return;
  const buyers = await findBuyersOfListing(deps.db, listing.id);
  if (!buyers.includes(buyerId)) throw badRequest(M.buyerNotInConversations);
}
