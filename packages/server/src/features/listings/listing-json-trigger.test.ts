import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { dataOf } from '@campus-books/common/call-route';
import { listingSchema } from '@campus-books/common/listing.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';
import { routeCaller } from '../../../test/api-caller';
import {
  ensureListingJson,
  listingJsonDefinition,
  listingJsonOfRow,
} from '../../db/listing-json-trigger';
import { rowsOf } from '../../db/rows';
import { listings } from '../../db/schema';
import { listingJson } from './listing-json-answer';
import { toListing } from './listing.serializer';

describe(`a listing's JSON written by the database (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let ids: string[];
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    ids = await insertListings(t, seller.id, [
      { name: 'Calculus: Early Transcendentals', imageUrls: [], schools: [] },
      {
        name: 'Organic "Chemistry" \\ 2nd\tEdition \u2028 é 漢字 🙂',
        description: 'Line one\nline two\u0001, </script>',
        condition: 'mint',
        regularPrice: 221.01,
        discountPrice: 139.07,
        schools: ['LawProfessional', 'Jepson', 'ArtScience'],
        imageUrls: ['/api/images/a/large.webp', '/api/images/b/large.webp'],
        pickupLocation: null,
        isbn: '9780306406157',
        authors: 'A. Author; B. Author',
        edition: '2nd',
        subject: 'CHEM',
        publisherCoverUrl: '/api/images/b/large.webp',
        type: 'rent',
      },
      { name: 'Free book', regularPrice: 0, discountPrice: 0, schools: ['Bschool'] },
      { name: 'Priced', regularPrice: 12.5, discountPrice: 0.1 },
    ]);
    // Microseconds, and a time at the end of a second: the answer keeps milliseconds, truncated.
    await t.database.db
      .update(listings)
      .set({
        createdAt: sql`timestamptz '2026-01-01 23:59:59.999999+00'`,
        updatedAt: sql`timestamptz '2026-03-04 05:06:07.123456+02'`,
        confirmedAt: sql`timestamptz '1999-12-31 23:59:59.0005+00'`,
        heldUntil: sql`timestamptz '2026-02-02 10:00:00.123456+00'`,
      })
      .where(eq(listings.id, ids[1]!));
  });
  afterAll(() => t.close());

  /** The stored text of each listing against toListing of its row, both as JSON.stringify writes them. */
  const storedAndExpected = async () =>
    Promise.all(
      ids.map(async (id) => {
        const [row] = await t.database.db.select().from(listings).where(eq(listings.id, id));
        const [written] = await t.database.db
          .select({ json: listingJson, computed: listingJsonOfRow() })
          .from(listings)
          .where(eq(listings.id, id));
        return {
          stored: written!.json === null ? null : JSON.stringify(JSON.parse(written!.json)),
          computed: JSON.stringify(JSON.parse(written!.computed)),
          expected: JSON.stringify(toListing(row!)),
        };
      }),
    );

  it('is, field for field and in the same order, what toListing gives of the row', async () => {
    for (const { stored, computed, expected } of await storedAndExpected()) {
      expect(computed).toBe(expected);
      expect(stored).toBe(expected);
    }
  });

  it('is written again by every update of the row, whatever the columns changed', async () => {
    await t.database.db
      .update(listings)
      .set({ name: 'Renamed', schools: ['Bschool'], condition: 'poor', regularPrice: 3.5 })
      .where(eq(listings.id, ids[0]!));
    await t.database.db
      .update(listings)
      .set({ expiresAt: sql`timestamptz '2030-06-01 12:00:00.25+00'` })
      .where(eq(listings.id, ids[2]!));
    for (const { stored, expected } of await storedAndExpected()) expect(stored).toBe(expected);
    expect(JSON.parse((await storedAndExpected())[0]!.stored!)).toMatchObject({
      name: 'Renamed',
      Bschool: true,
      school: 'Bschool',
      condition: 'poor',
      regularPrice: 3.5,
    });
  });

  it("is rewritten for every listing when the database's function is of another version", async () => {
    const { db } = t.database;
    const fingerprint = async () =>
      (
        await rowsOf<{ f: string }>(
          db,
          sql`SELECT obj_description('public.listing_json(public.listings)'::regprocedure, 'pg_proc') AS f`,
        )
      )[0]!.f;
    expect(await fingerprint()).toBe(listingJsonDefinition().fingerprint);
    const spoil = async () => {
      await db.execute(sql`ALTER TABLE listings DISABLE TRIGGER listings_write_json`);
      await db.execute(sql`UPDATE listings SET listing_json = '{"stale":true}'`);
      await db.execute(sql`ALTER TABLE listings ENABLE TRIGGER listings_write_json`);
    };
    // Same version: a start reads the fingerprint and writes nothing.
    await spoil();
    await ensureListingJson(db);
    for (const { stored } of await storedAndExpected()) expect(stored).toBe('{"stale":true}');
    // Another version (an older server's, a campus that renamed a school): defined again, rewritten.
    await db.execute(sql`COMMENT ON FUNCTION public.listing_json(public.listings) IS 'older'`);
    await ensureListingJson(db);
    expect(await fingerprint()).toBe(listingJsonDefinition().fingerprint);
    for (const { stored, expected } of await storedAndExpected()) expect(stored).toBe(expected);
  });

  it("makes the search's answer, which keeps to the listing schema", async () => {
    const res = await routeCaller(() => t)('GET /api/listing/get', { query: { limit: 10 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const answer = dataOf(res);
    expect(answer).toHaveLength(ids.length);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(z.array(listingSchema).parse(answer)));
  });
});
