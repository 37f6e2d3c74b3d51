import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campusCommand, writeCampusFiles } from '../../test/campuses';
import { createPostgresDatabase, TEST_ENGINE } from '../../test/helpers';
import { readDirectory, type ParsedConfigs } from './campus-directory';
import { migrateCampus } from './campus-provision';

// Several campuses need PostgreSQL (decision 024): this file runs in the server:postgres project.
describe.skipIf(TEST_ENGINE !== 'postgres')('the campus directory: campus add and list', () => {
  let target: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let campuses: ReturnType<typeof writeCampusFiles>;
  let client: pg.Client;

  beforeAll(async () => {
    target = await createPostgresDatabase(true);
    campuses = writeCampusFiles(['alpha', 'beta']);
    client = new pg.Client({ connectionString: target.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await target?.drop();
    campuses?.remove();
  });

  it('refuses to add a campus without PostgreSQL, the embedded database serving one', async () => {
    const res = await campusCommand(
      undefined,
      'add',
      'alpha',
      '--host',
      'a.example',
      '--config',
      campuses.files.alpha!,
    );
    expect(res.code).toBe(78);
    expect(res.err).toMatch(/need PostgreSQL: set DATABASE_URL/);
  });

  it('lists no campus before any is added', async () => {
    const res = await campusCommand(target.url, 'list');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/No campus is registered/);
  });

  it('adds two campuses: a role and a schema each, migrated, registered with their hosts', async () => {
    const alpha = await campusCommand(
      target.url,
      'add',
      'alpha',
      '--host',
      'Books.Alpha.example',
      '--config',
      campuses.files.alpha!,
    );
    expect(alpha.err).toBe('');
    expect(alpha.code).toBe(0);
    expect(alpha.out).toMatch(
      /Added campus alpha \(alpha University\) at books\.alpha\.example: schema campus_alpha on home, \d+ migrations applied/,
    );
    const beta = await campusCommand(
      target.url,
      'add',
      'beta',
      '--host',
      'books.beta.example',
      '--host',
      'beta.example:8443',
      '--config',
      campuses.files.beta!,
    );
    expect(beta.code).toBe(0);

    const directory = await readDirectory(client);
    expect(directory.map((c) => [c.key, c.hosts, c.schema, c.server, c.state])).toEqual([
      ['alpha', ['books.alpha.example'], 'campus_alpha', null, 'active'],
      ['beta', ['books.beta.example', 'beta.example:8443'], 'campus_beta', null, 'active'],
    ]);
    expect(directory[1]!.config.emailDomain).toBe(campuses.domains.beta);
    // Each schema is owned by its own role, which cannot log in.
    const { rows } = await client.query(
      `SELECT n.nspname, r.rolname, r.rolcanlogin FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner
        WHERE n.nspname IN ('campus_alpha', 'campus_beta') ORDER BY 1`,
    );
    expect(rows).toEqual([
      { nspname: 'campus_alpha', rolname: 'campus_alpha', rolcanlogin: false },
      { nspname: 'campus_beta', rolname: 'campus_beta', rolcanlogin: false },
    ]);
    // Every table of the default campus's schema exists in each, owned by the campus's role.
    const tables = await client.query<{ schemaname: string; count: string; owners: string[] }>(
      `SELECT schemaname, count(*), array_agg(DISTINCT tableowner::text) AS owners FROM pg_tables
        WHERE schemaname IN ('public', 'campus_alpha') AND tablename <> '__drizzle_migrations'
        GROUP BY schemaname ORDER BY schemaname`,
    );
    const [alphaTables, publicTables] = tables.rows;
    expect(Number(alphaTables!.count)).toBe(Number(publicTables!.count));
    expect(alphaTables!.owners).toEqual(['campus_alpha']);
    // The deal's triggers write in the campus's schema and NOTIFY on the campus's own channel.
    const notify = await client.query<{ src: string }>(
      `SELECT p.prosrc AS src FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'campus_beta' AND p.proname = 'conversation_event_written'`,
    );
    expect(notify.rows[0]!.src).toContain(`pg_notify('conversation_events.campus_beta'`);
    expect(notify.rows[0]!.src).toContain('"campus_beta".conversations');
    expect(notify.rows[0]!.src).not.toContain('public.');
  });

  it('parses a campus file again only when its stored text changed, as the servers poll it', async () => {
    const parsed: ParsedConfigs = new Map();
    const [first] = await readDirectory(client, parsed);
    const [again] = await readDirectory(client, parsed);
    expect(again!.config).toBe(first!.config);
    await client.query(
      `UPDATE directory.campuses SET config = jsonb_set(config, '{name}', '"Alpha Renamed"')
        WHERE key = 'alpha'`,
    );
    const [renamed] = await readDirectory(client, parsed);
    expect(renamed!.config).not.toBe(first!.config);
    expect(renamed!.config.name).toBe('Alpha Renamed');
    await client.query(`UPDATE directory.campuses SET config = $1 WHERE key = 'alpha'`, [
      JSON.stringify(first!.config),
    ]);
    expect((await readDirectory(client, parsed))[0]!.config.name).toBe(first!.config.name);
  });

  it('migrating a campus schema again is a no-op', async () => {
    const [alpha] = await readDirectory(client);
    const before = await client.query(`SELECT count(*) FROM campus_alpha.__drizzle_migrations`);
    expect(await migrateCampus(client, alpha!)).toEqual([]);
    const after = await client.query(`SELECT count(*) FROM campus_alpha.__drizzle_migrations`);
    expect(after.rows).toEqual(before.rows);
    await client.query('RESET ROLE; SET search_path TO DEFAULT');
  });

  it('refuses a key or a host another campus has, a bad key and an invalid campus file', async () => {
    const again = await campusCommand(
      target.url,
      'add',
      'alpha',
      '--host',
      'new.example',
      '--config',
      campuses.files.alpha!,
    );
    expect([again.code, again.err]).toEqual([73, 'a campus "alpha" is registered already\n']);
    const host = await campusCommand(
      target.url,
      'add',
      'gamma',
      '--host',
      'BETA.example:8443',
      '--config',
      campuses.files.alpha!,
    );
    expect([host.code, host.err]).toEqual([73, `beta.example:8443 is campus "beta"'s already\n`]);
    const key = await campusCommand(
      target.url,
      'add',
      'Gamma-1',
      '--host',
      'g.example',
      '--config',
      campuses.files.alpha!,
    );
    expect(key.code).toBe(65);
    const file = await campusCommand(
      target.url,
      'add',
      'gamma',
      '--host',
      'g.example',
      '--config',
      '/nonexistent.yaml',
    );
    expect(file.code).toBe(65);
    expect(file.err).toMatch(/no such file/);
    const usage = await campusCommand(
      target.url,
      'add',
      'gamma',
      '--config',
      campuses.files.alpha!,
    );
    expect(usage.code).toBe(64);
    expect((await readDirectory(client)).map((c) => c.key)).toEqual(['alpha', 'beta']);
  });

  it('lists the campuses with their hosts, server, students, listings and last activity', async () => {
    await client.query(
      `INSERT INTO campus_beta.users (first_name, last_name, username, email, password_hash, groupmelink)
       VALUES ('A', 'B', 'ab', 'ab@beta.example.edu', 'x', '')`,
    );
    const res = await campusCommand(target.url, 'list');
    expect(res.code).toBe(0);
    const lines = res.out
      .trim()
      .split('\n')
      .map((l) => l.split(/\s{2,}/));
    expect(lines[0]).toEqual(['key', 'hosts', 'server', 'students', 'listings', 'last activity']);
    expect(lines[1]).toEqual(['alpha', 'books.alpha.example', 'home', '0', '0', 'none']);
    expect(lines[2]!.slice(0, 5)).toEqual([
      'beta',
      'books.beta.example,beta.example:8443',
      'home',
      '1',
      '0',
    ]);
    expect(lines[2]![5]).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
