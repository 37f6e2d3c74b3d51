const PROBE_ORIGIN = 'http://redirect-check.invalid';

/**
 * The `redirectTo` query parameter, kept only when it is a path on this site. Browsers read '//host',
 * '/\host' and paths hiding tabs or newlines as another host, so the path is resolved the way a
 * browser would and refused unless it stays on this origin.
 */
export function safeRedirectPath(value: string | null | undefined, fallback = '/'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return fallback;
  try {
    const url = new URL(value, PROBE_ORIGIN);
    if (url.origin !== PROBE_ORIGIN) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
