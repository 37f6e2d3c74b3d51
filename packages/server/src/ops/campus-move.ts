import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { activeCampus, setActiveCampus } from '@campus-books/common/active-campus';
import type { CampusConfig } from '@campus-books/common/campus-config';
import pg from 'pg';
import { currentCampusWork } from '../campuses/campus-context';
import {
  ensureDirectory,
  readDirectory,
  setCampusState,
  switchCampusServer,
  type CampusEntry,
} from '../campuses/campus-directory';
import { pointAt } from '../campuses/campus-pool';
import { createCampusSchema, migrateCampus } from '../campuses/campus-provision';
import { quoted } from '../campuses/campus-schema';

/**
 * `npm run campus -- move <key> --to <url>` and `drop-old <key>` (docs/operations.md, "Moving a
 * campus to another PostgreSQL server"): the campus's schema is copied with pg_dump and pg_restore while
 * the campus is `moving` (app servers refuse its writes), checked table by table, then the
 * directory points at the new server. The old schema stays until `drop-old`.
 */
export class CampusMoveError extends Error {
  constructor(
    message: string,
    /** The command's exit code: 65 bad request, 73 target taken, 75 not now, 70 failed. */
    readonly code: number,
  ) {
    super(message);
    this.name = 'CampusMoveError';
  }
}

export interface MoveCampusOptions {
  homeUrl: string;
  key: string;
  /** The target PostgreSQL server's URL (a database there). */
  to: string;
  /**
   * How long to wait once the campus is `moving` before copying: longer than the app servers' poll
   * of the directory (CAMPUS_STATE_POLL_MS), so each refuses the campus's writes by then.
   */
  settleMs: number;
  out: (text: string) => void;
  /** Runs once the campus is `moving` and the wait is over, before the copy (tests write then). */
  whileMoving?: () => Promise<void>;
}

export interface TableFigures {
  rows: number;
  /** An order-free checksum of the rows' text. */
  sum: string;
}

/** The tables and sequences of a campus's schema, with each table's figures, read as its role. */
async function figuresOf(client: pg.ClientBase, schema: string) {
  const { rows: tables } = await client.query<{ name: string }>(
    'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename',
    [schema],
  );
  const figures = new Map<string, TableFigures | string>();
  for (const { name } of tables) {
    const { rows } = await client.query<{ rows: string; sum: string }>(
      `SELECT count(*) AS rows, coalesce(sum(hashtext(t::text)::bigint), 0)::text AS sum
         FROM ${quoted(schema)}.${quoted(name)} t`,
    );
    figures.set(name, { rows: Number(rows[0]!.rows), sum: rows[0]!.sum });
  }
  const { rows: sequences } = await client.query<{ name: string }>(
    'SELECT sequencename AS name FROM pg_sequences WHERE schemaname = $1 ORDER BY sequencename',
    [schema],
  );
  for (const { name } of sequences) {
    const { rows } = await client.query<{ last: string; called: boolean }>(
      `SELECT last_value::text AS last, is_called AS called FROM ${quoted(schema)}.${quoted(name)}`,
    );
    figures.set(`sequence ${name}`, `${rows[0]!.last}/${rows[0]!.called}`);
  }
  return figures;
}

/** Runs a program; rejects with what it wrote on stderr when it fails. Its stdout. */
function run(program: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', (error) => reject(new Error(`${program} could not run: ${error.message}`)));
    child.on('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${program} failed (${code}): ${errors.trim()}`)),
    );
  });
}

/**
 * The restore's order: pg_dump cannot see that a SQL function's body calls another (the listing
 * name's word array calls its words), so it may create a table whose generated column inlines the
 * first before the second exists. Every function whose arguments name none of the schema's types
 * is created first (their bodies are not checked on creation), the rest in pg_dump's order.
 */
export function restoreOrder(list: string, schema: string): string {
  const lines = list.split('\n');
  const isEarly = (line: string) =>
    new RegExp(`^\\d+; \\d+ \\d+ FUNCTION ${schema} [^(]+\\(`).test(line) &&
    !line.slice(line.indexOf('(')).includes(`${schema}.`);
  const early = lines.filter(isEarly);
  const rest = lines.filter((line) => !isEarly(line));
  const at = rest.findIndex((line) => / SCHEMA - /.test(line)) + 1;
  return [...rest.slice(0, at), ...early, ...rest.slice(at)].join('\n');
}

/**
 * pg_dump of one schema (as its role, at the snapshot the source's figures read) into a private
 * temporary file, then pg_restore on the target in one transaction, which creates the schema.
 */
async function dumpInto(from: string, to: string, schema: string, snapshot: string): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'campus-move-'));
  const archive = path.join(folder, `${schema}.dump`);
  const order = path.join(folder, 'order.list');
  try {
    await run(process.env.PG_DUMP || 'pg_dump', [
      ...['--dbname', from, '--schema', schema, '--role', schema, '--snapshot', snapshot],
      ...['--format', 'custom', '--compress', '0', '--no-sync', '--file', archive],
    ]);
    const restore = process.env.PG_RESTORE || 'pg_restore';
    writeFileSync(order, restoreOrder(await run(restore, ['--list', archive]), schema));
    await run(restore, [
      ...['--dbname', to, '--single-transaction', '--exit-on-error'],
      ...['--use-list', order, archive],
    ]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function connected(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  return client;
}

/** The same PostgreSQL server and database, whatever the user or password. */
function sameDatabase(a: string, b: string): boolean {
  const at = (url: string) => {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  };
  return at(a) === at(b);
}

/** The step's name and how long it took, printed as it ends. */
async function step<T>(out: (text: string) => void, name: string, work: () => Promise<T>) {
  const started = performance.now();
  const done = await work();
  out(`  ${name}: ${Math.round(performance.now() - started)} ms\n`);
  return done;
}

/** The session lock one move of a campus holds throughout (`campus update` takes it too). */
const MOVE_LOCK = `hashtext('campus move ' || $1)`;

/** Takes campus `key`'s move lock if it is free; whether it was. */
export async function takeMoveLock(client: pg.ClientBase, key: string): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(
    `SELECT pg_try_advisory_lock(${MOVE_LOCK}) AS ok`,
    [key],
  );
  return rows[0]!.ok;
}

/**
 * Gives campus `key`'s move lock back. Before a session that holds another lock as well ends:
 * ending it releases its locks in no set order, so a command waiting on the other could find this
 * one still held.
 */
export async function giveBackMoveLock(client: pg.ClientBase, key: string): Promise<void> {
  await client.query(`SELECT pg_advisory_unlock(${MOVE_LOCK})`, [key]);
}

/** Moves a campus's schema to another PostgreSQL server; the read-only window's length in ms. */
export async function moveCampus(options: MoveCampusOptions): Promise<{ windowMs: number }> {
  const { homeUrl, key, to } = options;
  const home = await connected(homeUrl);
  try {
    // One move of a campus at a time (another server's migrations' lock could be the same number).
    if (!(await takeMoveLock(home, key))) {
      throw new CampusMoveError(`campus ${key} is being moved already`, 75);
    }
    await ensureDirectory(home);
    const entry = (await readDirectory(home)).find((c) => c.key === key);
    if (!entry) throw new CampusMoveError(`no campus "${key}" is registered`, 65);
    if (entry.state !== 'active') {
      throw new CampusMoveError(`campus ${key} is ${entry.state}, not active: move it later`, 75);
    }
    const from = entry.server ?? homeUrl;
    if (sameDatabase(from, to)) {
      throw new CampusMoveError(`campus ${key} is on that server already`, 65);
    }
    if (entry.movedFrom) {
      throw new CampusMoveError(
        `campus ${key}'s old schema from its last move is still kept: drop it first ` +
          `(npm run campus -- drop-old ${key})`,
        73,
      );
    }
    return await moveEntry(home, entry, from, options);
  } finally {
    await home.end();
  }
}

async function moveEntry(
  home: pg.Client,
  entry: CampusEntry,
  from: string,
  options: MoveCampusOptions,
): Promise<{ windowMs: number }> {
  const { homeUrl, key, to, out } = options;
  const schema = entry.schema;
  const target = await connected(to);
  const source = await connected(from);
  let moving = false;
  try {
    const { rows: there } = await target.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_tables WHERE schemaname = $1',
      [schema],
    );
    if (Number(there[0]!.n) > 0) {
      throw new CampusMoveError(
        `the target server has a schema ${schema} with tables: drop it there first`,
        73,
      );
    }
    out(`Moving campus ${key} (${entry.config.name}) to ${new URL(to).host}:\n`);
    await step(out, 'provision the role on the target', async () => {
      await createCampusSchema(target, schema);
      // The copy creates the schema itself (as pg_dump wrote it); the empty one goes, as its owner.
      await target.query(`SET ROLE ${quoted(schema)}; DROP SCHEMA ${quoted(schema)}; RESET ROLE`);
    });
    const windowStarted = performance.now();
    moving = true;
    await step(out, `read-only: state moving, wait ${options.settleMs} ms for app servers`, () =>
      setCampusState(home, key, 'moving').then(() => sleep(options.settleMs)),
    );
    await options.whileMoving?.();
    // Every table locked against writes (SHARE waits for the writes in flight and holds new ones),
    // then one snapshot, which the copy and the source's figures both read.
    const snapshot = await step(out, 'lock the source tables (in-flight writes end)', async () => {
      await source.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await source.query(`SET LOCAL lock_timeout = '30s'; SET LOCAL TimeZone = 'UTC'`);
      await source.query(`SET LOCAL ROLE ${quoted(schema)}`);
      const { rows: tables } = await source.query<{ name: string }>(
        'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1',
        [schema],
      );
      const names = tables.map((t) => `${quoted(schema)}.${quoted(t.name)}`).join(', ');
      if (names) await source.query(`LOCK TABLE ${names} IN SHARE MODE`);
      const { rows } = await source.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
      return rows[0]!.id;
    });
    await step(out, 'copy (pg_dump | pg_restore)', () => dumpInto(from, to, schema, snapshot));
    await step(out, 'migrate the copy to this code', () => migrateOn(target, entry));
    const tables = await step(out, 'verify rows and checksums per table', async () => {
      const before = await figuresOf(source, schema);
      await target.query(`SET TimeZone = 'UTC'`);
      await pointAt(target, schema);
      const after = await figuresOf(target, schema);
      await pointAt(target, 'public');
      const wrong = [...before].filter(
        ([name, f]) => JSON.stringify(after.get(name)) !== JSON.stringify(f),
      );
      if (wrong.length > 0) {
        throw new Error(`the copy differs in ${wrong.map(([name]) => name).join(', ')}`);
      }
      return before;
    });
    const server = sameDatabase(homeUrl, to) ? null : to;
    await step(out, 'switch the directory to the target, state active', () =>
      switchCampusServer(home, key, server, entry.server ?? 'home'),
    );
    moving = false;
    await source.query('COMMIT');
    const windowMs = Math.round(performance.now() - windowStarted);
    const rows = [...tables.values()].reduce((n, f) => n + (typeof f === 'string' ? 0 : f.rows), 0);
    out(
      `Moved campus ${key}: ${rows} rows in ${tables.size} tables and sequences, checked; ` +
        `writes were refused for ${windowMs} ms.\n` +
        `Its old schema stays on the server it left: npm run campus -- drop-old ${key}\n`,
    );
    return { windowMs };
  } catch (error) {
    await source.query('ROLLBACK').catch(() => {});
    if (moving) {
      // Nothing switched: the campus is served from where it was, writes welcome again.
      await setCampusState(home, key, 'active');
      out(`The move failed; campus ${key} is active again on its server.\n`);
    }
    if (error instanceof CampusMoveError) throw error;
    throw new CampusMoveError((error as Error).message, 70);
  } finally {
    await source.end().catch(() => {});
    await target.end().catch(() => {});
  }
}

/** Applies this code's migrations to the copied schema (normally none), as `campus add` does. */
async function migrateOn(target: pg.Client, entry: CampusEntry): Promise<void> {
  let before: CampusConfig | undefined;
  try {
    before = activeCampus().config;
  } catch {
    before = undefined;
  }
  setActiveCampus(() => currentCampusWork()?.config ?? before);
  await migrateCampus(target, entry);
  await pointAt(target, 'public');
}

/** Drops the schema a moved campus left on its old server; what it printed. */
export async function dropOldSchema(homeUrl: string, key: string): Promise<string> {
  const home = await connected(homeUrl);
  try {
    const entry = (await readDirectory(home)).find((c) => c.key === key);
    if (!entry) throw new CampusMoveError(`no campus "${key}" is registered`, 65);
    if (!entry.movedFrom) {
      throw new CampusMoveError(`campus ${key} keeps no old schema (it was not moved)`, 65);
    }
    const old = entry.movedFrom === 'home' ? homeUrl : entry.movedFrom;
    const now = entry.server ?? homeUrl;
    if (sameDatabase(old, now)) {
      throw new CampusMoveError(`campus ${key} is served from that schema: nothing dropped`, 65);
    }
    const client = await connected(old);
    try {
      await client.query(
        `SET ROLE ${quoted(entry.schema)}; DROP SCHEMA IF EXISTS ${quoted(entry.schema)} CASCADE; RESET ROLE`,
      );
    } finally {
      await client.end();
    }
    await home.query('UPDATE directory.campuses SET moved_from = NULL WHERE key = $1', [key]);
    return `Dropped campus ${key}'s old schema ${entry.schema} on ${new URL(old).host}.\n`;
  } finally {
    await home.end();
  }
}
