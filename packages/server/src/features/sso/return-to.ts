const PROBE_ORIGIN = 'http://return-to.invalid';

const staysHere = (value: string) => new URL(value, PROBE_ORIGIN).origin === PROBE_ORIGIN;

/**
 * Where to land after signing on: a path on this site, else '/'. Read the way a browser reads a
 * link ('//host', '/\host', hidden tabs and newlines lead elsewhere), as the web app's
 * safeRedirectPath does for its own redirects.
 */
export function safeReturnTo(value: string | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.length > 1000) return '/';
  try {
    if (!staysHere(value)) return '/';
    const url = new URL(value, PROBE_ORIGIN);
    const path = `${url.pathname}${url.search}${url.hash}`;
    if (!path.startsWith('/') || path.startsWith('//') || !staysHere(path)) return '/';
    // Never back into the sign-on itself or the pages that start it.
    if (/^\/(api\/|sign-in|sign-up|sso\/)/.test(path)) return '/';
    return path;
  } catch {
    return '/';
  }
}
