import { readFileSync } from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { warmUp } from './warm-up';

/** A clock that moves one millisecond each time it is read: the warm-up's length in its own looks. */
const steppingClock = () => {
  let ms = 0;
  return () => ms++;
};

describe(`the warm-up before the server listens (${TEST_ENGINE})`, () => {
  let t: TestApp;
  /** The app's log lines, as the server writes them (JSON, at `info`). */
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp({ METRICS: 'on' }, { logger: { level: 'info', stream } });
  });
  afterAll(() => t.close());

  it('answers the health check over the loopback for its time, eight at once, none of it logged', async () => {
    const routed = vi.spyOn(t.app, 'routing');
    try {
      // Read at the start (0), before each round (1, 2, 3: rounds; 4: the end) and for its length.
      const result = await warmUp(t.app, 4, steppingClock());
      expect(result).toEqual({ requests: 24, ms: 5 });
      // Real requests through the app's own routing, as the listening server's will be.
      expect(routed.mock.calls.map(([request]) => `${request.method} ${request.url}`)).toEqual(
        Array.from({ length: 24 }, () => 'GET /api/health'),
      );
      // Not one access log line, nor a request in the metrics; then the logger is at its level again.
      expect(lines.filter((line) => line.includes('/api/health'))).toEqual([]);
      const token = readFileSync(path.join(t.dataDir, 'metrics-token'), 'utf8').trim();
      const metrics = await t.app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.body).not.toContain('route="/api/health"');
      expect(t.app.log.level).toBe('info');
      await t.app.inject('/api/health');
      expect(lines.filter((line) => line.includes('/api/health')).length).toBeGreaterThan(0);
    } finally {
      routed.mockRestore();
    }
  });

  it('stops at the first answer that is not 200, and says why', async () => {
    t.app.lifecycle.draining = true;
    try {
      const result = await warmUp(t.app, 1_000, steppingClock());
      expect(result).toMatchObject({ requests: 0, stoppedBy: 'health answered 503' });
    } finally {
      t.app.lifecycle.draining = false;
    }
  });

  it('closes its loopback server and sockets on every way out', async () => {
    const made = vi.spyOn(http, 'createServer');
    try {
      await warmUp(t.app, 3, steppingClock());
      t.app.lifecycle.draining = true;
      await warmUp(t.app, 1_000, steppingClock()).finally(() => {
        t.app.lifecycle.draining = false;
      });
      const servers = made.mock.results.map((result) => result.value as http.Server);
      expect(servers).toHaveLength(2);
      for (const server of servers) {
        expect(server.listening).toBe(false);
        const open = await new Promise<number>((resolve, reject) =>
          server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
        );
        expect(open).toBe(0);
      }
    } finally {
      made.mockRestore();
    }
  });

  it('does nothing when set to 0', async () => {
    const routed = vi.spyOn(t.app, 'routing');
    try {
      expect(await warmUp(t.app, 0)).toEqual({ requests: 0, ms: 0 });
      expect(routed).not.toHaveBeenCalled();
    } finally {
      routed.mockRestore();
    }
  });
});
