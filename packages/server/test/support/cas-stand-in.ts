import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A STAND-IN for a CAS server (no CAS server is packaged here), following the CAS 3.0 protocol
 * specification: `/login?service=` redirects back with a service ticket for the test's chosen
 * user, or else (for a browser) asks for a username and password on its own form (2.1, 2.2) and
 * keeps a single sign-on session in its `CASTGC` cookie, so a second `/login` asks nothing;
 * `/p3/serviceValidate` validates a ticket once, for the exact service it was issued to, and
 * answers `authenticationSuccess` with attributes, or `authenticationFailure`.
 */
export interface CasStandIn {
  url: string;
  /** Who `/login` signs in next, without a form: the user id and their attributes. */
  signInAs(user: string, attributes: Record<string, string[]>): void;
  /** Accounts the login form knows (user id → attributes); every password is `password`. */
  addAccounts(accounts: Record<string, Record<string, string[]>>): void;
  close(): Promise<void>;
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
type Attributes = Record<string, string[]>;
const SSO_COOKIE = 'CASTGC';

const loginForm = (service: string, failed: boolean) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>CAS stand-in: sign in</title></head>
<body><main><h1>Central Authentication Service (stand-in)</h1>
${failed ? '<p role="alert">The username or password is not right.</p>' : ''}
<form method="post" action="/login">
<input type="hidden" name="service" value="${escape(service)}">
<p><label for="username">Username</label> <input id="username" name="username" autocomplete="username"></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password"></p>
<p><button type="submit">Log in</button></p>
</form></main></body></html>`;

const readBody = (req: IncomingMessage) =>
  new Promise<URLSearchParams>((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });

const cookieOf = (req: IncomingMessage, name: string) =>
  (req.headers.cookie ?? '')
    .split(';')
    .map((pair) => pair.trim().split('='))
    .find(([key]) => key === name)?.[1];

export async function startCasStandIn(): Promise<CasStandIn> {
  const tickets = new Map<string, { service: string; user: string; attributes: Attributes }>();
  let current: { user: string; attributes: Attributes } | null = null;
  const accounts = new Map<string, Attributes>();
  /** Single sign-on sessions: the CASTGC cookie's value → the user id. */
  const sessions = new Map<string, string>();

  /** Back to the service with a new service ticket for `user`. */
  function issue(res: ServerResponse, service: string, user: string, attributes: Attributes) {
    const ticket = `ST-${randomBytes(16).toString('hex')}`;
    tickets.set(ticket, { service, user, attributes });
    const back = new URL(service);
    back.searchParams.set('ticket', ticket);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }
  function showForm(res: ServerResponse, service: string, failed: boolean) {
    res.writeHead(failed ? 401 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(loginForm(service, failed));
  }

  async function login(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (req.method === 'POST') {
      const form = await readBody(req);
      const service = form.get('service') ?? '';
      const user = form.get('username') ?? '';
      const attributes = accounts.get(user);
      if (!attributes || form.get('password') !== 'password' || !service) {
        showForm(res, service, true);
        return;
      }
      const session = `TGT-${randomBytes(16).toString('hex')}`;
      sessions.set(session, user);
      res.setHeader('set-cookie', `${SSO_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Lax`);
      issue(res, service, user, attributes);
      return;
    }
    const service = url.searchParams.get('service') ?? '';
    if (current && service) {
      issue(res, service, current.user, current.attributes);
      return;
    }
    const user = sessions.get(cookieOf(req, SSO_COOKIE) ?? '');
    const attributes = user === undefined ? undefined : accounts.get(user);
    if (user !== undefined && attributes && service) issue(res, service, user, attributes);
    else showForm(res, service, false);
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://cas.invalid');
    const service = url.searchParams.get('service') ?? '';
    if (url.pathname === '/login') {
      login(req, res, url).catch(() => {
        res.writeHead(500);
        res.end();
      });
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
    addAccounts(more) {
      for (const [user, attributes] of Object.entries(more)) accounts.set(user, attributes);
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a browser's kept-alive connections
      }),
  };
}
