import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from './load';

/** A server that answers every request after `delayMs`. */
function slowServer(delayMs: number) {
  return http.createServer((_request, response) => {
    setTimeout(() => response.end('ok'), delayMs);
  });
}

describe('runLoad with autocannon', () => {
  const server = slowServer(5.5);
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('gives the percentiles in fractions of a millisecond, not rounded down to whole ones', async () => {
    const r = await runLoad({ url, path: '/', connections: 2, duration: 1 }, 0);
    expect(r.requests).toBeGreaterThan(50);
    expect(r.errors).toBe(0);
    // Node's timer fires at 5 ms at the earliest (its whole milliseconds), usually later: autocannon's
    // own histogram would say a whole number of milliseconds.
    expect(r.p50).toBeGreaterThanOrEqual(5);
    expect(Number.isInteger(r.p50)).toBe(false);
    expect(Number.isInteger(r.p99)).toBe(false);
    expect(r.p99).toBeGreaterThanOrEqual(r.p50);
  });
});
