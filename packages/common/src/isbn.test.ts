import { describe, expect, it } from 'vitest';
import { looksLikeIsbn, parseIsbn, toIsbn13 } from './isbn';

describe('parseIsbn', () => {
  it.each([
    ['9780262033848', '9780262033848'],
    ['978-0-262-03384-8', '9780262033848'],
    ['978 0 262 03384 8', '9780262033848'],
    ['  9780262033848 ', '9780262033848'],
    ['0262033844', '9780262033848'],
    ['0-262-03384-4', '9780262033848'],
    ['0 262 03384 4', '9780262033848'],
    // ISBN-10 whose check digit is X (10), upper or lower case
    ['080442957X', '9780804429573'],
    ['0-8044-2957-x', '9780804429573'],
    ['979-10-90636-07-1', '9791090636071'],
    ['0306406152', '9780306406157'],
  ])('reads %s as %s', (text, isbn13) => {
    expect(parseIsbn(text)).toEqual({ ok: true, isbn13 });
    expect(toIsbn13(text)).toBe(isbn13);
  });

  it.each([
    ['9780262033849', 'checksum'],
    ['0262033845', 'checksum'],
    ['0804429579', 'checksum'],
    ['026203384X', 'checksum'],
    ['', 'format'],
    ['12345', 'format'],
    ['97802620338481', 'format'],
    ['X262033844', 'format'],
    ['97802620338X8', 'format'],
    // 13 digits not starting 978/979 are no ISBN (an EAN of something else)
    ['4006381333931', 'format'],
    ['978_0262033848', 'format'],
    ['calculus', 'format'],
  ])('refuses %s (%s)', (text, reason) => {
    expect(parseIsbn(text)).toEqual({ ok: false, reason });
    expect(toIsbn13(text)).toBeNull();
  });
});

describe('looksLikeIsbn', () => {
  it.each([
    ['978-0-262-03384-8', true],
    ['9780262033849', true],
    ['080442957x', true],
    ['calculus 2', false],
    ['101', false],
    ['ECON 101', false],
  ])('%s → %s', (text, expected) => {
    expect(looksLikeIsbn(text)).toBe(expected);
  });
});
