import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campusCommandWithEnv, writeCampusFiles } from '../../test/campuses';
import { createPostgresDatabase, TEST_ENGINE } from '../../test/helpers';
import { openDatabase } from '../db/database';
import { openCampusInstallation } from './campus-installation';
import { readCampusVersion } from './campus-versions';

// An installation whose login role is not a superuser (docs/operations.md, "Adding a campus"): a
// role that owns its database and may create roles, as an operator sets one up. It inherits no
// campus's rights (NOINHERIT, as PostgreSQL 16's grants WITH INHERIT FALSE give on any version), so
// everything it reads of a campus goes through SET ROLE, except the catalogue version that
// `campus add` and every start-up grant it (campus-catalogue.ts) for the versions read together.
describe.skipIf(TEST_ENGINE !== 'postgres')('a login role that is not a superuser', () => {
  const suffix = randomUUID().replace(/-/g, '').slice(0, 12);
  const login = `cb_login_${suffix}`;
  const key = `grant_${suffix}`;
  const schema = `campus_${key}`;
  const campuses = writeCampusFiles([key]);
  let target: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let admin: pg.Client;
  let loginUrl: string;
  let pool: pg.Pool;

  const privilege = async (table: string) =>
    (
      await admin.query<{ ok: boolean }>(`SELECT has_table_privilege($1, $2, 'SELECT') AS ok`, [
        login,
        `${schema}.${table}`,
      ])
    ).rows[0]!.ok;
  const bump = () =>
    admin.query(`UPDATE ${schema}.catalogue_version SET version = version + 1 WHERE id = 1`);
  const versionOf = async () =>
    Number(
      (await admin.query(`SELECT version FROM ${schema}.catalogue_version WHERE id = 1`)).rows[0]
        .version,
    );

  beforeAll(async () => {
    target = await createPostgresDatabase(false);
    admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query(`CREATE ROLE ${login} LOGIN CREATEROLE NOINHERIT`);
    const database = new URL(target.url).pathname.slice(1);
    await admin.query(`ALTER DATABASE ${database} OWNER TO ${login}`);
    // NOINHERIT also withholds what pg_database_owner may do in `public`: the role owns it instead.
    await admin.query(`ALTER SCHEMA public OWNER TO ${login}`);
    const url = new URL(target.url);
    url.username = login;
    loginUrl = url.toString();
    pool = new pg.Pool({ connectionString: loginUrl, max: 2 });
    // The pool's end does not wait for its connections to close, and the database's drop (WITH
    // FORCE) may end one still closing: that is no failure of the test (as the product's pools).
    pool.on('error', () => {});
  });

  afterAll(async () => {
    await pool?.end();
    await admin?.end();
    await target?.drop();
    const server = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await server.connect();
    await server.query(`DROP ROLE IF EXISTS ${schema}`);
    await server.query(`DROP ROLE IF EXISTS ${login}`);
    await server.end();
    campuses.remove();
  });

  it('adds a campus: its role and schema made, the login role reading its version and no student data', async () => {
    const added = await campusCommandWithEnv(
      {},
      loginUrl,
      'add',
      key,
      '--host',
      'books.grant.example',
      '--config',
      campuses.files[key]!,
    );
    expect(added.code, added.err).toBe(0);
    const { rows } = await admin.query<{ rolsuper: boolean; owner: string }>(
      `SELECT r.rolsuper, n.nspowner::regrole::text AS owner
         FROM pg_roles r, pg_namespace n WHERE r.rolname = $1 AND n.nspname = $2`,
      [login, schema],
    );
    expect(rows).toEqual([{ rolsuper: false, owner: schema }]);
    expect(await privilege('catalogue_version')).toBe(true);
    for (const table of ['users', 'listings', 'conversation_events'])
      expect(await privilege(table)).toBe(false);
    const before = await versionOf();
    await expect(readCampusVersion(pool, schema)).resolves.toBe(before);
    await bump();
    await expect(readCampusVersion(pool, schema)).resolves.toBe(before + 1);
  });

  it('grants the read again at start-up when it was taken away', async () => {
    await admin.query(`REVOKE SELECT ON ${schema}.catalogue_version FROM ${login}`);
    expect(await privilege('catalogue_version')).toBe(false);
    await expect(readCampusVersion(pool, schema)).rejects.toThrow(/permission denied/);
    const home = await openDatabase({ engine: 'postgres', url: loginUrl, poolSize: 2 });
    const installation = await openCampusInstallation(home);
    try {
      expect(installation?.routing.campusOfHost('books.grant.example')?.key).toBe(key);
      expect(await privilege('catalogue_version')).toBe(true);
      await expect(readCampusVersion(pool, schema)).resolves.toBe(await versionOf());
    } finally {
      // The installation closes its home database with it.
      await (installation ?? home).close();
    }
  });
});
