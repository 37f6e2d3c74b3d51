import { CONDITIONS, type Condition } from './constants';

// Numbers are written out here rather than by toLocaleString('en-US'): the first number formatter
// a page creates loads the locale's number data, ~20 ms of a phone's first screen. The tests compare
// the two.

/** Digits with US thousands separators: "1234567" → "1,234,567". */
const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ',');

/** A whole number as toLocaleString('en-US') writes it: 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return `${n < 0 ? '-' : ''}${groupThousands(String(Math.abs(Math.trunc(n))))}`;
}

/**
 * Spec section 2 (listing card): $ prefix, US thousands separators, two decimals. Prices are
 * dollars and cents (the schemas refuse more decimals).
 */
export function formatPrice(amount: number): string {
  const [whole, cents] = Math.abs(amount).toFixed(2).split('.') as [string, string];
  return `$${amount < 0 ? '-' : ''}${groupThousands(whole)}.${cents}`;
}

const CONDITION_LABELS: Record<Condition, string> = {
  mint: 'New',
  excellent: 'Excellent',
  good: 'Good',
  poor: 'Poor',
};

/** Condition badge label; any unknown value reads Poor (spec). */
export function conditionLabel(condition: string): string {
  return CONDITION_LABELS[condition as Condition] ?? 'Poor';
}

/**
 * Each condition with the label every page and mail shows for it, in the order forms and filters
 * offer them: the one source of the words (a form's choice reads as the card's badge).
 */
export const CONDITION_OPTIONS: readonly { value: Condition; label: string }[] = CONDITIONS.map(
  (value) => ({ value, label: CONDITION_LABELS[value] }),
);

export type BadgeColor = 'blue' | 'green' | 'yellow' | 'orange' | 'red' | 'grey';

/** Condition colours: mint blue, excellent green, good yellow, otherwise red. */
export function conditionColor(condition: string): BadgeColor {
  switch (condition) {
    case 'mint':
      return 'blue';
    case 'excellent':
      return 'green';
    case 'good':
      return 'yellow';
    default:
      return 'red';
  }
}

/** The course number if it parses as an integer, otherwise N/A. */
export function courseNumberBadge(courseNumber: string): string {
  return /^\s*\d+\s*$/.test(courseNumber) ? String(Number.parseInt(courseNumber, 10)) : 'N/A';
}

/** Course-level colours: 100s green, 200s yellow, 300s orange, 400s red, else grey. */
export function courseLevelColor(courseNumber: string): BadgeColor {
  if (!/^\s*\d+\s*$/.test(courseNumber)) return 'grey';
  const n = Number.parseInt(courseNumber, 10);
  if (n >= 100 && n < 200) return 'green';
  if (n >= 200 && n < 300) return 'yellow';
  if (n >= 300 && n < 400) return 'orange';
  if (n >= 400 && n < 500) return 'red';
  return 'grey';
}

/** School text with its words spaced out ('ArtScience' → 'Art Science'), or 'N/A'. */
export function schoolText(school: string | null | undefined): string {
  const text = (school ?? '').replace(/([a-z])([A-Z])/g, '$1 $2').trim();
  return text === '' ? 'N/A' : text;
}

export function majorText(major: string | null | undefined): string {
  return major && major.trim() !== '' ? major : 'Not Specified';
}

/** A word of a name: letters (then letters, digits, apostrophes, hyphens, dots), maybe in quotes or brackets. */
const NAME_WORD = /^([(["'“‘¿¡]*)(\p{L})([\p{L}\p{N}'’.-]*[)\]"'”’.,:;!?]*)$/u;

/**
 * A listing's name as people see it, everywhere (cards, pages, dialogs, link previews): the first
 * letter of each word capitalised, the rest as the seller typed it. Only words change: codes and
 * anything else with symbols in it ('x=1', '<b>') read exactly as typed.
 */
export function displayName(name: string): string {
  return name
    .split(/(\s+)/)
    .map((part) => {
      const word = NAME_WORD.exec(part);
      return word ? `${word[1]}${word[2]!.toLocaleUpperCase('en-US')}${word[3]}` : part;
    })
    .join('');
}

const ORDINAL_SUFFIX = (n: number) => {
  if (n % 100 >= 11 && n % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
};

/**
 * A book's edition as a listing shows it: "3rd" → "3rd edition", "3" → "3rd edition", while an
 * edition that already says so is shown as written ("3rd ed.", "Third Edition", "2nd edn"), never
 * "3rd ed. edition". Null when there is none.
 */
export function editionLabel(edition: string | null | undefined): string | null {
  const text = (edition ?? '').trim().replace(/\s+/g, ' ');
  if (text === '') return null;
  if (/^\d{1,3}$/.test(text)) {
    const n = Number(text);
    return `${n}${ORDINAL_SUFFIX(n)} edition`;
  }
  // Already named an edition: "ed", "ed.", "edn", "edition".
  if (/(^|[^\p{L}])(ed|edn|edition|editions)(\.|$|[^\p{L}])/iu.test(text)) return text;
  return `${text} edition`;
}

/**
 * "Pending": an active listing on hold for a buyer whose offer its seller accepted (issue 28). The
 * server clears `pendingUntil` when the hold ends (the seller, a sale, or the hold job), so no clock
 * is read here and a server-rendered page and its hydration agree.
 */
export function isPending(listing: { status: string; pendingUntil: string | null }): boolean {
  return listing.status === 'active' && listing.pendingUntil !== null;
}

/**
 * A message shown as a sentence of its own: a full stop added unless it already ends in one (or in
 * "!", "?" or "…"), so a page never shows "..". Server messages have no final stop (docs/api).
 */
export function asSentence(message: string): string {
  const text = message.trimEnd();
  return /[.!?…]$/u.test(text) ? text : `${text}.`;
}
