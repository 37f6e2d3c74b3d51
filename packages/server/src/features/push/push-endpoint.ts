import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { urlHostName } from '@campus-books/common/host-name';

/**
 * Where the server may send a push: the push services are on the public internet, so an endpoint
 * on a private, loopback, link-local or reserved address is refused (a student could otherwise make
 * the server request anything inside its network). Checked when a device subscribes (the URL) and
 * again when a push goes out (every address its name resolves to), like the cover import, which
 * fetches only from known hosts and follows no redirect.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, and the deprecated IPv4-compatible ::a.b.c.d
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}
// (An IPv4-mapped IPv6 address, ::ffff:a.b.c.d, is checked against the IPv4 rules by BlockList.)

/** Whether an IP address is one a push service never has. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whether a subscription's endpoint may be used: https (http too with `testEndpoints`), no
 * credentials, and a host that is a name, or a public address (any address with `testEndpoints`).
 * The host is read in its one spelling (common's host-name.ts), so `localhost.`, `LOCALHOST`,
 * `127.1` or `0x7f.1` meet the same rules as `localhost` and `127.0.0.1`.
 */
export function isAllowedEndpoint(endpoint: string, testEndpoints: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && !(testEndpoints && url.protocol === 'http:')) return false;
  if (url.username || url.password) return false;
  if (testEndpoints) return true;
  const host = urlHostName(url);
  if (
    host === null ||
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    (!host.includes('.') && isIP(host) === 0)
  ) {
    return false;
  }
  return isIP(host) === 0 || !isPrivateAddress(host);
}

/** An address the endpoint's name resolved to is private: the push is not sent. */
export const PRIVATE_ADDRESS = 'EPRIVATEADDRESS';

export class PrivateAddressError extends Error {
  readonly code = PRIVATE_ADDRESS;
  constructor(hostname: string) {
    super(`The push endpoint's host ${hostname} resolves to a private address`);
  }
}

/**
 * A `lookup` for http(s).request that refuses a name resolving to any private address, so the
 * address checked is the address connected to (a name cannot resolve to a public address when
 * subscribing and to an inside one when sending).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
      return callback(new PrivateAddressError(hostname), []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    return callback(null, first!.address, first!.family);
  });
};
