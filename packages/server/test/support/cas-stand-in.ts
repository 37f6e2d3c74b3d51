import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A STAND-IN for a CAS server (no CAS server is packaged here), following the CAS 3.0 protocol
 * specification: `/login?service=` redirects back with a service ticket for the test's chosen
 * user; `/p3/serviceValidate` validates a ticket once, for the exact service it was issued to,
 * and answers `authenticationSuccess` with attributes, or `authenticationFailure`.
 */
export interface CasStandIn {
  url: string;
  /** Who `/login` signs in next: the user id and their attributes. */
  signInAs(user: string, attributes: Record<string, string[]>): void;
  close(): Promise<void>;
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function startCasStandIn(): Promise<CasStandIn> {
  const tickets = new Map<
    string,
    { service: string; user: string; attributes: Record<string, string[]> }
  >();
  let current: { user: string; attributes: Record<string, string[]> } | null = null;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://cas.invalid');
    const service = url.searchParams.get('service') ?? '';
    if (url.pathname === '/login' && current && service) {
      const ticket = `ST-${randomBytes(16).toString('hex')}`;
      tickets.set(ticket, { service, ...current });
      const back = new URL(service);
      back.searchParams.set('ticket', ticket);
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (url.pathname === '/p3/serviceValidate') {
      const ticket = url.searchParams.get('ticket') ?? '';
      const issued = tickets.get(ticket);
      tickets.delete(ticket); // a ticket is validated once, success or not (spec 3.1.1)
      res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
      if (!issued || issued.service !== service) {
        const code = issued ? 'INVALID_SERVICE' : 'INVALID_TICKET';
        res.end(
          `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationFailure code="${code}">Ticket ${escape(ticket)} not recognized</cas:authenticationFailure></cas:serviceResponse>`,
        );
        return;
      }
      const attributes = Object.entries(issued.attributes)
        .flatMap(([name, values]) => values.map((v) => `<cas:${name}>${escape(v)}</cas:${name}>`))
        .join('');
      res.end(
        `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user>${escape(issued.user)}</cas:user><cas:attributes>${attributes}</cas:attributes></cas:authenticationSuccess></cas:serviceResponse>`,
      );
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    signInAs(user, attributes) {
      current = { user, attributes };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
