import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { staleReadsAfterRenames, twoAppServersForSuite } from '../../../test/shared-database';

/**
 * GET /api/listing/get/{id} is kept in memory until the catalogue changes (search/listing-caches.ts),
 * on both engines: two app servers on one database, each with its own copy. A write acknowledged by
 * either is in the very next answer of both, though each had just answered (and kept) the listing.
 */
describe(`a listing's answer kept in memory, on two app servers (${TEST_ENGINE})`, () => {
  const servers = twoAppServersForSuite();

  const byIdOn = (t: TestApp, id: string) =>
    routeCaller(() => t)('GET /api/listing/get/:id', { params: { id } });
  const nameOn = async (t: TestApp, id: string) => {
    const res = await byIdOn(t, id);
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return dataOf(res).name;
  };

  it('100 renames through A, each read at once through B: none stale', async () => {
    const { a, b, seller } = servers;
    const listing = await createListingAs(a, seller, { name: 'Linear Algebra' });
    expect(await nameOn(b, listing._id)).toBe('Linear Algebra');
    const stale = await staleReadsAfterRenames(servers, listing, {
      count: 100,
      name: (edition) => `Linear Algebra, edition ${edition}`,
      readOnB: async () => [await nameOn(b, listing._id)],
    });
    expect(stale).toBe(0);
  }, 120_000);

  it('B answers from memory until the catalogue moves, not from the row', async () => {
    const { a, b, seller } = servers;
    const listing = await createListingAs(a, seller, { name: 'Thermodynamics' });
    // B learns of A's write first (its notification, or any kept answer's look, reads the version):
    // a miss loads without reading it (catalogue-kept.ts), and the late notification would empty
    // what the miss kept.
    await b.app.listingCaches.ensureFresh(b.app.listingCaches.generation());
    expect(await nameOn(b, listing._id)).toBe('Thermodynamics');
    // The row goes without moving the catalogue's version (its triggers off for the statement):
    // only a kept answer can still name it.
    await b.app.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`DELETE FROM listings WHERE id = ${listing._id}`);
    });
    expect(await nameOn(b, listing._id)).toBe('Thermodynamics');
    // Any write of listings moves it: the next answer is read again.
    await createListingAs(a, seller, { name: 'Statics' });
    expect((await byIdOn(b, listing._id)).status).toBe(404);
  });

  it.runIf(TEST_ENGINE === 'postgres')(
    'B trusts what it kept once it heard every change before the request, not reading the version',
    async () => {
      const { a, b, seller } = servers;
      const listing = await createListingAs(a, seller, { name: 'Fluid Mechanics' });
      await b.app.listingCaches.ensureFresh(b.app.listingCaches.generation());
      expect(await nameOn(b, listing._id)).toBe('Fluid Mechanics');
      // The version's row locked from every reader: a look that read it would wait for the lock.
      const locker = await b.app.database.pools!.main.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE catalogue_version IN ACCESS EXCLUSIVE MODE');
        const waited = new Promise<string>((resolve) =>
          setTimeout(() => resolve('waited for the version'), 5_000).unref(),
        );
        expect(await Promise.race([nameOn(b, listing._id), waited])).toBe('Fluid Mechanics');
      } finally {
        await locker.query('ROLLBACK');
        locker.release();
      }
    },
  );

  it('a listing deleted through A is gone through B at once, though B had just kept it', async () => {
    const { a, b, seller } = servers;
    const listing = await createListingAs(a, seller, { name: 'Organic Chemistry' });
    expect(await nameOn(b, listing._id)).toBe('Organic Chemistry');
    const deleted = await routeCaller(() => a)('DELETE /api/listing/delete/:id', {
      as: seller,
      params: { id: listing._id },
    });
    expect(deleted.status, deleted.ok ? '' : deleted.text).toBe(200);
    expect((await byIdOn(b, listing._id)).status).toBe(404);
  });

  it('25 visitors at once get the one listing, in any letter case of its id', async () => {
    const { b, seller } = servers;
    const listing = await createListingAs(b, seller, { name: 'Microeconomics' });
    const ids = Array.from({ length: 25 }, (_, n) =>
      n % 2 ? listing._id.toUpperCase() : listing._id,
    );
    const names = await Promise.all(ids.map((id) => nameOn(b, id)));
    expect(new Set(names)).toEqual(new Set(['Microeconomics']));
  });
});
