import { describe, expect, it } from 'vitest';
import { signUpSchema, profileUpdateSchema } from './account.schemas';
import { listingCreateSchema, listingSearchSchema } from './listing.schemas';
import { cleanText, hasVisibleText, stripInvisible, TEXT_MESSAGES } from './text';

const rules = { schoolEmailDomain: null, groupmeLinkPrefix: 'https://groupme.com/' };
const signUp = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@richmond.edu',
  password: 'Secret-123',
  groupmelink: 'https://groupme.com/x',
};
const listing = {
  name: 'Calculus',
  courseNumber: '101',
  regularPrice: 10,
  imageUrls: ['/api/image/x'],
};
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0]!.message;

describe('cleanText', () => {
  it('normalises to NFC and trims', () => {
    expect(cleanText().parse('  Cafe\u0301 ')).toBe('Café');
  });

  it.each([
    ['a line break', 'Ada\nEvil', TEXT_MESSAGES.control],
    ['a carriage return', 'Ada\rX', TEXT_MESSAGES.control],
    ['a NUL', 'Ada\u0000', TEXT_MESSAGES.control],
    ['an escape', 'Ada\u001b[31m', TEXT_MESSAGES.control],
    ['a C1 control', 'Ada\u0085', TEXT_MESSAGES.control],
    ['a right-to-left override', 'Ada\u202Egnp.exe', TEXT_MESSAGES.bidi],
    ['an isolate', 'Ada\u2067x', TEXT_MESSAGES.bidi],
  ])('refuses %s', (_, value, message) => {
    expect(firstMessage(cleanText().safeParse(value))).toBe(message);
  });

  it('keeps line breaks in multi-line text, but still refuses other controls', () => {
    expect(cleanText({ multiline: true }).parse('one\r\ntwo\tthree')).toBe('one\r\ntwo\tthree');
    expect(firstMessage(cleanText({ multiline: true }).safeParse('a\u0007b'))).toBe(
      TEXT_MESSAGES.control,
    );
  });

  it('treats zero-width-only text as empty', () => {
    expect(hasVisibleText('\u200B\u200C\u200D\u2060\uFEFF')).toBe(false);
    expect(hasVisibleText('a\u200B')).toBe(true);
    expect(
      firstMessage(cleanText({ required: 'Name is required' }).safeParse('\u200B\u200B')),
    ).toBe('Name is required');
  });
});

describe('account and listing schemas use it', () => {
  it.each([
    ['firstName', { firstName: '\u200B' }, 'First name is required'],
    ['lastName', { lastName: 'Evil\u202E' }, TEXT_MESSAGES.bidi],
    ['username', { username: 'a\nb' }, TEXT_MESSAGES.control],
  ])('sign-up refuses a bad %s', (_, change, message) => {
    expect(firstMessage(signUpSchema(rules).safeParse({ ...signUp, ...change }))).toBe(message);
  });

  it('sign-up stores names in NFC', () => {
    const parsed = signUpSchema(rules).parse({ ...signUp, firstName: 'Rene\u0301' });
    expect(parsed.firstName).toBe('René');
  });

  it('the profile refuses a control character or a zero-width-only username', () => {
    expect(firstMessage(profileUpdateSchema(rules).safeParse({ username: 'x\u0000' }))).toBe(
      TEXT_MESSAGES.control,
    );
    expect(firstMessage(profileUpdateSchema(rules).safeParse({ username: '\u200B' }))).toBe(
      'Username is required',
    );
    expect(profileUpdateSchema(rules).parse({ username: 'Jose\u0301' }).username).toBe('José');
  });

  it('listings refuse bad text and store it in NFC; the search term is NFC too', () => {
    const parse = (change: object) => listingCreateSchema.safeParse({ ...listing, ...change });
    expect(firstMessage(parse({ name: '\uFEFF' }))).toBe('Name is required');
    expect(firstMessage(parse({ name: 'Calc\u202Eulus' }))).toBe(TEXT_MESSAGES.bidi);
    expect(firstMessage(parse({ pickupLocation: 'Library\r\nX' }))).toBe(TEXT_MESSAGES.control);
    expect(firstMessage(parse({ description: 'ok\u001b' }))).toBe(TEXT_MESSAGES.control);
    const ok = listingCreateSchema.parse({
      ...listing,
      name: 'Cafe\u0301',
      description: 'line one\nline two e\u0301',
      pickupLocation: 'Cafe\u0301',
    });
    expect(ok).toMatchObject({
      name: 'Café',
      description: 'line one\nline two é',
      pickupLocation: 'Café',
    });
    expect(listingSearchSchema.parse({ searchTerm: 'cafe\u0301' }).searchTerm).toBe('café');
  });
});

describe('invisible characters', () => {
  it('are removed from text, so "Cal\\u200Bcu\\u200Dlus" is "Calculus"', () => {
    expect(cleanText().parse('Cal\u200Bcu\u200Dlus')).toBe('Calculus');
    expect(cleanText().parse('\uFEFFa\u2060b\u00ADc\u200Cd\u3164')).toBe('abcd');
    expect(stripInvisible('x\u{E0041}y')).toBe('xy');
  });

  it('keeps the joiner inside an emoji, and the emoji variation selector', () => {
    expect(cleanText().parse('\u{1F469}\u200D\u{1F393} grad')).toBe(
      '\u{1F469}\u200D\u{1F393} grad',
    );
    expect(cleanText().parse('\u2764\uFE0F')).toBe('\u2764\uFE0F');
  });

  it('count for nothing in the length, and text made only of them is empty', () => {
    expect(cleanText().max(3).safeParse('ab\u200B\u200B\u200Bc').success).toBe(true);
    expect(firstMessage(cleanText({ required: 'Say it' }).safeParse('\u3164\u115F\u00AD'))).toBe(
      'Say it',
    );
  });
});
