import { z } from 'zod';

/** Messages of the text rule, shown by the forms and the API alike. */
export const TEXT_MESSAGES = {
  control: 'Must not contain line breaks or control characters',
  bidi: 'Must not contain text-direction characters (such as U+202E)',
} as const;

// C0 and C1 controls and DEL; tab, LF and CR are allowed in multi-line text only. Matching
// control characters is the point of these two patterns.
// eslint-disable-next-line no-control-regex
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
// eslint-disable-next-line no-control-regex
const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// Bidi embeddings, overrides and isolates, and the invisible direction marks.
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
/**
 * Characters that show nothing and mean nothing to a reader or to the search: Unicode's default
 * ignorables (zero-width space and joiners, word joiner, the BOM, the soft hyphen, Hangul fillers,
 * tag characters…), except the direction marks (refused above, never hidden) and the variation
 * selectors (U+FE0F picks an emoji's look). A zero-width joiner between two emoji is
 * kept: it builds one emoji (👩‍🎓) and splits no word.
 */
const IGNORABLE =
  /(?![\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|\p{Variation_Selector})\p{Default_Ignorable_Code_Point}/gu;
/** An emoji, maybe with its presentation selector or a skin tone, just before a joiner. */
const EMOJI_BEFORE = /\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/** The text without its invisible characters ("Cal\u200Bculus" is "Calculus"). */
export function stripInvisible(text: string): string {
  return text.replace(IGNORABLE, (char: string, offset: number) =>
    char === '\u200D' &&
    EMOJI_BEFORE.test(text.slice(Math.max(0, offset - 4), offset)) &&
    EMOJI_AFTER.test(text.slice(offset + 1))
      ? char
      : '',
  );
}

/** False for text made only of whitespace and invisible characters. */
export function hasVisibleText(text: string): boolean {
  return stripInvisible(text).trim().length > 0;
}

/**
 * The one rule for user text that is stored or searched (names, usernames, listing text, alert and
 * search terms, course numbers…): Unicode NFC (so a decomposed "é" equals a composed one), invisible
 * characters removed (so "Cal\u200Bculus" is stored and searched as "Calculus"), trimmed, no control
 * or text-direction characters, and, when `required`, something visible. Chain `.min`/`.max` after
 * (they count what is kept).
 */
export function cleanText(
  options: { error?: string; required?: string; multiline?: boolean } = {},
) {
  const control = options.multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE;
  let schema = z
    .string(options.error ? { error: options.error } : undefined)
    .normalize('NFC')
    .overwrite(stripInvisible)
    .trim();
  if (options.required) {
    schema = schema.refine(hasVisibleText, { error: options.required, abort: true });
  }
  return schema
    .refine((text) => !control.test(text), TEXT_MESSAGES.control)
    .refine((text) => !BIDI.test(text), TEXT_MESSAGES.bidi);
}

/**
 * A link (an image, an avatar, a GroupMe link): printable ASCII only, as a URL is written (anything
 * else is percent-encoded), so no invisible, text-direction or control character hides in it.
 */
export function isLinkText(text: string): boolean {
  return /^[\x20-\x7E]*$/.test(text);
}
