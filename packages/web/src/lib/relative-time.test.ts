import { describe, expect, it } from 'vitest';
import { initials, timeAgo } from './relative-time';

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

describe('initials', () => {
  it('takes the first and last names first letters', () => {
    expect(initials('Maya P.')).toBe('MP');
    expect(initials('Demo Student')).toBe('DS');
    expect(initials('jordan')).toBe('J');
    expect(initials('')).toBe('?');
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
