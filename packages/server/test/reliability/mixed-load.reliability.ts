import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRouteKey } from '@campus-books/common/api-routes';
import { dataOf, type RouteAnswer } from '@campus-books/common/call-route';
import { callApi, listingBody, photo, signUpVerified, upload, type Answer } from './api-client';
import {
  freePort,
  sleep,
  startServer,
  stopServer,
  waitHealthy,
  type ServerProcess,
} from './processes';

/** LOAD_SECONDS=300 for the five-minute run; LOAD_ENGINE=postgres with TEST_DATABASE_URL. */
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const WRITERS = 3;
const SEARCHERS = 4;
const UPLOADS_PER_SELLER = 25; // under the 30 per user and hour

type State = 'active' | 'sold' | 'deleted';

const rssBytes = (pid: number) => {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) * 1024;
};
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

describe(`mixed load for ${SECONDS} s`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-rel-load-'));
  let server: ServerProcess;
  beforeAll(async () => {
    const env: Record<string, string> = { DATA_DIR: dataDir };
    if (process.env.LOAD_ENGINE === 'postgres') env.DATABASE_URL = process.env.TEST_DATABASE_URL!;
    server = startServer(env, await freePort());
    await waitHealthy(server);
  }, 120_000);
  afterAll(async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('searches while listings are created, edited, sold, deleted and images uploaded', async () => {
    const base = server.url;
    const listings = new Map<string, { name: string; state: State }>();
    const counts: Record<string, number> = {};
    const unexpected: string[] = [];
    const endAt = Date.now() + SECONDS * 1000;
    const record = (what: string, res: Answer | RouteAnswer<ApiRouteKey>, ok: number[]) => {
      counts[what] = (counts[what] ?? 0) + 1;
      const message = 'body' in res ? res.body.message : res.ok ? '' : res.error?.message;
      if (!ok.includes(res.status)) unexpected.push(`${what}: ${res.status} ${message ?? ''}`);
      return ok.includes(res.status);
    };

    async function writerLoop(w: number) {
      let seller = await signUpVerified(base, dataDir);
      for (let n = 1; Date.now() < endAt; n++) {
        if (n % UPLOADS_PER_SELLER === 0) seller = await signUpVerified(base, dataDir);
        const sent = await upload(base, seller.cookie, await photo(n));
        if (!record('upload', sent, [200]) || !sent.url) continue;
        const name = `Load ${w}-${n} ${Math.random().toString(36).slice(2, 8)}`;
        const created = await callApi(base, 'POST /api/listing/create', {
          as: seller,
          body: listingBody(name, [sent.url]),
        });
        if (!record('create', created, [201]) || !created.ok) continue;
        const id = created.data._id;
        const asSeller = { as: seller, params: { id } };
        listings.set(id, { name, state: 'active' });
        const step = n % 4;
        if (step === 1) {
          const renamed = `${name} edited`;
          const edited = await callApi(base, 'POST /api/listing/update/:id', {
            ...asSeller,
            body: listingBody(renamed, [sent.url]),
          });
          if (record('update', edited, [200])) listings.set(id, { name: renamed, state: 'active' });
        } else if (step === 2) {
          const sold = await callApi(base, 'POST /api/listing/mark-as-sold/:id', asSeller);
          if (record('sold', sold, [200])) listings.get(id)!.state = 'sold';
        } else if (step === 3) {
          const gone = await callApi(base, 'DELETE /api/listing/delete/:id', asSeller);
          if (record('delete', gone, [200])) listings.get(id)!.state = 'deleted';
        }
      }
    }

    async function searcherLoop(s: number) {
      const terms = ['Load', 'edited', 'calculus', '', '%', 'Load 1'];
      for (let n = 0; Date.now() < endAt; n++) {
        const term = terms[(n + s) % terms.length]!;
        const query = { searchTerm: term || undefined, startIndex: (n % 3) * 9 };
        record('search', await callApi(base, 'GET /api/listing/get', { query }), [200]);
      }
    }

    const memory: { at: number; rss: number }[] = [];
    const sampler = (async () => {
      while (Date.now() < endAt) {
        memory.push({ at: Date.now(), rss: rssBytes(server.child.pid!) });
        await sleep(1000);
      }
    })();
    await Promise.all([
      ...Array.from({ length: WRITERS }, (_, w) => writerLoop(w)),
      ...Array.from({ length: SEARCHERS }, (_, s) => searcherLoop(s)),
      sampler,
    ]);

    // Every acknowledged write, as search and reads see it now.
    let notFound = 0;
    for (const [id, listing] of listings) {
      if (listing.state === 'deleted') {
        const read = await callApi(base, 'GET /api/listing/get/:id', { params: { id } });
        if (read.status !== 404) notFound += 1;
        continue;
      }
      const res = await callApi(base, 'GET /api/listing/get', {
        query: { searchTerm: listing.name },
      });
      const ids = dataOf(res).map((l) => l._id);
      if (ids.includes(id) !== (listing.state === 'active')) notFound += 1;
    }

    const warm = memory.filter((m) => m.at - memory[0]!.at > (SECONDS * 1000) / 4);
    const quarter = Math.max(1, Math.floor(warm.length / 3));
    const early = median(warm.slice(0, quarter).map((m) => m.rss));
    const late = median(warm.slice(-quarter).map((m) => m.rss));
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(
      `[figure] mixed load: ${JSON.stringify({
        seconds: SECONDS,
        engine: process.env.LOAD_ENGINE ?? 'pglite',
        requests: total,
        perSecond: Math.round(total / SECONDS),
        counts,
        unexpectedErrors: unexpected.length,
        firstUnexpected: unexpected.slice(0, 5),
        acknowledgedListings: listings.size,
        acknowledgedNotAsExpected: notFound,
        rssAfterWarmupMB: Math.round(early / 1e6),
        rssAtEndMB: Math.round(late / 1e6),
        rssGrowthPercent: Math.round(((late - early) / early) * 1000) / 10,
      })}`,
    );
    expect(unexpected).toEqual([]);
    expect(notFound).toBe(0);
    expect(listings.size).toBeGreaterThan(0);
    expect(Math.abs(late - early) / early).toBeLessThan(0.1);
  }, 900_000);
});
