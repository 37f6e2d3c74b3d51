import {
  CONVERSATION_MESSAGES as M,
  type OfferFromListingInput,
} from '@campus-books/common/conversation.schemas';
import { OFFER_SET_MESSAGES as S, type BundleCandidate } from '@campus-books/common/offer-sets';
import type { ConversationEventRow, ConversationRow } from '../../db/conversations.schema';
import type { ListingRow, UserRow } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { findListingById } from '../listings/listings.repository';
import { isVisibleTo } from '../listings/listing-visibility';
import { isBlockedBetween } from './blocks.repository';
import {
  findConversationByListingAndBuyer,
  findConversationOf,
  findEventByClientId,
  insertEvent,
  insertMessageOnce,
  lockConversation,
  openConversation,
} from './conversations.repository';
import { assertWritable, type ConversationDeps } from './conversations.service';
import { bundleCandidates, checkSetListings, offerSetsOf, setRefusal } from './offer-sets';
import { insertOfferListings, replaceOpenOffer } from './offers.repository';

/**
 * One offer for several books made from a listing's page or its seller's profile (issue 44), before
 * the buyer wrote about it: the conversation about the listing is opened (or found), the buyer's
 * text and the offer for the set are posted in one transaction, once per client id.
 */

type Sent = { conversation: ConversationRow; event: ConversationEventRow };

/** The listing a buyer may offer for from its page: one they can see, not their own; else 404/403. */
async function listingOfSeller(
  deps: ConversationDeps,
  buyer: UserRow,
  listingId: string,
): Promise<ListingRow & { userId: string }> {
  const listing = await findListingById(deps.db, listingId);
  if (
    !listing ||
    !isVisibleTo(listing, { id: buyer.id, moderator: false }) ||
    listing.userId === null
  ) {
    throw notFound('Listing not found');
  }
  if (listing.userId === buyer.id) throw forbidden(M.ownListing);
  return listing as ListingRow & { userId: string };
}

/** The seller's other listings for a set made from this listing's page (as a conversation's). */
export async function listingBundleCandidates(
  deps: ConversationDeps,
  buyer: UserRow,
  listingId: string,
): Promise<BundleCandidate[]> {
  const listing = await listingOfSeller(deps, buyer, listingId);
  return bundleCandidates(
    deps.db,
    buyer,
    { sellerId: listing.userId, buyerId: buyer.id, listingId: listing.id },
    deps.now(),
  );
}

/**
 * A repeat of an offer already made with this client id answers the first; the same id used for
 * anything else (a message, another listing, amount or set) is refused.
 */
async function repeatOf(
  deps: ConversationDeps,
  buyer: UserRow,
  { clientId, listingId, amount, listingIds = [] }: OfferFromListingInput,
): Promise<Sent | undefined> {
  const event = await findEventByClientId(deps.db, buyer.id, clientId);
  if (!event) return undefined;
  const conversation = await findConversationOf(deps.db, event.conversationId, buyer.id);
  const same =
    conversation !== undefined &&
    event.kind === 'offer' &&
    event.offerId !== null &&
    conversation.listingId === listingId &&
    Number(event.amount) === amount &&
    ((await offerSetsOf(deps.db, conversation, [event.offerId])).get(event.offerId) ?? [])
      .map((book) => book.id)
      .join() === [listingId, ...listingIds].join();
  if (!same) throw conflict(M.clientIdReused);
  return { conversation, event };
}

/**
 * The buyer's offer for the listing and the seller's other listings named (each checked as a set's
 * book: the seller's, for sale and not held), up to their prices together. The conversation about
 * the listing is opened unless it exists (`beforeNew`, the hourly limit, runs only then); the text
 * goes first, then the offer, which closes an open one (as `countered`). Parallel copies make one
 * conversation and one offer: the unique index of conversations, then the conversation's lock,
 * under which a copy finds the first's offer and answers it.
 */
export async function offerFromListing(
  deps: ConversationDeps,
  buyer: UserRow,
  input: OfferFromListingInput,
  beforeNew: () => Promise<void>,
): Promise<Sent> {
  const repeat = await repeatOf(deps, buyer, input);
  if (repeat) return repeat;
  const { amount, listingIds = [], text, clientId } = input;
  const listing = await listingOfSeller(deps, buyer, input.listingId);
  const sellerId = listing.userId;
  const now = deps.now();
  const refusal = setRefusal(listing, buyer.id, now);
  if (refusal) throw refusal;
  const existing = await findConversationByListingAndBuyer(deps.db, listing.id, buyer.id);
  if (existing) await assertWritable(deps, existing);
  else if (await isBlockedBetween(deps.db, sellerId, buyer.id)) throw forbidden(M.blocked);
  const about = { sellerId, buyerId: buyer.id, listingId: listing.id };
  const others = await checkSetListings(deps.db, about, listingIds, now);
  const set = [listing, ...others];
  const price = set.reduce((sum, book) => sum + Number(book.regularPrice), 0);
  if (amount > price) throw badRequest(set.length > 1 ? S.aboveSetPrice : M.offerAbovePrice);
  if (!existing) await beforeNew();
  return deps.db.transaction(async (tx) => {
    const { conversation } = await openConversation(tx, {
      listingId: listing.id,
      listingName: listing.name,
      sellerId,
      buyerId: buyer.id,
    });
    await lockConversation(tx, conversation.id);
    // A copy that waited for the lock finds the first one's offer.
    const first = await findEventByClientId(tx, buyer.id, clientId);
    if (first) return { conversation, event: first };
    if (text) {
      await insertEvent(tx, {
        conversationId: conversation.id,
        kind: 'message',
        senderId: buyer.id,
        body: text,
      });
    }
    const offer = await replaceOpenOffer(tx, {
      conversationId: conversation.id,
      fromId: buyer.id,
      amount,
      now: deps.now(),
    });
    if (set.length > 1) {
      await insertOfferListings(
        tx,
        offer.id,
        set.map((book) => book.id),
      );
    }
    const { row: event } = await insertMessageOnce(tx, {
      conversationId: conversation.id,
      kind: 'offer',
      senderId: buyer.id,
      amount,
      offerId: offer.id,
      clientId,
    });
    return { conversation, event };
  });
}
