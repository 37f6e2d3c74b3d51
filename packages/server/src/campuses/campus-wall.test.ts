import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../test/helpers';
import { signUpBody } from '../../test/accounts';
import {
  CAMPUS_HOSTS as HOSTS,
  openTwoCampuses,
  type CampusKey as Key,
  type CampusStudent as Student,
  type TwoCampuses,
} from '../../test/two-campuses';
import { CampusPool, pointAt } from './campus-pool';

// The wall between campuses (decision 024), on PostgreSQL: two campuses of one installation, a
// student and a listing on each, and every way across tried (test/security/campus-isolation.test.ts
// walks the whole route table across it).
describe.skipIf(TEST_ENGINE !== 'postgres')('two campuses, walled off', () => {
  let two: TwoCampuses;
  let campuses: TwoCampuses['campuses'];
  let installation: TwoCampuses['installation'];
  let admin: TwoCampuses['admin'];
  const students = {} as Record<Key, Student>;
  const listings = {} as Record<Key, string>;

  const send = (
    key: Key | string,
    method: 'GET' | 'POST',
    url: string,
    options: { payload?: object; cookie?: string } = {},
  ) => two.send(key, method, url, options);

  beforeAll(async () => {
    two = await openTwoCampuses();
    ({ campuses, installation, admin } = two);
    students.alpha = await two.studentOf('alpha');
    students.beta = await two.studentOf('beta');
    listings.alpha = await two.listingOf('alpha', students.alpha, {
      name: 'Alpha Organic Chemistry',
    });
    listings.beta = await two.listingOf('beta', students.beta, { name: 'Beta Organic Chemistry' });
  });
  afterAll(async () => {
    await two?.close();
  });

  it('signs students up with their own campus school domain only', async () => {
    const wrong = signUpBody({ email: `someone@${campuses.domains.beta}` });
    const res = await send('alpha', 'POST', '/api/auth/signup', { payload: wrong });
    expect(res.statusCode).toBe(400);
    // Nothing written on either side.
    const { rows } = await admin.query(
      `SELECT 1 FROM campus_alpha.users WHERE email = $1 UNION ALL
       SELECT 1 FROM campus_beta.users WHERE email = $1`,
      [wrong.email],
    );
    expect(rows).toEqual([]);
  });

  it('keeps each listing in its campus schema and the default campus empty', async () => {
    const { rows } = await admin.query(
      `SELECT 'alpha' AS campus, id FROM campus_alpha.listings UNION ALL
       SELECT 'beta', id FROM campus_beta.listings UNION ALL SELECT 'public', id FROM public.listings`,
    );
    expect(rows).toEqual([
      { campus: 'alpha', id: listings.alpha },
      { campus: 'beta', id: listings.beta },
    ]);
  });

  it('searches each campus only', async () => {
    const searches: Record<Key, [string, string, string]> = {
      alpha: ['organic', 'organic chemistry', 'beta'],
      beta: ['organic chem', 'chemistry organic', 'alpha'],
    };
    for (const key of ['alpha', 'beta'] as const) {
      const [first, second, other] = searches[key];
      for (const term of [first, second]) {
        const res = await send(
          key,
          'GET',
          `/api/listing/get?searchTerm=${encodeURIComponent(term)}`,
        );
        expect(res.statusCode).toBe(200);
        const ids = res.json<{ _id: string }[]>().map((l) => l._id);
        expect(ids, `${key} ${term}`).toEqual([listings[key]]);
        expect(res.headers['x-total-count']).toBe('1');
      }
      // The other campus's own word finds nothing here.
      const across = await send(key, 'GET', `/api/listing/get?searchTerm=${other}`);
      expect(across.json()).toEqual([]);
      expect(across.headers['x-total-count']).toBe('0');
    }
  });

  it('never serves a search, course page or listing answered for one host to another', async () => {
    // The same addresses on both hosts, one after the other: a process-wide cache keyed by the
    // query would answer the second host with the first's (each campus keeps its own: campus-cache-scope.ts).
    const term = 'organic chemistry';
    for (const [first, second] of [
      ['alpha', 'beta'],
      ['beta', 'alpha'],
    ] as const) {
      for (const key of [first, second]) {
        const res = await send(
          key,
          'GET',
          `/api/listing/get?searchTerm=${encodeURIComponent(term)}`,
        );
        expect(
          res.json<{ _id: string }[]>().map((l) => l._id),
          `${key} after ${first}`,
        ).toEqual([listings[key]]);
        const all = await send(key, 'GET', '/api/listing/get');
        expect(all.json<{ _id: string }[]>().map((l) => l._id)).toEqual([listings[key]]);
      }
    }
  });

  it('finds no listing, profile or conversation across the wall', async () => {
    expect((await send('beta', 'GET', `/api/listing/get/${listings.beta}`)).statusCode).toBe(200);
    const listing = await send('alpha', 'GET', `/api/listing/get/${listings.beta}`);
    expect(listing.statusCode).toBe(404);
    expect(listing.json()).toMatchObject({ success: false, statusCode: 404 });

    const profile = `/api/profiles/${students.beta.id}`;
    expect((await send('beta', 'GET', profile, { cookie: students.beta.cookie })).statusCode).toBe(
      200,
    );
    expect(
      (await send('alpha', 'GET', profile, { cookie: students.alpha.cookie })).statusCode,
    ).toBe(404);

    const start = await send('alpha', 'POST', '/api/conversations', {
      cookie: students.alpha.cookie,
      payload: { listingId: listings.beta, text: 'Is it still for sale?' },
    });
    expect(start.statusCode).toBe(404);
    const { rows } = await admin.query(
      'SELECT 1 FROM campus_alpha.conversations UNION ALL SELECT 1 FROM campus_beta.conversations',
    );
    expect(rows).toEqual([]);
  });

  it("does not take one campus's session on another's host", async () => {
    const own = await send('alpha', 'GET', '/api/auth/me', { cookie: students.alpha.cookie });
    expect(own.statusCode).toBe(200);
    const across = await send('beta', 'GET', '/api/auth/me', { cookie: students.alpha.cookie });
    expect(across.statusCode).toBe(401);
  });

  it('refuses a host no campus has, in the API error shape, but answers the health check', async () => {
    for (const url of ['/api/listing/get', `/api/listing/get/${listings.alpha}`, '/api/campus']) {
      const res = await send('books.unknown.example', 'GET', url);
      expect(res.statusCode).toBe(421);
      expect(res.json()).toEqual({
        success: false,
        statusCode: 421,
        message: 'No campus is served at books.unknown.example',
      });
    }
    // The host with a port is its campus's.
    const withPort = await send(`${HOSTS.alpha}:8443`, 'GET', `/api/listing/get/${listings.alpha}`);
    expect(withPort.statusCode).toBe(200);
    expect((await send('10.0.0.5:3000', 'GET', '/api/health')).statusCode).toBe(200);
  });

  it('serves each campus its own configuration', async () => {
    const alpha = await send('alpha', 'GET', '/api/campus');
    const beta = await send('beta', 'GET', '/api/campus');
    expect(alpha.json()).toMatchObject({ name: 'alpha University' });
    expect(beta.json()).toMatchObject({ name: 'beta University' });
  });

  it("second wall: with the search path left at another campus's schema or public, a campus's role reads nothing", async () => {
    const pool = installation.database.pools!.main;
    const alphaPool = new CampusPool(pool, 'campus_alpha');
    const connection = await alphaPool.connect();
    try {
      // The first wall disabled: alpha's connection looks at beta's schema, then at public.
      await connection.query('SET search_path TO campus_beta, public');
      // Beta's schema is skipped (no right to look in it): the name finds public's table, refused.
      await expect(connection.query('SELECT id FROM listings')).rejects.toThrow(
        /permission denied for table listings/,
      );
      await expect(connection.query('SELECT id FROM campus_beta.users')).rejects.toThrow(
        /permission denied for schema campus_beta/,
      );
      await connection.query('SET search_path TO public');
      await expect(connection.query('SELECT id FROM listings')).rejects.toThrow(
        /permission denied for table listings/,
      );
      await expect(connection.query('SELECT key FROM directory.campuses')).rejects.toThrow(
        /permission denied for schema directory/,
      );
    } finally {
      // Never back to the pool with a search path it does not know.
      connection.release(new Error('search path changed by the test'));
    }
  });

  it('plans a prepared statement again when a connection moves to another campus', async () => {
    const connection = await installation.database.pools!.main.connect();
    try {
      const statement = { name: 'campus_wall_listing_ids', text: 'SELECT id FROM listings' };
      await pointAt(connection, 'campus_alpha');
      expect((await connection.query(statement)).rows).toEqual([{ id: listings.alpha }]);
      await pointAt(connection, 'campus_beta');
      expect((await connection.query(statement)).rows).toEqual([{ id: listings.beta }]);
      await pointAt(connection, 'public');
      expect((await connection.query(statement)).rows).toEqual([]);
    } finally {
      connection.release();
    }
  });
});
