import { describe, expect, it } from 'vitest';
import { formatDays, formatMinutes } from './durations';

describe('lengths of time as texts state them', () => {
  it('says days with their plural', () => {
    expect(formatDays(1)).toBe('1 day');
    expect(formatDays(14)).toBe('14 days');
  });

  it('says minutes in hours and minutes, each only when there is some', () => {
    expect(formatMinutes(1)).toBe('1 minute');
    expect(formatMinutes(30)).toBe('30 minutes');
    expect(formatMinutes(60)).toBe('1 hour');
    expect(formatMinutes(61)).toBe('1 hour 1 minute');
    expect(formatMinutes(120)).toBe('2 hours');
    expect(formatMinutes(135)).toBe('2 hours 15 minutes');
  });
});
