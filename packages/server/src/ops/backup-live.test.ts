import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { callRouteData, type ApiCallOptions } from '@campus-books/common/call-route';
import { TEST_ENGINE } from '../../test/helpers';
import { listingBody } from '../../test/listing-fixtures';
import { runBackup } from './backup-command';
import { photo } from '../../test/support/catalogue';
import { addUser, createInstallation, startApp } from '../../test/support/ops-installations';
import { noProgress } from './progress';
import { runRestore } from './restore-command';
import { startServer, stopServer } from '../../test/support/server-process';

const WRITES_PER_SELLER = 8;

/** A student's session against the server process, over real HTTP. */
function client(base: string, cookie: string) {
  const call = (method: string, url: string, init: RequestInit = {}) =>
    fetch(`${base}${url}`, {
      method,
      ...init,
      headers: { cookie, ...(init.headers as Record<string, string>) },
    });
  return {
    async upload(bytes: Buffer) {
      const created = await call('POST', '/api/uploads', {
        headers: { 'tus-resumable': '1.0.0', 'upload-length': String(bytes.length) },
      });
      if (created.status !== 201)
        throw new Error(`create ${created.status} ${await created.text()}`);
      const location = created.headers.get('location')!;
      const sent = await call('PATCH', location, {
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        body: bytes,
      });
      if (sent.status !== 200) throw new Error(`patch ${sent.status} ${await sent.text()}`);
      return { location, url: ((await sent.json()) as { url: string }).url };
    },
    // The API's routes through common's typed caller; a failure throws with its status and message.
    createListing: (body: ApiCallOptions<'POST /api/listing/create'>['body']) =>
      callRouteData(base, 'POST /api/listing/create', { as: { cookie }, body }),
    deleteListing: (id: string) =>
      callRouteData(base, 'DELETE /api/listing/delete/:id', { as: { cookie }, params: { id } }),
    markSold: (id: string) =>
      callRouteData(base, 'POST /api/listing/mark-as-sold/:id', { as: { cookie }, params: { id } }),
    delete: (url: string) => call('DELETE', url, { headers: { 'tus-resumable': '1.0.0' } }),
  };
}

describe(`a backup of a running server while students write (${TEST_ENGINE})`, () => {
  const work = mkdtempSync(path.join(tmpdir(), 'cb-live-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('restores to a consistent state: no listing without its images, no image without its owner', async () => {
    const source = await createInstallation(TEST_ENGINE);
    const target = await createInstallation(TEST_ENGINE);
    try {
      const seed = await startApp(source);
      const sellers = [await addUser(seed), await addUser(seed), await addUser(seed)];
      await seed.close();

      const server = await startServer({
        env: { ...source.env, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
      });
      const archive = path.join(work, 'live.tar');
      try {
        const sessions = [];
        for (const seller of sellers) {
          const res = await fetch(`${server.url}/api/auth/signin`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: seller.email, password: seller.password }),
          });
          expect(res.status).toBe(200);
          sessions.push(client(server.url, res.headers.get('set-cookie')!.split(';')[0]!));
        }

        let created = 0;
        let stop = false;
        let firstWrites: () => void;
        const started = new Promise<void>((resolve) => (firstWrites = resolve));
        // Each seller uploads, lists, cancels an upload (its files are deleted) and deletes a listing.
        const writers = sessions.map(async (s, n) => {
          let previous: string | undefined;
          for (let i = 0; i < WRITES_PER_SELLER && !stop; i += 1) {
            const image = await s.upload(await photo(n * 100 + i));
            const listing = await s.createListing(
              listingBody({ name: `Live ${n}-${i}`, imageUrls: [image.url] }),
            );
            const cancelled = await s.upload(await photo(n * 100 + i + 50));
            expect((await s.delete(cancelled.location)).status).toBe(200);
            if (previous && i % 2 === 0) await s.deleteListing(previous);
            previous = listing._id;
            if (i % 3 === 2) await s.markSold(previous);
            created += 1;
            if (created === 3) firstWrites();
          }
        });
        await Promise.race([started, Promise.all(writers)]);
        const lines: string[] = [];
        const summary = await runBackup({
          config: source.config,
          file: archive,
          serverUrl: server.url,
          progress: noProgress,
          log: (line) => lines.push(line),
        });
        // On PGlite only the server may open the database, so it streams the archive itself.
        const viaServer = lines.some((l) => l.includes('The server holds the embedded database'));
        expect(viaServer).toBe(TEST_ENGINE === 'pglite');
        stop = true;
        await Promise.all(writers);
        expect(summary).toMatch(/^backup: 3 users, \d+ listings/);
      } finally {
        expect(await stopServer(server)).toBe(0);
      }

      // The restore verifies counts, checksums and that every listing's images are stored.
      await runRestore({
        config: target.config,
        file: archive,
        progress: noProgress,
        log: () => {},
      });
      const restored = await startApp(target);
      try {
        const count = async (query: ReturnType<typeof sql>) =>
          Number(
            ((await restored.database.db.execute(query)) as unknown as { rows: { n: number }[] })
              .rows[0]!.n,
          );
        expect(
          await count(sql`SELECT count(*)::int AS n FROM listings l, unnest(l.image_urls) AS u(url)
            WHERE NOT EXISTS (SELECT 1 FROM images i WHERE u.url = '/api/images/' || i.id::text || '/1280.webp'
              AND i.status IN ('ready', 'attached'))`),
        ).toBe(0);
        expect(await count(sql`SELECT count(*)::int AS n FROM images WHERE owner_id IS NULL`)).toBe(
          0,
        );
        expect(await count(sql`SELECT count(*)::int AS n FROM listings`)).toBeGreaterThan(0);
        const urls = (await restored.database.db.execute(
          sql`SELECT unnest(image_urls) AS url FROM listings`,
        )) as unknown as { rows: { url: string }[] };
        for (const { url } of urls.rows) {
          expect((await restored.app.inject({ method: 'GET', url })).statusCode).toBe(200);
        }
      } finally {
        await restored.close();
      }
    } finally {
      await target.close();
      await source.close();
    }
  }, 180_000);
});
