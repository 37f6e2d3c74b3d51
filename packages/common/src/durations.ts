/**
 * Lengths of time as a student reads them ("14 days", "1 hour", "2 hours 15 minutes"), for the texts
 * that state a setting's value (the rating reveal, the meetup reminder). Intl picks the plural.
 */

type Unit = 'day' | 'hour' | 'minute';
const formats = new Map<Unit, Intl.NumberFormat>();

function inUnit(value: number, unit: Unit): string {
  let format = formats.get(unit);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'unit', unit, unitDisplay: 'long' });
    formats.set(unit, format);
  }
  return format.format(value);
}

/** "1 day", "14 days". */
export function formatDays(days: number): string {
  return inUnit(days, 'day');
}

/** Whole minutes in hours and minutes, each only when there is some: "30 minutes", "1 hour", "2 hours 15 minutes". */
export function formatMinutes(totalMinutes: number): string {
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  return [
    hours > 0 ? inUnit(hours, 'hour') : '',
    minutes > 0 || hours === 0 ? inUnit(minutes, 'minute') : '',
  ]
    .filter(Boolean)
    .join(' ');
}
