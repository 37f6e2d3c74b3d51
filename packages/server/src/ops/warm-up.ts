import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Requests in flight at once while warming up (the database's round trips overlap). */
const AT_ONCE = 8;

export interface WarmUpResult {
  /** Health answers given before listening. */
  requests: number;
  ms: number;
  /** Why it ended early: the health check did not answer 200 (the database not up yet, say). */
  stoppedBy?: string;
}

/** GET /api/health through `agent`; resolves with the answer's status once its body is read. */
function askHealth(agent: http.Agent, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { agent, host: '127.0.0.1', port, path: '/api/health', headers: { accept: '*/*' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

/**
 * Before the server listens, it answers its own health check for up to `ms`, over HTTP on a port
 * of its own on the loopback, with the same routing as the real one (`app.routing`): the request
 * path every answer takes (Node's HTTP server, routing, the hooks, the security headers,
 * compression's check, the access log, the database driver and, on the embedded engine, PGlite's
 * WebAssembly) is then compiled by V8 while no client waits, instead of during the first seconds
 * of traffic (docs/performance.md, "Start-up"). Real sockets, not Fastify's `inject`: V8 compiles
 * for the objects it saw, and inject's stand-ins for Node's request and answer made the server
 * slower afterwards. Health reads no table and fills no cache. Its answers are not logged (the
 * logger is at `warn` meanwhile) nor left in the metrics. 0 turns it off (the tests' servers).
 */
export async function warmUp(
  app: FastifyInstance,
  ms: number,
  now: () => number = () => performance.now(),
): Promise<WarmUpResult> {
  const started = now();
  if (ms <= 0) return { requests: 0, ms: 0 };
  await app.ready();
  const server = http.createServer((request, response) => app.routing(request, response));
  const agent = new http.Agent({ keepAlive: true, maxSockets: AT_ONCE });
  const level = app.log.level;
  app.log.level = 'warn';
  let requests = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as AddressInfo;
    while (now() - started < ms) {
      const statuses = await Promise.all(
        Array.from({ length: AT_ONCE }, () => askHealth(agent, port)),
      );
      const refused = statuses.find((status) => status !== 200);
      if (refused !== undefined) {
        return { requests, ms: now() - started, stoppedBy: `health answered ${refused}` };
      }
      requests += statuses.length;
    }
    return { requests, ms: now() - started };
  } catch (error) {
    // No loopback port, say: the server starts all the same, unwarmed.
    return { requests, ms: now() - started, stoppedBy: (error as Error).message };
  } finally {
    app.log.level = level;
    app.metrics.forgetRequests();
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
