const PROBE_ORIGIN = 'http://redirect-check.invalid';

/** Whether `value`, read the way a browser reads a link on this site, stays on this site. */
const staysHere = (value: string) => new URL(value, PROBE_ORIGIN).origin === PROBE_ORIGIN;

/**
 * The `redirectTo` query parameter, kept only when it is a path on this site. Browsers read '//host',
 * '/\host' and paths hiding tabs or newlines as another host, so the path is resolved the way a
 * browser would and refused unless it stays on this origin. The answer is the normalised path, which
 * must stay here too: '/.//host' and '/%2e//host' normalise to '//host'.
 */
export function safeRedirectPath(value: string | null | undefined, fallback = '/'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return fallback;
  try {
    if (!staysHere(value)) return fallback;
    const url = new URL(value, PROBE_ORIGIN);
    const path = `${url.pathname}${url.search}${url.hash}`;
    return path.startsWith('/') && !path.startsWith('//') && staysHere(path) ? path : fallback;
  } catch {
    return fallback;
  }
}
