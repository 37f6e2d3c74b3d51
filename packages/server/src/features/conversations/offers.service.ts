import { CONVERSATION_MESSAGES as M } from '@campus-books/common/conversation.schemas';
import type { ConversationEventRow, ConversationRow } from '../../db/conversations.schema';
import type { ListingRow, UserRow } from '../../db/schema';
import { participantRole, roleOf } from '../../deal/deal';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import {
  endDueHolds,
  findListingById,
  holdListing,
  releaseListingHold,
} from '../listings/listings.repository';
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
import { decideOffer, findOffer, findOpenOffer, replaceOpenOffer } from './offers.repository';

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
 * The buyer offers whole dollars up to the listing's price; the seller counters an open offer of
 * the buyer's. A new offer closes the open one (as `countered`), under the conversation's lock.
 */
export async function makeOffer(
  deps: ConversationDeps,
  user: UserRow,
  conversationId: string,
  amount: number,
): Promise<Sent> {
  const conversation = await getParticipantConversation(deps, user, conversationId);
  await assertWritable(deps, conversation);
  const listing = await listingTakingOffers(deps, conversation);
  if (amount > Number(listing.regularPrice)) throw badRequest(M.offerAbovePrice);
  const isSeller = participantRole(user.id, conversation) === 'seller';
  return deps.db.transaction(async (tx) => {
    await lockConversation(tx, conversation.id);
    if (isSeller) {
      const open = await findOpenOffer(tx, conversation.id);
      if (!open || roleOf(open.fromId, conversation) !== 'buyer') {
        throw conflict(M.counterNeedsOffer);
      }
    }
    const now = deps.now();
    const offer = await replaceOpenOffer(tx, {
      conversationId: conversation.id,
      fromId: user.id,
      amount,
      now,
    });
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
 * The other side's open offer, answered once. Accepting puts the listing on hold for the buyer:
 * the offer's update and the listing's conditional hold are one transaction, so when another offer
 * already holds it (or it was sold meanwhile) nothing is written and the answer is 409.
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
  const listing = answer === 'accepted' ? await listingTakingOffers(deps, conversation) : null;
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    if (!(await decideOffer(tx, offer.id, answer, now))) throw conflict(M.offerNotOpen);
    if (listing) {
      const held = await holdListing(tx, listing.id, {
        buyerId: conversation.buyerId!,
        offerId: offer.id,
        until: new Date(now.getTime() + deps.config.holdMs),
        now,
      });
      if (!held) {
        const current = await findListingById(tx, listing.id);
        throw conflict(current?.status === 'active' ? M.alreadyHeld : M.listingClosed);
      }
    }
    const event = await insertEvent(tx, {
      conversationId: conversation.id,
      kind: answer === 'accepted' ? 'offer_accepted' : 'offer_declined',
      senderId: user.id,
      amount: offer.amount,
      offerId: offer.id,
    });
    if (listing) {
      await insertListingLine(tx, listing.id, 'pending', {
        conversationId: conversation.id,
        offerId: offer.id,
      });
    }
    return { conversation, event };
  });
}

/** The seller ends the hold before its time; every conversation about the listing is told. */
export async function releaseHold(deps: ConversationDeps, listing: ListingRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await releaseListingHold(tx, listing.id))) throw conflict(M.notHeld);
    await insertListingLine(tx, listing.id, 'hold_released');
  });
}

/** The hold job: ends every hold whose time is over, and tells each listing's conversations. */
export async function expireHolds(deps: ConversationDeps): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const ended = await endDueHolds(tx, deps.now());
    for (const listingId of ended) await insertListingLine(tx, listingId, 'hold_expired');
    return ended.length;
  });
}

/** "Sold to whom?": one of the students who wrote about the listing, or null ("someone else"). */
export async function checkBuyerOfListing(
  deps: ConversationDeps,
  listing: ListingRow,
  buyerId: string | null,
): Promise<void> {
  if (buyerId === null) return;
  const buyers = await findBuyersOfListing(deps.db, listing.id);
  if (!buyers.includes(buyerId)) throw badRequest(M.buyerNotInConversations);
}
