import { describe, expect, it } from 'vitest';
import { CONDITIONS } from './constants';
import * as display from './display';
import {
  CONDITION_OPTIONS,
  conditionColor,
  conditionLabel,
  courseLevelColor,
  courseNumberBadge,
  formatCount,
  formatPrice,
  isPending,
  majorText,
  schoolText,
} from './display';

describe('display rules (spec sections 2 and 9)', () => {
  it('formats prices with $, thousands separators and two decimals', () => {
    expect(formatPrice(0)).toBe('$0.00');
    expect(formatPrice(20)).toBe('$20.00');
    expect(formatPrice(1234567.5)).toBe('$1,234,567.50');
  });

  it('writes prices and counts exactly as toLocaleString("en-US") does', () => {
    const cents = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
    const amounts = [0, 0.01, 0.1, 0.29, 1, 9.99, 99.5, 100, 999.99, 1000, 12345.67, 999999.99];
    for (let i = 0; i < 2000; i++) amounts.push(Math.round(Math.random() * 1e9) / 100);
    for (const amount of [...amounts, ...amounts.filter((a) => a > 0).map((a) => -a)]) {
      expect(formatPrice(amount)).toBe(`$${amount.toLocaleString('en-US', cents)}`);
    }
    for (const n of [0, 1, 12, 123, 1234, 12345, 123456, 1234567, 10_000_000, -4321]) {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    }
  });

  it('labels and colours conditions, treating unknown values as poor', () => {
    expect(['mint', 'excellent', 'good', 'poor', 'weird'].map(conditionLabel)).toEqual([
      'New',
      'Excellent',
      'Good',
      'Poor',
      'Poor',
    ]);
    expect(['mint', 'excellent', 'good', 'poor', 'x'].map(conditionColor)).toEqual([
      'blue',
      'green',
      'yellow',
      'red',
      'red',
    ]);
  });

  it("offers every condition, in order, with the badge's own label (forms and filters use these)", () => {
    expect(CONDITION_OPTIONS).toEqual(
      CONDITIONS.map((value) => ({ value, label: conditionLabel(value) })),
    );
    expect(CONDITION_OPTIONS.map((o) => o.label)).toEqual(['New', 'Excellent', 'Good', 'Poor']);
  });

  it('shows the course number only when it is an integer, coloured by level', () => {
    expect(courseNumberBadge('221')).toBe('221');
    expect(courseNumberBadge('MATH 221')).toBe('N/A');
    expect(['150', '250', '350', '450', '550', 'abc'].map(courseLevelColor)).toEqual([
      'green',
      'yellow',
      'orange',
      'red',
      'grey',
      'grey',
    ]);
  });

  it('spaces out school words and falls back to N/A / Not Specified', () => {
    expect(schoolText('ArtScience')).toBe('Art Science');
    expect(schoolText('')).toBe('N/A');
    expect(majorText('')).toBe('Not Specified');
    expect(majorText('Computer Science')).toBe('Computer Science');
  });
});

describe('displayName', () => {
  it('capitalises the first letter of each word and keeps the rest as typed', () => {
    const { displayName } = display;
    expect(displayName('introduction to psychology')).toBe('Introduction To Psychology');
    expect(displayName('calculus: early (transcendentals) 8th ed')).toBe(
      'Calculus: Early (Transcendentals) 8th Ed',
    );
    expect(displayName('iOS basics')).toBe('IOS Basics');
    expect(displayName('')).toBe('');
    expect(displayName('"the" art of war, vol. 2')).toBe('"The" Art Of War, Vol. 2');
    // Markup and codes are not words: they read exactly as typed.
    expect(displayName('<img src=x onerror=alert(1)> notes')).toBe(
      '<img src=x onerror=alert(1)> Notes',
    );
  });
});

describe('editionLabel', () => {
  it('adds "edition" only where the edition does not already say so', () => {
    const { editionLabel } = display;
    expect(editionLabel('3rd')).toBe('3rd edition');
    expect(editionLabel('3')).toBe('3rd edition');
    expect(editionLabel('1')).toBe('1st edition');
    expect(editionLabel('2')).toBe('2nd edition');
    expect(editionLabel('11')).toBe('11th edition');
    expect(editionLabel('12')).toBe('12th edition');
    expect(editionLabel('22')).toBe('22nd edition');
    expect(editionLabel('Third')).toBe('Third edition');
    expect(editionLabel('Revised')).toBe('Revised edition');
    expect(editionLabel('3rd ed.')).toBe('3rd ed.');
    expect(editionLabel('3rd ed')).toBe('3rd ed');
    expect(editionLabel('3rd Ed.')).toBe('3rd Ed.');
    expect(editionLabel('2nd edn.')).toBe('2nd edn.');
    expect(editionLabel('Third Edition')).toBe('Third Edition');
    expect(editionLabel('2nd edition')).toBe('2nd edition');
    expect(editionLabel('International ed., 8th')).toBe('International ed., 8th');
    expect(editionLabel('  4th   ed. ')).toBe('4th ed.');
    // "ed" inside a word is not the abbreviation.
    expect(editionLabel('Illustrated')).toBe('Illustrated edition');
    expect(editionLabel('Expanded')).toBe('Expanded edition');
    expect(editionLabel('')).toBeNull();
    expect(editionLabel('   ')).toBeNull();
    expect(editionLabel(null)).toBeNull();
    expect(editionLabel(undefined)).toBeNull();
  });

  it('shows Pending for an active listing on hold, never for a sold or expired one', () => {
    const until = '2027-01-01T00:00:00.000Z';
    expect(isPending({ status: 'active', pendingUntil: until })).toBe(true);
    expect(isPending({ status: 'active', pendingUntil: null })).toBe(false);
    expect(isPending({ status: 'sold', pendingUntil: until })).toBe(false);
    expect(isPending({ status: 'expired', pendingUntil: until })).toBe(false);
  });
});

describe('asSentence', () => {
  it('ends a message with one full stop, never two', () => {
    expect(display.asSentence('You will get no more mails about your saved listings')).toBe(
      'You will get no more mails about your saved listings.',
    );
    expect(display.asSentence('Too many attempts. Try again in 1 minute.')).toBe(
      'Too many attempts. Try again in 1 minute.',
    );
    expect(display.asSentence('Done! ')).toBe('Done!');
    expect(display.asSentence('Really?')).toBe('Really?');
  });
});
