import { formatPrice } from './display';

/**
 * The first messages a listing's page offers a buyer in one tap: the text opens in the message box,
 * ready to send or edit. `{price}` stands for the listing's price, which the student edits into
 * their offer.
 */
export const FIRST_MESSAGES = [
  'Is this still available?',
  'Would you take {price}?',
  'When could we meet?',
] as const;

/** A first message with the listing's price in place of `{price}`. */
export function firstMessageText(template: string, price: number | null): string {
  return template.replace('{price}', price === null ? '$…' : formatPrice(price));
}
