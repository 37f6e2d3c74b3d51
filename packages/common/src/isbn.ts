/**
 * ISBNs as students type them: ISBN-10 or ISBN-13, with or without hyphens and spaces, an ISBN-10
 * possibly ending in X. Every ISBN is stored and compared as its 13 digits.
 */

/** What a text holding an ISBN reads as: its ISBN-13, or why it is not one. */
export type IsbnParse = { ok: true; isbn13: string } | { ok: false; reason: 'format' | 'checksum' };

export const ISBN_MESSAGES = {
  format: 'ISBN must be 10 or 13 digits (hyphens and spaces are fine; an ISBN-10 may end in X)',
  checksum: "That ISBN's check digit is wrong: check the number on the back cover",
} as const;

/** The text without its hyphens and spaces, upper-cased (so a final x reads as X). */
function compact(text: string): string {
  return text.replace(/[\s\u2010-\u2015-]/g, '').toUpperCase();
}

function isbn10CheckDigit(first9: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i += 1) sum += Number(first9[i]) * (10 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

function isbn13CheckDigit(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i += 1) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
}

/** Reads an ISBN-10 or ISBN-13 (hyphens and spaces allowed) and checks its check digit. */
export function parseIsbn(text: string): IsbnParse {
  const value = compact(text);
  if (/^\d{9}[\dX]$/.test(value)) {
    if (isbn10CheckDigit(value.slice(0, 9)) !== value[9]) return { ok: false, reason: 'checksum' };
    const first12 = `978${value.slice(0, 9)}`;
    return { ok: true, isbn13: first12 + isbn13CheckDigit(first12) };
  }
  if (/^97[89]\d{10}$/.test(value)) {
    if (isbn13CheckDigit(value.slice(0, 12)) !== value[12])
      return { ok: false, reason: 'checksum' };
    return { ok: true, isbn13: value };
  }
  return { ok: false, reason: 'format' };
}

/** The ISBN-13 of a text, or null when it is not a valid ISBN. */
export function toIsbn13(text: string): string | null {
  const parsed = parseIsbn(text);
  return parsed.ok ? parsed.isbn13 : null;
}

/**
 * Whether a search term looks like an ISBN the student meant to type (digits, hyphens, spaces, a
 * final X, 10 or 13 characters once compacted), valid or not.
 */
export function looksLikeIsbn(text: string): boolean {
  const value = compact(text);
  return /^\d{9}[\dX]$/.test(value) || /^\d{13}$/.test(value);
}
