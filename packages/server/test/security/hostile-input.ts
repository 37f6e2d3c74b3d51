import fc from 'fast-check';

/** Strings that have broken parsers, number coercions, databases and renderers before. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-0',
  '0x10',
  '9'.repeat(400),
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '__proto__',
  'constructor',
  'prototype',
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  "'||pg_sleep(3)||'",
  '%',
  '_',
  '\\',
  '../../etc/passwd',
  '<script>window.__xss()</script>',
  'javascript:alert(1)',
  '\u202Eevil',
  'x'.repeat(5000),
];

const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const number = fc.oneof(
  fc.integer(),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1 + 0.2, -1, 1e-300),
  fc.double(),
);

const scalar = fc.oneof(hostileString, number, fc.boolean(), fc.constant(null));

/** Field names of the contract, plus the ones a mass-assignment attack tries. */
export const INTERESTING_KEYS = [
  '_id',
  'id',
  'userRef',
  'userId',
  'status',
  'createdAt',
  'updatedAt',
  'emailVerified',
  'emailVerifiedAt',
  'passwordHash',
  'password_hash',
  'constructor',
  'prototype',
  'name',
  'email',
  'password',
  'groupmelink',
  'imageUrls',
  'regularPrice',
  'discountPrice',
  'courseNumber',
  'token',
];

const key = fc.oneof(fc.constantFrom(...INTERESTING_KEYS), fc.string({ maxLength: 12 }));

/** Any JSON value, small but possibly nested; objects may use any key. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** A valid body with fields removed, replaced by the wrong type, or added. */
export function mutatedBody(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const fields = Object.keys(valid);
  return fc
    .record({
      drop: fc.subarray(fields),
      set: fc.dictionary(fc.oneof(fc.constantFrom(...fields), key), jsonValue, { maxKeys: 3 }),
      scalarsAsArrays: fc.boolean(),
    })
    .map(({ drop, set, scalarsAsArrays }) => {
      const body: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(valid)) {
        if (!drop.includes(k)) body[k] = scalarsAsArrays && typeof v !== 'object' ? [v] : v;
      }
      return { ...body, ...set };
    });
}

/** A JSON request body for a route: anything at all, or a near miss of a valid one. */
export function bodyFor(valid: Record<string, unknown> | undefined): fc.Arbitrary<unknown> {
  return valid ? fc.oneof(jsonValue, mutatedBody(valid), mutatedBody(valid)) : jsonValue;
}

/** encodeURIComponent that also takes lone surrogates (sent as their raw UTF-8 bytes). */
export function encode(text: string): string {
  let out = '';
  for (const char of text) {
    try {
      out += encodeURIComponent(char);
    } catch {
      out += '%ED%A0%80';
    }
  }
  return out;
}

/** Query strings: unknown and known names, repeated names, hostile and malformed escapes. */
export const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('searchTerm', 'limit', 'startIndex', 'sort', 'condition', 'Jepson'),
        key,
      ),
      fc.oneof(hostileString.map(encode), fc.constantFrom('%', '%zz', '%E0%A4%A', '[]', '%00')),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${v}`).join('&'));

/** Path parameter values: hostile text, ids of nothing, and (where given) real ids. */
export function paramValue(realIds: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    hostileString,
    fc.uuid(),
    ...(realIds.length > 0 ? [fc.constantFrom(...realIds)] : []),
  );
}

/** Headers of the tus protocol with hostile values (the upload routes read headers, not JSON). */
export const tusHeaders = fc.record(
  {
    'tus-resumable': fc.constantFrom('1.0.0', '0.2.2', '', 'x'),
    'upload-length': fc.oneof(
      fc.constantFrom('-1', 'NaN', '1e309', '99999999999999999999', '0', '2097153', ''),
      fc.nat().map(String),
    ),
    'upload-offset': fc.oneof(fc.constantFrom('-1', 'NaN', '1e309', ''), fc.nat().map(String)),
    'upload-metadata': fc.oneof(
      hostileString.map((s) => encode(s)),
      fc.constantFrom('filename', 'filename !!!,filetype', 'a b c d', ',,,'),
    ),
    'upload-defer-length': fc.constantFrom('1', '0', 'x'),
  },
  { requiredKeys: [] },
);
