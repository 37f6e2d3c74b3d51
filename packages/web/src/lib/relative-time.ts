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

/** A person's initials for an avatar without a photo: "Maya P." → "MP". */
export function initials(name: string): string {
  const letters = name
    .split(/[\s._-]+/)
    .filter(Boolean)
    .map((part) => [...part][0]!.toUpperCase());
  return letters.length > 1 ? letters[0]! + letters[letters.length - 1]! : (letters[0] ?? '?');
}
