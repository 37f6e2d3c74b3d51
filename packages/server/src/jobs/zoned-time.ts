import { Cron } from 'croner';

/**
 * Times on a time zone's clocks (IANA name): the slots of the jobs that run at an hour of the
 * campus's day (the daily alert digest, the end-of-term mail), the dates the campus names
 * (TERM_END_DATES end at 23:59:59 on its clocks), and a time as a mail shows it. croner finds the
 * instants, summer time included; Intl formats them.
 */

// Whether the runtime knows an IANA time zone: one rule with the campus file's check.
export { isTimeZone } from '@campus-books/common/time-zone';

/** A calendar date, as the campus names it (month 1–12). */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 24 * 60 * 60_000;
/** The earliest a date starts anywhere (UTC+14) is less than this before it starts in UTC. */
const WIDEST_OFFSET_MS = 15 * 60 * 60_000;

/**
 * The instant the zone's clocks show a time of day on a date. A time skipped by a change to summer
 * time is taken as the first instant after the gap; a time that happens twice, as the first of them
 * (croner's rule for a job at a fixed time, as cron's).
 */
export function zonedTime(
  zone: string,
  date: CalendarDate,
  time: { hour: number; minute?: number; second?: number },
): Date {
  const { hour, minute = 0, second = 0 } = time;
  const earliest = Date.UTC(date.year, date.month - 1, date.day) - WIDEST_OFFSET_MS;
  const slot = new Cron(`${second} ${minute} ${hour} ${date.day} ${date.month} *`, {
    timezone: zone,
  }).nextRun(new Date(earliest));
  // Not on that date (29 February of a common year): a later year's.
  if (!slot || slot.getTime() - earliest > 2 * DAY_MS) {
    throw new Error(`${date.year}-${date.month}-${date.day} is not a date`);
  }
  return slot;
}

/** The instant the zone's clocks show `hour`:00 on a date (zonedTime). */
export function zonedHour(zone: string, date: CalendarDate, hour: number): Date {
  return zonedTime(zone, date, { hour });
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` date that exists on the calendar (not 2027-02-30); null otherwise. */
export function parseCalendarDate(text: string): CalendarDate | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  const exists =
    probe.getUTCFullYear() === year &&
    probe.getUTCMonth() === month - 1 &&
    probe.getUTCDate() === day;
  return exists ? { year, month, day } : null;
}

/** The last second of a date on the zone's clocks (23:59:59 there): when a campus's day ends. */
export function endOfZonedDay(zone: string, date: CalendarDate): Date {
  return zonedTime(zone, date, { hour: 23, minute: 59, second: 59 });
}

/** The first instant after `after` at which the zone's clocks show `hour`:00 (a daily job's slot). */
export function nextDailyHour(zone: string, hour: number, after: Date): Date {
  const slot = new Cron(`0 0 ${hour} * * *`, { timezone: zone }).nextRun(after);
  if (!slot) throw new Error(`no ${hour}:00 in ${zone} after ${after.toISOString()}`);
  return slot;
}

/** A date and time as a mail shows it to the campus: "Tuesday, February 9, 2027 at 7:00 AM EST". */
export function campusDateTime(zone: string, at: Date): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(at);
}
