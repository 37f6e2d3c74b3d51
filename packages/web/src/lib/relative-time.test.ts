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
