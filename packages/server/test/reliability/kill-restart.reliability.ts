import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { callApi, listingBody, photo, signUpVerified, upload } from './api-client';
import { checkConsistency } from './consistency';
import {
  freePort,
  sleep,
  startPrivatePostgres,
  startServer,
  waitHealthy,
  type PrivatePostgres,
  type ServerProcess,
} from './processes';

const KILLS = Number(process.env.KILLS ?? 20);
const WRITERS = 4;

interface Acknowledged {
  listings: Map<string, Set<string>>; // id -> names it may have (acknowledged, or in flight at the kill)
  images: Set<string>;
  /** Image of each listing: deleting a listing deletes its images, so they are expected gone. */
  imageOf: Map<string, string>;
  deleted: Set<string>;
  /** Listings whose delete was sent but not answered before the kill: present or gone are both right. */
  maybeDeleted: Set<string>;
}

/** One writer: upload, create with it, rename, sometimes delete; every 2xx is recorded. */
async function writer(base: string, cookie: string, ack: Acknowledged, stop: { now: boolean }) {
  let n = 0;
  while (!stop.now) {
    n += 1;
    const sent = await upload(base, cookie, await photo(n));
    if (sent.status === 0) return;
    if (sent.status !== 200 || !sent.url) continue;
    ack.images.add(sent.url);
    const name = `Kill test ${n} ${Math.random().toString(36).slice(2, 7)}`;
    const seller = { cookie };
    const created = await callApi(base, 'POST /api/listing/create', {
      as: seller,
      body: listingBody(name, [sent.url]),
    });
    if (!created.ok) continue;
    const id = created.data._id;
    ack.imageOf.set(id, sent.url);
    ack.listings.set(id, new Set([name]));
    const renamed = `${name} (edited)`;
    ack.listings.get(id)!.add(renamed); // in flight: either name may be stored
    const edited = await callApi(base, 'POST /api/listing/update/:id', {
      as: seller,
      params: { id },
      body: listingBody(renamed, [sent.url]),
    });
    if (edited.status === 200) ack.listings.set(id, new Set([renamed]));
    if (n % 3 === 0) {
      ack.maybeDeleted.add(id);
      const deleted = await callApi(base, 'DELETE /api/listing/delete/:id', {
        as: seller,
        params: { id },
      });
      if (deleted.status === 200) {
        ack.listings.delete(id);
        ack.maybeDeleted.delete(id);
        ack.deleted.add(id);
      }
    }
  }
}

describe.each(['pglite', 'postgres'] as const)(
  'kill -9 during writes and uploads (%s)',
  (engine) => {
    let pg: PrivatePostgres | undefined;
    let live: ServerProcess | undefined;
    const dataDir = mkdtempSync(path.join(tmpdir(), `cb-rel-kill-${engine}-`));
    afterAll(() => {
      // A failed assertion leaves the current server running: stop it, by its own pid.
      if (live && live.child.exitCode === null) live.child.kill('SIGKILL');
      pg?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it(`restarts ${KILLS} times, loses no acknowledged write, leaves no orphan`, async () => {
      if (engine === 'postgres') pg = await startPrivatePostgres();
      const env = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
      const ack: Acknowledged = {
        listings: new Map(),
        images: new Set(),
        imageOf: new Map(),
        deleted: new Set(),
        maybeDeleted: new Set(),
      };
      const figures = { kills: 0, staleLocks: 0, restartMs: [] as number[], lost: 0 };
      const port = await freePort();

      for (let round = 0; round < KILLS; round++) {
        const server = startServer(env, port);
        live = server;
        figures.restartMs.push(await waitHealthy(server));

        // Everything acknowledged before any earlier kill is still there.
        for (const [id, names] of ack.listings) {
          const res = await callApi(server.url, 'GET /api/listing/get/:id', { params: { id } });
          if (res.status === 404 && ack.maybeDeleted.has(id)) {
            ack.listings.delete(id);
            continue;
          }
          if (!res.ok || !names.has(res.data.name)) figures.lost += 1;
          expect(res.status, `listing ${id}`).toBe(200);
          expect([...names]).toContain(dataOf(res).name);
        }
        for (const id of ack.deleted) {
          const gone = await callApi(server.url, 'GET /api/listing/get/:id', { params: { id } });
          expect(gone.status).toBe(404);
        }

        // A fresh seller per round: uploads are capped per user and hour.
        const seller = await signUpVerified(server.url, dataDir);
        const stop = { now: false };
        const writers = Array.from({ length: WRITERS }, () =>
          writer(server.url, seller.cookie, ack, stop),
        );
        await sleep(300 + Math.random() * 1500);
        server.child.kill('SIGKILL');
        figures.kills += 1;
        await server.exited;
        stop.now = true;
        await Promise.all(writers);
        if (engine === 'pglite' && existsSync(path.join(dataDir, 'server.lock')))
          figures.staleLocks += 1;
      }

      const server = startServer(env, port);
      live = server;
      await waitHealthy(server);
      const missingImages: string[] = [];
      const goneWithListing = new Set(
        [...ack.deleted, ...ack.maybeDeleted].map((id) => ack.imageOf.get(id)),
      );
      for (const url of [...ack.images].filter((u) => !goneWithListing.has(u))) {
        const variant = url.replace(/\/[^/]+\.webp$/, '/640.webp');
        const res = await fetch(`${server.url}${variant}`);
        if (res.status !== 200) missingImages.push(`${variant}: ${res.status}`);
      }
      server.child.kill('SIGTERM');
      await server.exited;

      const consistency = await checkConsistency(dataDir, pg?.url);
      const sorted = [...figures.restartMs].sort((a, b) => a - b);
      console.log(
        `[figure] kill -9 (${engine}): ${JSON.stringify({
          kills: figures.kills,
          staleLockFilesLeft: figures.staleLocks,
          restartMedianMs: sorted[Math.floor(sorted.length / 2)],
          restartMaxMs: sorted.at(-1),
          acknowledgedListings: ack.listings.size,
          acknowledgedDeletes: ack.deleted.size,
          acknowledgedImages: ack.images.size,
          lostWrites: figures.lost,
          acknowledgedImagesMissing: missingImages.length,
          listingsInDb: consistency.listings,
          imageRows: consistency.images,
          files: consistency.files,
          listingsWithMissingFiles: consistency.listingsWithMissingFiles.length,
          filesWithoutOwnerRecord: consistency.filesWithoutOwnerRecord.length,
          imageRowsWithoutOwner: consistency.rowsWithoutOwner.length,
        })}`,
      );
      expect(figures.kills).toBe(KILLS);
      expect(figures.lost).toBe(0);
      expect(missingImages).toEqual([]);
      for (const id of ack.listings.keys()) {
        if (!ack.maybeDeleted.has(id)) expect(consistency.ids.listings.has(id)).toBe(true);
      }
      expect(consistency.listingsWithMissingFiles).toEqual([]);
      expect(consistency.filesWithoutOwnerRecord).toEqual([]);
      expect(consistency.rowsWithoutOwner).toEqual([]);
    }, 900_000);
  },
);
