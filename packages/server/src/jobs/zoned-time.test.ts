import { describe, expect, it } from 'vitest';
import {
  campusDateTime,
  endOfZonedDay,
  isTimeZone,
  nextDailyHour,
  parseCalendarDate,
  zonedHour,
} from './zoned-time';

const NY = 'America/New_York';
const at = (iso: string) => new Date(iso);

describe('hours of a time zone (the daily digest schedule)', () => {
  it('finds the next 07:00 in New York, today or tomorrow', () => {
    expect(nextDailyHour(NY, 7, at('2027-01-10T11:59:59Z')).toISOString()).toBe(
      '2027-01-10T12:00:00.000Z',
    );
    expect(nextDailyHour(NY, 7, at('2027-01-10T12:00:00Z')).toISOString()).toBe(
      '2027-01-11T12:00:00.000Z',
    );
    // 23:30 on 31 December in New York is already the new year in UTC.
    expect(nextDailyHour(NY, 7, at('2028-01-01T04:30:00Z')).toISOString()).toBe(
      '2028-01-01T12:00:00.000Z',
    );
  });

  it('keeps the hour across a change to summer time and back (days of 23 and 25 hours)', () => {
    // Summer time starts on 14 March 2027 (02:00 → 03:00).
    expect(nextDailyHour(NY, 7, at('2027-03-13T12:00:00Z')).toISOString()).toBe(
      '2027-03-14T11:00:00.000Z',
    );
    // And ends on 7 November 2027 (02:00 → 01:00).
    expect(nextDailyHour(NY, 7, at('2027-11-06T11:00:00Z')).toISOString()).toBe(
      '2027-11-07T12:00:00.000Z',
    );
  });

  it('runs a daily job in a skipped hour once, after the gap, and in a repeated hour once', () => {
    // 02:00 does not happen on 14 March 2027 in New York: that day's slot is 03:00 EDT, the next
    // day's 02:00 EDT again.
    expect(nextDailyHour(NY, 2, at('2027-03-13T12:00:00Z')).toISOString()).toBe(
      '2027-03-14T07:00:00.000Z',
    );
    expect(nextDailyHour(NY, 2, at('2027-03-14T07:00:00Z')).toISOString()).toBe(
      '2027-03-15T06:00:00.000Z',
    );
    // 01:00 happens twice on 7 November 2027 (EDT, then EST): the job runs at the first only.
    expect(nextDailyHour(NY, 1, at('2027-11-06T12:00:00Z')).toISOString()).toBe(
      '2027-11-07T05:00:00.000Z',
    );
    expect(nextDailyHour(NY, 1, at('2027-11-07T05:00:00Z')).toISOString()).toBe(
      '2027-11-08T06:00:00.000Z',
    );
  });

  it('takes a skipped hour as the end of the gap, a repeated one as its first time', () => {
    expect(zonedHour(NY, { year: 2027, month: 3, day: 14 }, 2).toISOString()).toBe(
      '2027-03-14T07:00:00.000Z',
    );
    expect(zonedHour(NY, { year: 2027, month: 11, day: 7 }, 1).toISOString()).toBe(
      '2027-11-07T05:00:00.000Z',
    );
    expect(zonedHour('UTC', { year: 2027, month: 2, day: 28 }, 0).toISOString()).toBe(
      '2027-02-28T00:00:00.000Z',
    );
    expect(zonedHour('Asia/Kolkata', { year: 2027, month: 6, day: 1 }, 7).toISOString()).toBe(
      '2027-06-01T01:30:00.000Z',
    );
  });

  it("ends a campus's date at 23:59:59 on its own clocks, summer time or not", () => {
    const may8 = { year: 2027, month: 5, day: 8 };
    const dec18 = { year: 2027, month: 12, day: 18 };
    expect(endOfZonedDay(NY, may8).toISOString()).toBe('2027-05-09T03:59:59.000Z');
    expect(endOfZonedDay(NY, dec18).toISOString()).toBe('2027-12-19T04:59:59.000Z');
    expect(endOfZonedDay('America/Los_Angeles', may8).toISOString()).toBe(
      '2027-05-09T06:59:59.000Z',
    );
    expect(endOfZonedDay('America/Los_Angeles', dec18).toISOString()).toBe(
      '2027-12-19T07:59:59.000Z',
    );
    expect(endOfZonedDay('UTC', may8).toISOString()).toBe('2027-05-08T23:59:59.000Z');
  });

  it('reads a YYYY-MM-DD date only when the calendar has it', () => {
    expect(parseCalendarDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parseCalendarDate('2027-02-29')).toBeNull();
    expect(parseCalendarDate('2027-13-01')).toBeNull();
    expect(parseCalendarDate('2027-5-8')).toBeNull();
    expect(() => endOfZonedDay(NY, { year: 2027, month: 2, day: 29 })).toThrow(/not a date/);
  });

  it('tells an IANA zone from a typo', () => {
    expect(isTimeZone(NY)).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('America/New_Yrok')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('writes a time as the campus reads it', () => {
    expect(campusDateTime(NY, at('2027-02-09T12:00:00Z'))).toBe(
      'Tuesday, February 9, 2027 at 7:00 AM EST',
    );
    expect(campusDateTime(NY, at('2027-05-08T23:59:59Z'))).toBe(
      'Saturday, May 8, 2027 at 7:59 PM EDT',
    );
  });
});
