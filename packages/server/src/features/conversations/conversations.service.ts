import {
  CONVERSATION_MESSAGES as M,
  type Conversation,
  type ConversationEvent,
  type ConversationSummary,
  type StartConversationInput,
} from '@campus-books/common/conversation.schemas';
import { messagePhotos } from '@campus-books/common/message-photos';
import type { OfferListing } from '@campus-books/common/offer-sets';
import type { ConversationsConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type {
  ConversationEventRow,
  ConversationRow,
  OfferRow,
} from '../../db/conversations.schema';
import type { UserRow } from '../../db/schema';
import { isHumanKind, roleOf } from '../../deal/deal';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { claimMessagePhotos } from '../images/images.service';
import { findListingById } from '../listings/listings.repository';
import { isBlockedBetween } from './blocks.repository';
import {
  countUnread,
  findConversationByListingAndBuyer,
  findConversationOf,
  findEvents,
  findInbox,
  insertEvent,
  insertMessageOnce,
  markRead,
  openConversation,
  type InboxRow,
} from './conversations.repository';
import { offerListingsOf, setsOfEvents } from './offer-sets';
import { findOpenOffer } from './offers.repository';

/** What the conversation rules need: the database, the clock, and the feature's settings. */
export interface ConversationDeps {
  db: Db;
  now: () => Date;
  config: ConversationsConfig;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** An event as the API answers it, seen from the conversation's participants. */
export function toEvent(
  row: Omit<ConversationEventRow, 'clientId'>,
  conversation: Pick<ConversationRow, 'sellerId' | 'buyerId'>,
  listings: OfferListing[] = [],
): ConversationEvent {
  const author = roleOf(row.senderId, conversation);
  return {
    id: row.id,
    conversationId: row.conversationId,
    kind: row.kind,
    author,
    deletedAuthor: row.senderId === null && isHumanKind(row.kind),
    body: row.body,
    amount: row.amount === null ? null : Number(row.amount),
    offerId: row.offerId,
    // A deleted account's photos are deleted with it.
    photos: row.senderId === null ? [] : messagePhotos(row.conversationId, row.photoIds),
    listings,
    createdAt: row.createdAt.toISOString(),
  };
}

function toSummary(row: InboxRow): ConversationSummary {
  return {
    id: row.id,
    role: row.role,
    listing: {
      id: row.listing_id,
      name: row.listing_name,
      price: row.price === null ? null : Number(row.price),
      cover: row.cover,
      status: row.status,
      pendingUntil: row.held_until === null ? null : iso(row.held_until),
      available: row.available,
    },
    other: { id: row.other_id, username: row.other_username },
    lastEventId: Number(row.last_event_id),
    lastEventAt: iso(row.last_event_at),
    lastEvent: row.last_kind
      ? {
          kind: row.last_kind,
          author: row.last_author,
          preview: row.last_body,
          amount: row.last_amount === null ? null : Number(row.last_amount),
        }
      : null,
    openOffer:
      row.open_offer_amount === null
        ? null
        : { amount: Number(row.open_offer_amount), from: row.open_offer_from },
    unread: row.unread,
    seenUpTo: row.seen_up_to === null ? null : Number(row.seen_up_to),
    seenAt: row.seen_at === null ? null : iso(row.seen_at),
  };
}

export function toOffer(
  offer: OfferRow,
  conversation: ConversationRow,
  listings: OfferListing[] = [],
) {
  return {
    id: offer.id,
    from: roleOf(offer.fromId, conversation),
    amount: offer.amount,
    status: offer.status,
    listings,
    createdAt: offer.createdAt.toISOString(),
  };
}

/** The conversation when the user takes part in it; 404 otherwise (never "it exists"). */
export async function getParticipantConversation(
  deps: ConversationDeps,
  user: UserRow,
  id: string,
): Promise<ConversationRow> {
  const conversation = await findConversationOf(deps.db, id, user.id);
  if (!conversation) throw notFound(M.conversationNotFound);
  return conversation;
}

/** Nobody writes once a side is deleted or either blocked the other. */
export async function assertWritable(
  deps: ConversationDeps,
  conversation: ConversationRow,
): Promise<void> {
  const { sellerId, buyerId } = conversation;
  if (sellerId === null || buyerId === null) throw conflict(M.deletedAccount);
  if (await isBlockedBetween(deps.db, sellerId, buyerId)) throw forbidden(M.blocked);
}

/**
 * The first message about a listing opens the buyer's conversation with its seller; a later one goes
 * to the same conversation. `beforeNew` runs (the hourly limit) only when none exists yet.
 */
export async function startConversation(
  deps: ConversationDeps,
  buyer: UserRow,
  input: StartConversationInput,
  beforeNew: () => Promise<void>,
): Promise<{ conversation: ConversationRow; event: ConversationEventRow }> {
  const listing = await findListingById(deps.db, input.listingId);
  if (!listing || listing.status === 'hidden' || listing.status === 'removed') {
    throw notFound('Listing not found');
  }
  if (listing.userId === buyer.id) throw forbidden(M.ownListing);
  const existing = await findConversationByListingAndBuyer(deps.db, listing.id, buyer.id);
  if (existing) {
    await assertWritable(deps, existing);
    return {
      conversation: existing,
      event: await insertMessage(deps.db, existing, buyer, input),
    };
  }
  // (No seller: a listing kept for the moderators after its seller deleted their account.)
  const sellerId = listing.userId;
  if (listing.status !== 'active' || sellerId === null) throw conflict(M.listingGone);
  if (await isBlockedBetween(deps.db, sellerId, buyer.id)) throw forbidden(M.blocked);
  await beforeNew();
  return deps.db.transaction(async (tx) => {
    const { conversation } = await openConversation(tx, {
      listingId: listing.id,
      listingName: listing.name,
      sellerId,
      buyerId: buyer.id,
    });
    // Its photos are claimed in this transaction too: a refused photo opens no conversation.
    const event = await insertMessage(tx, conversation, buyer, input);
    return { conversation, event };
  });
}

/**
 * What a student sends: the text (none, stored as "", beside photos only), the device's id for it,
 * the ids of their uploads as photos.
 */
type MessageInput = {
  text?: string | undefined;
  clientId?: string | undefined;
  photos?: string[] | undefined;
};

/**
 * A student's message; with a client id, once (a double tap or a retry answers the first). A
 * client id already used for another text, photos or conversation is refused rather than answered.
 * Photos are attached in the message's transaction, by the send that wrote it: a refused photo
 * writes neither, and a repeat answers the first send without attaching them again.
 */
async function insertMessage(
  db: Db,
  conversation: ConversationRow,
  sender: UserRow,
  message: MessageInput,
): Promise<ConversationEventRow> {
  const photos = message.photos ?? [];
  if (photos.length === 0) return (await insertMessageRow(db, conversation, sender, message)).row;
  return db.transaction(async (tx) => {
    const { row, created } = await insertMessageRow(tx, conversation, sender, message);
    if (created) await claimMessagePhotos(tx, sender.id, photos);
    return row;
  });
}

async function insertMessageRow(
  db: Db,
  conversation: ConversationRow,
  sender: UserRow,
  { text = '', clientId, photos = [] }: MessageInput,
): Promise<{ row: ConversationEventRow; created: boolean }> {
  const event = {
    conversationId: conversation.id,
    kind: 'message' as const,
    body: text,
    photoIds: photos,
  };
  if (clientId === undefined) {
    return { row: await insertEvent(db, { ...event, senderId: sender.id }), created: true };
  }
  const once = await insertMessageOnce(db, { ...event, senderId: sender.id, clientId });
  const { row } = once;
  if (
    row.conversationId !== conversation.id ||
    row.body !== text ||
    row.photoIds.join() !== photos.join()
  ) {
    throw conflict(M.clientIdReused);
  }
  return once;
}

export async function sendMessage(
  deps: ConversationDeps,
  sender: UserRow,
  conversationId: string,
  message: MessageInput,
): Promise<{ conversation: ConversationRow; event: ConversationEventRow }> {
  const conversation = await getParticipantConversation(deps, sender, conversationId);
  await assertWritable(deps, conversation);
  return { conversation, event: await insertMessage(deps.db, conversation, sender, message) };
}

export async function listConversations(
  deps: ConversationDeps,
  user: UserRow,
  listingId?: string,
): Promise<ConversationSummary[]> {
  const rows = await findInbox(deps.db, user.id, { listingId });
  return rows.map(toSummary);
}

export function unreadCount(deps: ConversationDeps, user: UserRow): Promise<number> {
  return countUnread(deps.db, user.id);
}

export async function readConversation(
  deps: ConversationDeps,
  user: UserRow,
  id: string,
  upTo: number,
): Promise<void> {
  const conversation = await getParticipantConversation(deps, user, id);
  await markRead(deps.db, conversation, user.id, upTo, deps.now());
}

/** The whole thread as its participant sees it (opening it does not mark it read: the client says). */
export async function getConversation(
  deps: ConversationDeps,
  user: UserRow,
  id: string,
): Promise<Conversation> {
  const conversation = await getParticipantConversation(deps, user, id);
  const [summary] = (await findInbox(deps.db, user.id, { conversationId: conversation.id })).map(
    toSummary,
  );
  const events = await findEvents(deps.db, conversation.id, user.id);
  const sets = await setsOfEvents(deps.db, conversation, events);
  const openOffer = await findOpenOffer(deps.db, conversation.id);
  const listing = conversation.listingId
    ? await findListingById(deps.db, conversation.listingId)
    : undefined;
  const now = deps.now();
  const heldForThisBuyer =
    !!listing &&
    listing.heldFor !== null &&
    roleOf(listing.heldFor, conversation) === 'buyer' &&
    (listing.heldUntil?.getTime() ?? 0) > now.getTime();
  let readOnly = conversation.sellerId === null || conversation.buyerId === null;
  if (!readOnly) {
    readOnly = await isBlockedBetween(deps.db, conversation.sellerId!, conversation.buyerId!);
  }
  return {
    ...summary!,
    events: events.map((e, i) => toEvent(e, conversation, sets[i])),
    openOffer: openOffer
      ? toOffer(openOffer, conversation, await offerListingsOf(deps.db, conversation, openOffer.id))
      : null,
    heldForThisBuyer,
    readOnly,
  };
}
