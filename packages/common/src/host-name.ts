/**
 * Host names as every host rule compares them (push endpoints, cover hosts, GroupMe links, the
 * site's own origin). One spelling per host: the WHATWG URL parser's (lower case, IDNA to
 * punycode, percent-escapes decoded, every IPv4 spelling such as `127.1`, `0x7f.1` or `2130706433`
 * as dotted decimal, IPv6 compressed), then without the trailing dots that make a name fully
 * qualified (`localhost.` is `localhost`), and IPv6 without its brackets. So a rule written for
 * `localhost` or `127.0.0.1` cannot be walked around by another spelling of the same host.
 */

/** Parses `host` as the host of an http URL; null when it is not a host alone. */
function parseHost(host: string): string | null {
  // A bare IPv6 address is written in brackets in a URL.
  const written = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  let url: URL;
  try {
    url = new URL(`http://${written}/`);
  } catch {
    return null;
  }
  // Anything but a host ("a.com/x", "user@a.com", "a.com:81") is not a host name.
  if (url.pathname !== '/' || url.username || url.password || url.port || url.search || url.hash) {
    return null;
  }
  return url.hostname;
}

/**
 * The one spelling of a host name (`LOCALHOST.` → `localhost`, `ｅｘａｍｐｌｅ.com` →
 * `example.com`, `bücher.example` → `xn--bcher-kva.example`, `0x7f.1` → `127.0.0.1`, `[::1]` →
 * `::1`); null for what is not a host name.
 */
export function normalizeHostName(host: string): string | null {
  let current = host;
  // Removing a trailing dot can turn a name into an address ("127.0.0.1.." parses as a name), and
  // IDNA can make a dot ("localhost。"): parse again until the spelling holds still.
  for (let round = 0; round < 4; round += 1) {
    const parsed = parseHost(current);
    if (parsed === null) return null;
    const withoutDots = parsed.replace(/\.+$/, '');
    if (withoutDots === '') return null;
    if (withoutDots === parsed) return parsed.replace(/^\[(.*)\]$/, '$1');
    current = withoutDots;
  }
  return null;
}

/** A URL's host name in its one spelling (see normalizeHostName); null when it has none. */
export function urlHostName(url: URL): string | null {
  return url.hostname === '' ? null : normalizeHostName(url.hostname);
}

/**
 * Whether two URLs name the same server: scheme, host name in its one spelling, and port (a
 * scheme's default port is no port, as the URL parser writes it).
 */
export function isSameOrigin(a: URL, b: URL): boolean {
  const host = urlHostName(a);
  return host !== null && a.protocol === b.protocol && host === urlHostName(b) && a.port === b.port;
}

/** A URL's host and port as host lists compare them ("covers.example:8443"); null without a host. */
export function urlHostKey(url: URL): string | null {
  const host = urlHostName(url);
  if (host === null) return null;
  return url.port ? `${host.includes(':') ? `[${host}]` : host}:${url.port}` : host;
}
