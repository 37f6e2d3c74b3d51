import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgliteDatabase, type Database } from '../src/db/database';

/**
 * The embedded databases of a test worker, lent to its test files one after another.
 *
 * Opening PGlite from the run's migrated dump costs 1–2 s of CPU (unpacking its file system and the
 * dump, starting the server); a run opened ~190 of them, a third of the embedded suite's CPU. A
 * database a file has closed is instead emptied and kept for the worker's next file: every table
 * truncated (identities and sequences restarted) and the rows the migrations wrote put back, the session reset
 * (`DISCARD ALL`: settings, roles, advisory locks, LISTENs, prepared statements, temporary tables).
 * What a file sees is what a fresh copy of the dump shows. A file that changed more than rows (a
 * renamed table, a disabled trigger, a new function, another migration) gives back a database
 * whose catalogue no longer matches the dump's: it is closed, not lent again.
 *
 * A lent handle is dead once its file closed it, as a closed database is: any query through it
 * throws, so a test that closes its database to see what fails still sees it.
 */

interface Kept {
  /** Its number among the worker's (`opened`). */
  number: number;
  client: PGlite;
  /** The rows the migrations wrote, per table, as `json_agg` of the table (generated columns aside). */
  seed: { table: string; columns: string; rows: string }[];
  /** What the catalogue looked like when the dump was loaded (`catalogueFingerprint`). */
  fingerprint: string[];
}

/** Databases ready to lend, per dump file (a worker may run files of projects with other dumps). */
const idle = new Map<string, Kept[]>();
/** Enough for the files that hold two at a time; more are closed when given back. */
const KEEP_IDLE = 2;
/** How many were opened from a dump in this worker: each one's number. */
let opened = 0;
/** Which one each lent handle is on (pglite-pool.test.ts). */
const lentFrom = new WeakMap<Database, number>();
export const lentDatabaseNumber = (database: Database) => lentFrom.get(database);

/** The user tables (the migrations' bookkeeping aside) in the order TRUNCATE takes them. */
const USER_TABLES = `
  SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
  WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
    AND NOT (schemaname = 'drizzle' AND tablename = '__drizzle_migrations')
  ORDER BY 1`;

/**
 * What a file could change besides rows, one list each: relations and their columns, indexes,
 * constraints, triggers (and whether they fire), functions' bodies, row security and its policies,
 * schemas, roles, database and role settings, extensions, the migrations applied.
 */
const CATALOGUE_PARTS = [
  `SELECT format('%s.%s:%s', n.nspname, c.relname, c.relkind)
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')`,
  `SELECT format('%s.%s.%s:%s:%s:%s', n.nspname, c.relname, a.attname, a.atttypid, a.attnotnull,
            pg_get_expr(d.adbin, d.adrelid))
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
       AND a.attnum > 0 AND NOT a.attisdropped`,
  `SELECT format('%s:%s', conname, pg_get_constraintdef(oid)) FROM pg_constraint
     WHERE connamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)`,
  `SELECT format('%s:%s', tgname, tgenabled) FROM pg_trigger WHERE NOT tgisinternal`,
  `SELECT format('%s.%s(%s):%s', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid),
            md5(p.prosrc))
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')`,
  `SELECT format('%s.%s', n.nspname, c.relname) FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relrowsecurity`,
  `SELECT format('%s:%s', polname, pg_get_expr(polqual, polrelid)) FROM pg_policy`,
  // A temporary table leaves its session's schemas behind (pg_temp_N), empty once discarded.
  `SELECT nspname FROM pg_namespace WHERE nspname !~ '^pg_(toast_)?temp_'`,
  `SELECT rolname FROM pg_roles`,
  `SELECT format('%s:%s:%s', setdatabase, setrole, setconfig) FROM pg_db_role_setting`,
  `SELECT extname || extversion FROM pg_extension`,
  `SELECT format('%s:%s', id, hash) FROM drizzle.__drizzle_migrations`,
];

async function catalogueFingerprint(client: PGlite): Promise<string[]> {
  const parts: string[] = [];
  for (const part of CATALOGUE_PARTS) {
    const { list } = await one<{ list: string | null }>(
      client,
      `SELECT string_agg(x, ',' ORDER BY x) AS list FROM (${part}) AS part(x)`,
    );
    parts.push(list ?? '');
  }
  return parts;
}

async function query<Row>(client: PGlite, text: string): Promise<Row[]> {
  return (await client.query<Row>(text)).rows;
}

/** The one row an aggregate answers. */
async function one<Row>(client: PGlite, text: string): Promise<Row> {
  const [row] = await query<Row>(client, text);
  if (!row) throw new Error(`No row: ${text}`);
  return row;
}

/** The session as a new connection has it: settings (search_path too), locks, LISTENs, plans. */
async function endSession(client: PGlite): Promise<void> {
  // Each alone: DISCARD ALL refuses to run in a transaction, a multi-statement one too.
  await client.exec('ROLLBACK');
  await client.exec('DISCARD ALL');
}

async function openKept(dump: Buffer): Promise<Kept> {
  const number = (opened += 1);
  const client = await PGlite.create({
    loadDataDir: new Blob([dump]),
    extensions: { pg_trgm },
  });
  // As openDatabase does on every start: the migrations (none pending) and the stored answers'
  // and deal's triggers brought up to this code.
  await pgliteDatabase(client, { migrate: true, close: async () => {} });
  await endSession(client);
  const seed: Kept['seed'] = [];
  for (const { name } of await query<{ name: string }>(client, USER_TABLES)) {
    const { rows } = await one<{ rows: string | null }>(
      client,
      `SELECT json_agg(t)::text AS rows FROM ${name} t`,
    );
    if (!rows) continue;
    // Generated columns are computed again, not copied.
    const { columns } = await one<{ columns: string }>(
      client,
      `SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) AS columns FROM pg_attribute
         WHERE attrelid = '${name}'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''`,
    );
    seed.push({ table: name, columns, rows });
  }
  return { number, client, seed, fingerprint: await catalogueFingerprint(client) };
}

/** Empties a database a file gave back; false when it cannot be lent again (closed instead). */
async function emptied(kept: Kept): Promise<boolean> {
  const { client } = kept;
  if (client.closed) return false;
  try {
    await endSession(client);
    const tables = await query<{ name: string }>(client, USER_TABLES);
    await client.exec(
      `TRUNCATE ${tables.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE;` +
        (
          await query<{ reset: string }>(
            client,
            `SELECT format('ALTER SEQUENCE %I.%I RESTART;', schemaname, sequencename) AS reset
             FROM pg_sequences WHERE schemaname <> 'drizzle'`,
          )
        )
          .map((row) => row.reset)
          .join(''),
    );
    for (const { table, columns, rows } of kept.seed) {
      await client.query(
        `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM json_populate_recordset(null::${table}, $1)`,
        [rows],
      );
    }
    const fingerprint = await catalogueFingerprint(client);
    return fingerprint.join('\n') === kept.fingerprint.join('\n');
  } catch {
    return false;
  }
}

/** The client as one file sees it: every call throws once the file has closed its handle. */
function lent(client: PGlite, isOpen: () => boolean, unlistens: (() => Promise<void>)[]): PGlite {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        if (!isOpen()) throw new Error('PGlite is closed');
        const result = method(...args);
        if (property === 'listen') {
          void (result as Promise<() => Promise<void>>).then(
            (unlisten) => unlistens.push(unlisten),
            () => {},
          );
        }
        return result;
      };
    },
  });
}

/** A migrated database for one test file: a kept one emptied, or a new one from `dump`. */
export async function lendPgliteDatabase(dumpFile: string, dump: () => Buffer): Promise<Database> {
  const kept = idle.get(dumpFile)?.pop() ?? (await openKept(dump()));
  let open = true;
  const unlistens: (() => Promise<void>)[] = [];
  const database = await pgliteDatabase(
    lent(kept.client, () => open, unlistens),
    {
      // As every open does: the migrations checked, the stored answers' and deal's triggers made
      // for this code and the campus active now (a file may run on another campus than the last).
      migrate: true,
      close: async () => {
        if (!open) return;
        open = false;
        await Promise.all(unlistens.map((unlisten) => unlisten().catch(() => {})));
        const shelf = idle.get(dumpFile) ?? [];
        idle.set(dumpFile, shelf);
        if (shelf.length < KEEP_IDLE && (await emptied(kept))) shelf.push(kept);
        else await kept.client.close().catch(() => {});
      },
    },
  );
  lentFrom.set(database, kept.number);
  return database;
}
