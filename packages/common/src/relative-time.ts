/**
 * Every date a page shows relative to now ("listed 3 days ago", "confirmed available today"): the
 * web app writes them, and the server knows from the same rules how long a page it keeps still
 * reads true (server/src/plugins/page-cache.ts).
 */

const DAY_MS = 24 * 3600 * 1000;

const UNITS: [unit: string, seconds: number, lastOne: string | null][] = [
  ['year', 365 * 24 * 3600, 'last year'],
  ['month', 30 * 24 * 3600, 'last month'],
  ['week', 7 * 24 * 3600, 'last week'],
  ['day', 24 * 3600, 'yesterday'],
  ['hour', 3600, null],
  ['minute', 60, null],
];

/**
 * "2 days ago", "yesterday", "3 weeks ago", "just now": how long ago `iso` was, at `now`. Written
 * out in English as `Intl.RelativeTimeFormat('en', { numeric: 'auto' })` says it (the test compares
 * them): creating that formatter loads its locale data, 25–40 ms of a phone's first screen.
 */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const seconds = Math.max(0, (now - new Date(iso).getTime()) / 1000);
  for (const [unit, size, lastOne] of UNITS) {
    if (seconds < size) continue;
    const count = Math.floor(seconds / size);
    if (count === 1) return lastOne ?? `1 ${unit} ago`;
    return `${count} ${unit}s ago`;
  }
  return 'just now';
}

/** "Confirmed available N days ago", from when the seller last confirmed the listing. */
export function confirmedAgo(confirmedAt: string, now: number): string {
  const days = Math.floor((now - new Date(confirmedAt).getTime()) / DAY_MS);
  if (days <= 0) return 'Confirmed available today';
  return `Confirmed available ${days} day${days === 1 ? '' : 's'} ago`;
}

/**
 * The first moment after `now` at which `timeAgo` or `confirmedAgo` of `iso` may read differently
 * (Infinity for a date that is not one). Before it, both read as they do at `now`.
 */
export function relativeTextChangesAt(iso: string, now: number): number {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return Infinity;
  // A date to come reads as one just past ("just now", "today").
  const ms = Math.max(0, now - at);
  // confirmedAgo: each whole day.
  let next = at + (Math.floor(ms / DAY_MS) + 1) * DAY_MS;
  // timeAgo: the next count of the unit it uses, or the next unit's start, whichever is first.
  for (const [, size] of UNITS) {
    const sizeMs = size * 1000;
    if (ms >= sizeMs) return Math.min(next, at + (Math.floor(ms / sizeMs) + 1) * sizeMs);
    next = Math.min(next, at + sizeMs);
  }
  return next;
}
