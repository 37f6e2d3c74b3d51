import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as account from './account.schemas';
import * as listing from './listing.schemas';
import { MESSAGES } from './messages';

/** The validator's own wording, which must never reach a person. */
const DEFAULT_PHRASES = ['Invalid input', 'expected', 'Too big', 'Too small', 'received'];

const RULES = { schoolEmailDomain: null, groupmeLinkPrefix: 'https://groupme.com/' };

/** Every exported schema (factories called with the default rules). */
function exportedSchemas(): [string, z.ZodType][] {
  const found: [string, z.ZodType][] = [];
  for (const [name, value] of Object.entries({ ...account, ...listing })) {
    if (value && typeof value === 'object' && 'safeParse' in value) {
      found.push([name, value as z.ZodType]);
    } else if (typeof value === 'function' && name.endsWith('Schema')) {
      found.push([name, (value as (rules: typeof RULES) => z.ZodType)(RULES)]);
    }
  }
  return found;
}

const LONG = 'x'.repeat(5000);
/** Failing values of every kind: too long, too short, wrong type, null, missing, bad format. */
const BAD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  '   ',
  LONG,
  -1,
  1e12,
  12.345,
  Number.NaN,
  true,
  {},
  [],
  [LONG],
  Array.from({ length: 10 }, () => 'javascript:x'),
  'not-a-value',
];

/** The keys an object schema reads, plus one it does not know. */
function keysOf(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return [...Object.keys(shape ?? {}), 'unknownField'];
}

function messagesFor(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('every validation message is written copy', () => {
  const schemas = exportedSchemas();

  it('finds the shared schemas', () => {
    expect(schemas.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'listingCreateSchema',
        'listingUpdateSchema',
        'listingSearchSchema',
        'signUpSchema',
        'signInSchema',
        'profileUpdateSchema',
        'imageUrlSchema',
      ]),
    );
  });

  it.each(schemas)('%s: no default validator phrase for any failing input', (_name, schema) => {
    const seen: string[] = [];
    const inputs: unknown[] = [...BAD_VALUES];
    for (const key of keysOf(schema)) {
      for (const value of BAD_VALUES) inputs.push({ [key]: value });
    }
    for (const input of inputs) seen.push(...messagesFor(schema, input));
    expect(seen.length).toBeGreaterThan(0);
    const raw = seen.filter((message) => DEFAULT_PHRASES.some((p) => message.includes(p)));
    expect([...new Set(raw)]).toEqual([]);
  });
});

describe('listing rules', () => {
  const valid = {
    name: 'calculus',
    courseNumber: '211',
    regularPrice: 20,
    imageUrls: ['/api/images/x/1280.webp'],
  };

  it('accepts a listing as the API answers it: pickupLocation null reads as empty', () => {
    const parsed = listing.listingUpdateSchema.parse({ ...valid, pickupLocation: null });
    expect(parsed.pickupLocation).toBeNull();
  });

  it('refuses a price with more than two decimals instead of rounding it', () => {
    expect(messagesFor(listing.listingCreateSchema, { ...valid, regularPrice: 12.345 })).toEqual([
      MESSAGES.priceCents,
    ]);
    expect(listing.listingCreateSchema.parse({ ...valid, regularPrice: 19.99 }).regularPrice).toBe(
      19.99,
    );
  });

  it('applies the discount rule on update only (spec section 5)', () => {
    const discounted = { ...valid, regularPrice: 5, discountPrice: 6 };
    expect(listing.listingCreateSchema.safeParse(discounted).success).toBe(true);
    expect(messagesFor(listing.listingUpdateSchema, discounted)).toEqual([
      MESSAGES.discountAboveRegular,
    ]);
  });
});
