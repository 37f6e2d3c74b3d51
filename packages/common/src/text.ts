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
// Characters that show nothing: whitespace, zero-width ones, the BOM, the soft hyphen.
const INVISIBLE = /[\s\u200B-\u200D\u2060\uFEFF\u00AD\u180E]/gu;

/** False for text made only of whitespace and zero-width characters. */
export function hasVisibleText(text: string): boolean {
  return text.replace(INVISIBLE, '').length > 0;
}

/**
 * The one rule for user text that is stored or searched (names, usernames, listing text, the
 * search term): trimmed, Unicode NFC (so a decomposed "é" equals a composed one), no control or
 * text-direction characters, and, when `required`, something visible. Chain `.min`/`.max` after.
 */
export function cleanText(
  options: { error?: string; required?: string; multiline?: boolean } = {},
) {
  const control = options.multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE;
  let schema = z
    .string(options.error ? { error: options.error } : undefined)
    .trim()
    .normalize('NFC');
  if (options.required) {
    schema = schema.refine(hasVisibleText, { error: options.required, abort: true });
  }
  return schema
    .refine((text) => !control.test(text), TEXT_MESSAGES.control)
    .refine((text) => !BIDI.test(text), TEXT_MESSAGES.bidi);
}
