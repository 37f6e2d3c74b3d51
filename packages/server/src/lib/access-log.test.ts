import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';

describe(`the access log (${TEST_ENGINE})`, () => {
  let t: TestApp;
  /** The app's log lines, as the server writes them (JSON, at `info`). */
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    t = await createTestApp({}, { logger: { level: 'info', stream } });
  });
  afterAll(() => t.close());

  const linesOf = (url: string) =>
    lines.filter((line) => (line.req as { url?: string } | undefined)?.url === url);

  it('writes one line for an answered request, with the request, its status and its time', async () => {
    const res = await t.app.inject({
      url: '/api/health?from=test',
      headers: { host: 'books.test' },
    });
    expect(res.statusCode).toBe(200);
    const [line, ...more] = linesOf('/api/health?from=test');
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/api/health?from=test', host: 'books.test' },
      res: { statusCode: 200 },
      reqId: expect.any(String),
    });
    expect(line!.responseTime).toEqual(expect.any(Number));
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
  });

  it('writes one line for a refused request too, with its status', async () => {
    const res = await t.app.inject({ url: '/api/listing/get/not-an-id' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const written = linesOf('/api/listing/get/not-an-id');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      msg: 'request completed',
      res: { statusCode: res.statusCode },
    });
  });
});
