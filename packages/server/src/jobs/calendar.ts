/**
 * Wall-clock times in a time zone (IANA name), with the runtime's Intl data: no date library. Used by
 * the jobs whose slots are hours of the campus's day (the daily alert digest) and for the dates the
 * campus names (TERM_END_DATES end at 23:59:59 on the campus's clocks).
 */

const DAY_MS = 24 * 60 * 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows this IANA time zone ("America/New_York"; "UTC"). */
export function isTimeZone(zone: string): boolean {
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's calendar date and time at an instant. */
function wallClock(zone: string, at: Date) {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(at)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** How far the zone's clock is ahead of UTC at an instant (negative west of Greenwich). */
function offsetMs(zone: string, at: Date): number {
  const w = wallClock(zone, at);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** A calendar date, as the campus names it (month 1–12). */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/**
 * The instant the zone's clocks show a time of day on a date. A time skipped by a change to summer
 * time is taken as the first instant after the gap; a time that happens twice, as the first of them.
 */
export function zonedTime(
  zone: string,
  date: CalendarDate,
  time: { hour: number; minute?: number; second?: number },
): Date {
  const wall = Date.UTC(
    date.year,
    date.month - 1,
    date.day,
    time.hour,
    time.minute ?? 0,
    time.second ?? 0,
  );
  // The zone's offsets a day either side: at most one change between them.
  const before = offsetMs(zone, new Date(wall - DAY_MS));
  const after = offsetMs(zone, new Date(wall + DAY_MS));
  const valid = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wall - offsetMs(zone, new Date(instant)) === instant)
    .sort((a, b) => a - b);
  return new Date(valid[0] ?? wall - before);
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

/** The first instant after `after` at which the zone's clocks show `hour`:00. */
export function nextDailyHour(zone: string, hour: number, after: Date): Date {
  const today = wallClock(zone, after);
  for (let days = 0; days < 3; days += 1) {
    // Date.UTC rolls the day over months and years.
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
    const slot = zonedHour(
      zone,
      { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() },
      hour,
    );
    if (slot.getTime() > after.getTime()) return slot;
  }
  throw new Error(`no ${hour}:00 in ${zone} after ${after.toISOString()}`);
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
