import { describe, expect, it } from 'vitest';
import { confirmedAgo, relativeTextChangesAt, timeAgo } from './relative-time';

describe('timeAgo', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('says how long ago a listing was made, as students say it', () => {
    expect(timeAgo('2026-11-23T11:59:40Z', now)).toBe('just now');
    expect(timeAgo('2026-11-23T11:55:00Z', now)).toBe('5 minutes ago');
    expect(timeAgo('2026-11-23T09:00:00Z', now)).toBe('3 hours ago');
    expect(timeAgo('2026-11-22T10:00:00Z', now)).toBe('yesterday');
    expect(timeAgo('2026-11-21T10:00:00Z', now)).toBe('2 days ago');
    expect(timeAgo('2026-11-02T10:00:00Z', now)).toBe('3 weeks ago');
    expect(timeAgo('2026-08-01T10:00:00Z', now)).toBe('3 months ago');
    expect(timeAgo('2027-01-01T10:00:00Z', now)).toBe('just now');
  });
});

describe('timeAgo against Intl.RelativeTimeFormat', () => {
  it('says every count of every unit as the platform formatter says it in English', () => {
    const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
    const now = Date.parse('2026-11-23T12:00:00Z');
    const units = [
      ['minute', 60],
      ['hour', 3600],
      ['day', 24 * 3600],
      ['week', 7 * 24 * 3600],
      ['month', 30 * 24 * 3600],
      ['year', 365 * 24 * 3600],
    ] as const;
    for (const [unit, size] of units) {
      for (const count of [1, 2, 3, 5, 11, 21]) {
        const seconds = count * size;
        // Only the counts that this unit is used for (a larger unit takes over past its size).
        const larger = units.find(([, s]) => s > size);
        if (larger && seconds >= larger[1]) continue;
        const iso = new Date(now - seconds * 1000).toISOString();
        expect(timeAgo(iso, now)).toBe(rtf.format(-count, unit));
      }
    }
  });
});

describe('relativeTextChangesAt', () => {
  const day = 24 * 3600 * 1000;
  const base = Date.parse('2026-11-23T12:00:00Z');

  it('is when "5 minutes ago" becomes "6 minutes ago", and "yesterday" "2 days ago"', () => {
    const iso = '2026-11-23T11:55:00Z';
    expect(relativeTextChangesAt(iso, base)).toBe(Date.parse('2026-11-23T12:01:00Z'));
    expect(relativeTextChangesAt('2026-11-22T10:00:00Z', base)).toBe(
      Date.parse('2026-11-24T10:00:00Z'),
    );
    expect(relativeTextChangesAt('not a date', base)).toBe(Infinity);
  });

  it('takes the daily count of "confirmed available" into account past a week', () => {
    // Three weeks and a half: "3 weeks ago" lasts days more, "confirmed … 24 days ago" one.
    const iso = new Date(base - 24.5 * day).toISOString();
    expect(relativeTextChangesAt(iso, base)).toBe(base + 0.5 * day);
  });

  it('holds every text until that moment, and one of them changes at it', () => {
    // A fixed walk of ages from seconds to years, and a tenth of them dates to come.
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 2_000; i++) {
      const age = Math.floor(Math.exp(next() * Math.log(3 * 365 * day))) - (i % 10 === 0 ? day : 0);
      const iso = new Date(base - age).toISOString();
      const at = relativeTextChangesAt(iso, base);
      const texts = (now: number) => `${timeAgo(iso, now)} | ${confirmedAgo(iso, now)}`;
      expect(at, iso).toBeGreaterThan(base);
      expect(texts(at - 1), iso).toBe(texts(base));
      expect(texts(at), iso).not.toBe(texts(base));
    }
  });
});
