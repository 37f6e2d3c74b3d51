import type { Conversation, ConversationEvent } from '@campus-books/common/conversation.schemas';
import { formatPrice } from '@campus-books/common/display';

/** Whole dollars, as offers are made: "$45". */
export const dollars = (amount: number | null) =>
  amount === null ? '' : formatPrice(amount).replace(/\.00$/, '');

/** Who did it, seen from the reader: "You", the other student's name, or "A deleted account". */
export function actorName(event: ConversationEvent, conversation: Conversation): string {
  if (event.deletedAuthor) return 'A deleted account';
  if (event.author === conversation.role) return 'You';
  return conversation.other.username ?? 'A deleted account';
}

/** The sentence of an event that is not a message: an offer and its answer, or the listing's change. */
export function systemLine(event: ConversationEvent, conversation: Conversation): string {
  const who = actorName(event, conversation);
  const amount = dollars(event.amount);
  switch (event.kind) {
    case 'offer':
      return event.author === 'seller'
        ? `${who} countered with ${amount}`
        : `${who} offered ${amount}`;
    case 'offer_accepted':
      return `${who} accepted the offer of ${amount}`;
    case 'offer_declined':
      return `${who} declined the offer of ${amount}`;
    case 'pending':
      return 'The listing is now Pending: on hold for the buyer';
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
