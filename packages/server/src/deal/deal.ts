import type { ConversationEventKind } from '@campus-books/common/conversation.schemas';
import type { ListingStatus } from '@campus-books/common/constants';

/**
 * The deal between a listing's seller and a buyer, stated once: who is which side, which events a
 * student wrote, what a listing's changes say in its conversations, when a sale is an exchange and
 * when its ratings show. Conversations, offers, ratings, meetups, push, the unread-message mails
 * and the data export ask these; the database's triggers are generated from them
 * (deal-triggers.ts).
 */

/** The two sides of a deal (a conversation, an exchange), each a column `<role>_id`. */
export const DEAL_ROLES = ['seller', 'buyer'] as const;
export type DealRole = (typeof DEAL_ROLES)[number];

/** A deal's two students; null for a deleted account. */
export interface DealParties {
  sellerId: string | null;
  buyerId: string | null;
}

/** Which side of the deal a student is; null for anyone else (the system, a deleted account). */
export function roleOf(userId: string | null, parties: DealParties): DealRole | null {
  if (userId === null) return null;
  if (userId === parties.sellerId) return 'seller';
  if (userId === parties.buyerId) return 'buyer';
  return null;
}

/** The side of a student known to take part (found by a query that asked so); throws otherwise. */
export function participantRole(userId: string, parties: DealParties): DealRole {
  const role = roleOf(userId, parties);
  if (role === null) throw new Error('not a participant of this deal');
  return role;
}

export const otherRole = (role: DealRole): DealRole => (role === 'seller' ? 'buyer' : 'seller');

/** The student on the other side of `role` (null: that account was deleted). */
export const partyOf = (role: DealRole, parties: DealParties): string | null =>
  role === 'seller' ? parties.sellerId : parties.buyerId;

/**
 * The events a student writes (they have an author, count as unread for the other side, are mailed
 * and pushed); every other kind is a system line.
 */
export const HUMAN_MESSAGE_KINDS = [
  'message',
  'offer',
  'offer_accepted',
  'offer_declined',
] as const satisfies readonly ConversationEventKind[];

export const isHumanKind = (kind: string): boolean =>
  (HUMAN_MESSAGE_KINDS as readonly string[]).includes(kind);

/** A listing is for sale (and may be held for a buyer by an accepted offer) only in this state. */
export const FOR_SALE: ListingStatus = 'active';
/** A listing in this state with a named buyer (`sold_to`) is an exchange its two students rate. */
export const SOLD: ListingStatus = 'sold';

/**
 * The hold (decisions/015, issue 44): an accepted offer keeps every book of its set for the buyer
 * until `holdUntilOf(now)`. A listing can be held only while for sale and not held; a hold whose
 * time is over counts as ended even before the hold job clears it. The books of one set share the
 * hold's offer (`hold_offer_id`) and time: they end together (expiry, the seller's release) and are
 * sold together to the buyer. The listings' repository only executes these transitions.
 */
export interface HoldState {
  status: ListingStatus;
  heldUntil: Date | null;
}

/** The listing is held at `now` (for whoever). */
export const isHeldAt = (listing: HoldState, now: Date): boolean =>
  listing.heldUntil !== null && listing.heldUntil.getTime() > now.getTime();

/** The listing may be put on hold at `now`: for sale and not held. */
export const isHoldable = (listing: HoldState, now: Date): boolean =>
  listing.status === FOR_SALE && !isHeldAt(listing, now);

/** When a hold made at `now` ends (HOLD_HOURS as `holdMs`). */
export const holdUntilOf = (now: Date, holdMs: number): Date => new Date(now.getTime() + holdMs);

/**
 * The order in which a set's listings are locked and held: by id, as the database sorts uuids, so
 * that accepts of overlapping sets racing each other never wait on one another in a cycle.
 */
export const holdOrder = (ids: readonly string[]): string[] => [...ids].sort();

/** The system line a listing's new status writes in each of its conversations. */
export const STATUS_LINES = {
  sold: 'sold',
  expired: 'expired',
  removed: 'removed',
} as const satisfies Partial<Record<ListingStatus, ConversationEventKind>>;
/** A listing for sale again after one of these states says so in its conversations. */
export const RELISTED_FROM = ['sold', 'expired'] as const satisfies readonly ListingStatus[];
export const RELISTED_LINE = 'relisted' satisfies ConversationEventKind;
/** The line of a changed price (its amount the new price). */
export const PRICE_LINE = 'price' satisfies ConversationEventKind;

/**
 * A rating shows (to the other student, on profiles, in exports) once both sides rated or
 * RATING_REVEAL_DAYS (`revealMs`) passed since the sale: nobody rates in answer to what they read.
 */
export const revealAtOf = (soldAt: Date | string, revealMs: number): Date =>
  new Date(new Date(soldAt).getTime() + revealMs);

/** Sales at or before this time have their ratings shown whoever rated (isRevealedSql's bound). */
export const revealedSoldBefore = (now: Date, revealMs: number): Date =>
  new Date(now.getTime() - revealMs);

export function isRevealed(exchange: {
  ratingsGiven: number;
  soldAt: Date | string;
  now: Date;
  revealMs: number;
}): boolean {
  return (
    exchange.ratingsGiven >= DEAL_ROLES.length ||
    exchange.now.getTime() >= revealAtOf(exchange.soldAt, exchange.revealMs).getTime()
  );
}
