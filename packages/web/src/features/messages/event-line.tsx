import type {
  ConversationEvent,
  ConversationSummary,
} from '@campus-books/common/conversation.schemas';
import { formatPrice } from '@campus-books/common/display';

/** Whole dollars, as offers are made: "$45". */
export const dollars = (amount: number | null) =>
  amount === null ? '' : formatPrice(amount).replace(/\.00$/, '');

/**
 * What a line needs of an event: the thread's events and the inbox's latest event alike (the inbox's
 * has no books: its line names none).
 */
type EventFacts = Pick<ConversationEvent, 'kind' | 'author' | 'deletedAuthor' | 'body' | 'amount'> &
  Partial<Pick<ConversationEvent, 'listings'>>;

/** " for 3 books" after an offer's amount when it is for several books, else nothing. */
export function booksOf(listings: readonly unknown[] | undefined): string {
  return listings && listings.length > 1 ? ` for ${listings.length} books` : '';
}
/** What a line needs of the conversation: the reader's side and the other student. */
type Sides = Pick<ConversationSummary, 'role' | 'other'>;

/** Who did it, seen from the reader: "You", the other student's name, or "A deleted account". */
export function actorName(event: EventFacts, conversation: Sides): string {
  if (event.deletedAuthor) return 'A deleted account';
  if (event.author === conversation.role) return 'You';
  return conversation.other.username ?? 'A deleted account';
}

/** The sentence of an event that is not a message: an offer and its answer, or the listing's change. */
export function systemLine(event: EventFacts, conversation: Sides): string {
  const who = actorName(event, conversation);
  const amount = dollars(event.amount);
  const books = booksOf(event.listings);
  switch (event.kind) {
    case 'offer':
      return event.author === 'seller'
        ? `${who} countered with ${amount}${books}`
        : `${who} offered ${amount}${books}`;
    case 'offer_accepted':
      return `${who} accepted the offer of ${amount}${books}`;
    case 'offer_declined':
      return `${who} declined the offer of ${amount}${books}`;
    case 'pending':
      return books
        ? `The books are now Pending: all ${event.listings!.length} on hold for the buyer`
        : 'The listing is now Pending: on hold for the buyer';
    case 'hold_released':
      return 'The seller released the hold: the listing is available again';
    case 'hold_expired':
      return 'The hold expired: the listing is available again';
    case 'price':
      return `The price changed to ${amount}`;
    case 'sold':
      return 'The listing was marked as sold';
    case 'relisted':
      return 'The listing is for sale again';
    case 'expired':
      return 'The listing expired';
    case 'removed':
      return 'The listing was removed by the moderators';
    case 'blocked':
      return 'This conversation is closed: neither of you can write here any more';
    case 'unblocked':
      return 'This conversation is open again';
    case 'message':
      return event.body ?? '';
  }
}

/**
 * The inbox line's latest event: "You: …" or "Maya: …" for a message (its first characters), the
 * sentence of anything else; null before anything the reader may read.
 */
export function latestLine(conversation: ConversationSummary): string | null {
  const last = conversation.lastEvent;
  if (!last) return null;
  const event = {
    ...last,
    body: last.preview,
    // Only a deleted account writes a message without an author.
    deletedAuthor: last.author === null && last.kind === 'message',
  };
  if (last.kind === 'message') return `${actorName(event, conversation)}: ${last.preview ?? ''}`;
  return systemLine(event, conversation);
}
