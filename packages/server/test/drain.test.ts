import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_ENGINE } from './helpers';
import { freePort, startServer, waitHealthy, type ServerProcess } from './reliability/processes';

/**
 * SIGTERM behind a load balancer: /api/health answers 503 while the server still serves (the
 * balancer takes it out), a request in flight gets its answer, then the process exits with 0.
 */
describe(`graceful drain on SIGTERM (${TEST_ENGINE})`, () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(
    'answers 503 on /api/health, finishes the request in flight, exits 0',
    { timeout: 120_000 },
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-drain-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const env: Record<string, string> = { DATA_DIR: dataDir, SHUTDOWN_DELAY_MS: '2000' };
      if (TEST_ENGINE === 'postgres') {
        const target = await createPostgresDatabase(true);
        cleanups.push(() => target.drop());
        env.DATABASE_URL = target.url;
      }
      const server: ServerProcess = startServer(env, await freePort());
      cleanups.push(() => {
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
      });
      await waitHealthy(server);

      // A request in flight: its body arrives in two parts, the second after SIGTERM.
      let sendRest!: () => void;
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('{"email":"nobody@richmond.edu",'));
          await new Promise<void>((resolve) => (sendRest = resolve));
          controller.enqueue(new TextEncoder().encode('"password":"Passw0rd!"}'));
          controller.close();
        },
      });
      const inFlight = fetch(`${server.url}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      await new Promise((resolve) => setImmediate(resolve));

      server.child.kill('SIGTERM');
      let health: { status: number; body: unknown } | undefined;
      for (let tries = 0; tries < 200 && !health; tries += 1) {
        const res = await fetch(`${server.url}/api/health`);
        if (res.status === 503) health = { status: res.status, body: await res.json() };
        else await res.body?.cancel();
      }
      expect(health).toMatchObject({ status: 503, body: { server: 'draining' } });

      sendRest();
      const answer = await inFlight;
      expect(answer.status).toBe(401); // answered (unknown account), not cut off
      expect(await server.exited).toBe(0);
    },
  );
});
