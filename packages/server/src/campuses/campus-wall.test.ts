import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS, sessionCookieOf, signUpBody } from '../../test/accounts';
import { campusCommand, writeCampusFiles } from '../../test/campuses';
import { createPostgresDatabase, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { listingBody } from '../../test/listing-fixtures';
import { createUploadedImage } from '../../test/support/test-uploaded-image';
import { buildApp } from '../app';
import { loadConfig } from '../config/config';
import { openDatabase } from '../db/database';
import { runInCampus } from './campus-context';
import { openCampusInstallation, type CampusInstallation } from './campus-installation';
import { CampusPool, pointAt } from './campus-pool';

const HOSTS = { alpha: 'books.alpha.example', beta: 'books.beta.example' } as const;
type Key = keyof typeof HOSTS;

interface Student {
  id: string;
  cookie: string;
}

// The wall between campuses (decision 024), on PostgreSQL: two campuses of one installation, a
// student and a listing on each, and every way across tried.
describe.skipIf(TEST_ENGINE !== 'postgres')('two campuses, walled off', () => {
  let target: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let campuses: ReturnType<typeof writeCampusFiles>;
  let installation: CampusInstallation;
  let app: FastifyInstance;
  let t: TestApp;
  let admin: pg.Client;
  let dataDir: string;
  const students = {} as Record<Key, Student>;
  const listings = {} as Record<Key, string>;

  const send = (
    key: Key | string,
    method: 'GET' | 'POST',
    url: string,
    options: { payload?: object; cookie?: string } = {},
  ) =>
    app.inject({
      method,
      url,
      headers: {
        host: key in HOSTS ? HOSTS[key as Key] : key,
        ...(options.cookie ? { cookie: options.cookie } : {}),
      },
      ...(options.payload ? { payload: options.payload } : {}),
    });

  async function studentOf(key: Key): Promise<Student> {
    const body = signUpBody({ email: `student.${key}@${campuses.domains[key]}` });
    const signUp = await send(key, 'POST', '/api/auth/signup', { payload: body });
    expect(signUp.statusCode, signUp.body).toBe(201);
    const { rows } = await admin.query<{ id: string }>(
      `UPDATE campus_${key}.users SET email_verified_at = now() WHERE email = $1 RETURNING id`,
      [body.email],
    );
    const signIn = await send(key, 'POST', '/api/auth/signin', {
      payload: { email: body.email, password: body.password },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    return { id: rows[0]!.id, cookie: sessionCookieOf(signIn) };
  }

  async function listingOf(key: Key, student: Student, name: string): Promise<string> {
    const campus = installation.routing.campusOfHost(HOSTS[key])!;
    const image = await runInCampus(campus, () => createUploadedImage(t, student.id));
    const res = await send(key, 'POST', '/api/listing/create', {
      cookie: student.cookie,
      payload: listingBody({ name, imageUrls: [image] }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ _id: string }>()._id;
  }

  beforeAll(async () => {
    target = await createPostgresDatabase(true);
    campuses = writeCampusFiles(['alpha', 'beta']);
    for (const key of ['alpha', 'beta'] as const) {
      const added = await campusCommand(
        target.url,
        'add',
        key,
        '--host',
        HOSTS[key],
        '--config',
        campuses.files[key]!,
      );
      expect(added.code, added.err).toBe(0);
    }
    admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    const home = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 6 });
    installation = (await openCampusInstallation(home))!;
    dataDir = mkdtempSync(path.join(tmpdir(), 'cb-test-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      BOOK_LOOKUP: 'off',
      ...GENEROUS_LIMITS,
    });
    app = await buildApp({
      config,
      database: installation.database,
      campuses: installation.routing,
      jobs: { poll: false },
    });
    await app.ready();
    t = { app, database: installation.database, config, dataDir, close: async () => {} };
    students.alpha = await studentOf('alpha');
    students.beta = await studentOf('beta');
    listings.alpha = await listingOf('alpha', students.alpha, 'Alpha Organic Chemistry');
    listings.beta = await listingOf('beta', students.beta, 'Beta Organic Chemistry');
  });
  afterAll(async () => {
    await app?.close();
    await installation?.close();
    await admin?.end();
    await target?.drop();
    campuses?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
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
    // query would answer the second host with the first's (search-cache.ts keeps nothing then).
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
