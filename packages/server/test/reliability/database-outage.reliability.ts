import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, listingBody, photo, signUpVerified, upload } from './api-client';
import {
  freePort,
  sleep,
  startPrivatePostgres,
  startServer,
  stopServer,
  waitHealthy,
  type PrivatePostgres,
  type ServerProcess,
} from './processes';

const OUTAGE_MS = Number(process.env.OUTAGE_SECONDS ?? 30) * 1000;
/** A request that takes longer than this counts as a hang. */
const HANG_MS = 10_000;

describe('the PostgreSQL server stops for 30 s under traffic', () => {
  let pg: PrivatePostgres;
  let server: ServerProcess;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-rel-outage-'));
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    server = startServer({ DATA_DIR: dataDir, DATABASE_URL: pg.url }, await freePort());
    await waitHealthy(server);
  }, 120_000);
  afterAll(async () => {
    await stopServer(server);
    pg.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 quickly while it is down and recovers by itself', async () => {
    const user = await signUpVerified(server.url, dataDir);
    const cover = await upload(server.url, user.cookie, await photo(1));
    expect(cover.status).toBe(200);
    const requests = [
      () => call(server.url, 'GET', '/api/listing/get', { timeoutMs: HANG_MS }),
      () => call(server.url, 'GET', '/api/auth/me', { cookie: user.cookie, timeoutMs: HANG_MS }),
      () =>
        call(server.url, 'POST', '/api/listing/create', {
          cookie: user.cookie,
          json: listingBody('Outage book', [cover.url!]),
          timeoutMs: HANG_MS,
        }),
      () => call(server.url, 'GET', '/api/health', { timeoutMs: HANG_MS }),
    ];
    for (const request of requests) expect([200, 201]).toContain((await request()).status);

    pg.stop();
    const stoppedAt = Date.now();
    const during: { status: number; ms: number; message?: string }[] = [];
    while (Date.now() - stoppedAt < OUTAGE_MS) {
      const answers = await Promise.all(requests.map((r) => r()));
      during.push(...answers.map((a) => ({ status: a.status, ms: a.ms, message: a.body.message })));
      await sleep(200);
    }
    pg.start();
    const restartedAt = Date.now();
    let recoveredMs = -1;
    while (Date.now() - restartedAt < 60_000) {
      const answers = await Promise.all(requests.map((r) => r()));
      if (answers.every((a) => a.status === 200 || a.status === 201)) {
        recoveredMs = Date.now() - restartedAt;
        break;
      }
      await sleep(200);
    }

    const statuses: Record<string, number> = {};
    for (const a of during) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    const times = during.map((a) => a.ms).sort((a, b) => a - b);
    console.log(
      `[figure] database outage: ${JSON.stringify({
        outageSeconds: OUTAGE_MS / 1000,
        requests: during.length,
        statuses,
        medianMs: Math.round(times[Math.floor(times.length / 2)]!),
        maxMs: Math.round(times.at(-1)!),
        recoveredMsAfterRestart: recoveredMs,
        sample: during.find((a) => a.status !== 503),
      })}`,
    );
    expect(statuses['503']).toBe(during.length);
    expect(times.at(-1)!).toBeLessThan(HANG_MS);
    expect(recoveredMs).toBeGreaterThanOrEqual(0);
    expect(server.child.exitCode).toBeNull();
  }, 180_000);
});
