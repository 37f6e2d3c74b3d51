import { campusConfigSchema, type CampusConfig } from '@campus-books/common/campus-config';
import type { ClientBase } from 'pg';
import { campusSchemaOf, CAMPUS_KEY } from './campus-schema';

/**
 * The campus directory of a many-campus installation (decision 024): which campuses there are, the
 * host names each is served under, its configuration (a validated campus file), the PostgreSQL
 * server holding it (null: the home one, DATABASE_URL) and its schema there. It lives in the home
 * database, schema `directory`, which every app server reads; campuses' roles have no right on it.
 */
export type CampusState = 'active' | 'read_only' | 'moving';

export interface CampusEntry {
  key: string;
  hosts: string[];
  config: CampusConfig;
  /** The PostgreSQL server's URL; null for the home database's server. */
  server: string | null;
  schema: string;
  state: CampusState;
  /** After a move: the server its old schema stays on ('home' or a URL) until `drop-old`. */
  movedFrom: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const DIRECTORY_STATEMENTS = [
  'CREATE SCHEMA IF NOT EXISTS directory',
  `CREATE TABLE IF NOT EXISTS directory.campuses (
    key text PRIMARY KEY CHECK (key ~ '${CAMPUS_KEY.source}'),
    hosts text[] NOT NULL CHECK (cardinality(hosts) > 0),
    config jsonb NOT NULL,
    server text,
    schema text NOT NULL UNIQUE,
    state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'read_only', 'moving')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX IF NOT EXISTS campuses_hosts ON directory.campuses USING gin (hosts)',
  // Where a moved campus's old schema stays until `campus drop-old` ('home': the home server).
  'ALTER TABLE directory.campuses ADD COLUMN IF NOT EXISTS moved_from text',
];

/** The channel a directory change is announced on (`campus add`, `update`, `move`); app servers also poll. */
export const DIRECTORY_CHANNEL = 'directory';

/** Creates the directory if the home database has none yet (under the migrations' lock). */
export async function ensureDirectory(home: ClientBase): Promise<void> {
  for (const statement of DIRECTORY_STATEMENTS) await home.query(statement);
}

/** A host name as a Host header carries it, lower-cased; an optional port. */
const HOST =
  /^(?=.{1,253}(:\d{1,5})?$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** The host names as the directory keeps them; throws on one that is not a host name. */
export function normalHosts(hosts: readonly string[]): string[] {
  const normal = [...new Set(hosts.map((h) => h.trim().toLowerCase()))];
  const bad = normal.filter((h) => !HOST.test(h));
  if (normal.length === 0) throw new Error('name at least one host (--host books.example.edu)');
  if (bad.length > 0) throw new Error(`not a host name: ${bad.join(', ')}`);
  return normal;
}

interface CampusRow {
  key: string;
  hosts: string[];
  config: unknown;
  server: string | null;
  schema: string;
  state: CampusState;
  moved_from?: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A campus file as last parsed from the directory, by key, with the digest of its stored text. */
export type ParsedConfigs = Map<string, { digest: string; config: CampusConfig }>;

/**
 * Every registered campus, by key; none when the home database has no directory. An app server
 * reads it every CAMPUS_STATE_POLL_MS: given the files it parsed last time (`parsed`), it reads and
 * parses again only those whose stored text changed (an md5 PostgreSQL computes), not every
 * campus's file each second.
 */
export async function readDirectory(
  home: ClientBase,
  parsed: ParsedConfigs = new Map(),
): Promise<CampusEntry[]> {
  const { rows: exists } = await home.query<{ exists: boolean }>(
    `SELECT to_regclass('directory.campuses') IS NOT NULL AS exists`,
  );
  if (!exists[0]?.exists) return [];
  const { rows } = await home.query<Omit<CampusRow, 'config'> & { digest: string }>(
    `SELECT key, hosts, server, schema, state, moved_from, created_at, updated_at,
            md5(config::text) AS digest
       FROM directory.campuses ORDER BY key`,
  );
  const stale = rows.filter((row) => parsed.get(row.key)?.digest !== row.digest);
  if (stale.length > 0) {
    const { rows: files } = await home.query<{ key: string; config: unknown; digest: string }>(
      `SELECT key, config, md5(config::text) AS digest FROM directory.campuses WHERE key = ANY($1)`,
      [stale.map((row) => row.key)],
    );
    // Validated when registered; validated again, as a campus file is at every start.
    for (const file of files) {
      parsed.set(file.key, { digest: file.digest, config: campusConfigSchema.parse(file.config) });
    }
  }
  const registered = new Set(rows.map((row) => row.key));
  for (const key of parsed.keys()) if (!registered.has(key)) parsed.delete(key);
  // A campus removed between the two reads is left out until the next.
  return rows.flatMap((row) => {
    const file = parsed.get(row.key);
    if (!file) return [];
    return [
      {
        key: row.key,
        hosts: row.hosts,
        config: file.config,
        server: row.server,
        schema: row.schema,
        state: row.state,
        movedFrom: row.moved_from ?? null,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      },
    ];
  });
}

/** A campus's key or host already registered. */
export class CampusTakenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CampusTakenError';
  }
}

/**
 * Registers a campus, in one statement after checking (under the migrations' lock, which `campus
 * add` holds) that neither its key nor any of its hosts is another campus's, and announces it: the
 * running app servers serve it from then on (campus-installation.ts, `refresh`).
 */
export async function registerCampus(
  home: ClientBase,
  campus: { key: string; hosts: string[]; config: CampusConfig; server: string | null },
): Promise<void> {
  await assertFree(home, campus.key, campus.hosts);
  await home.query(
    `INSERT INTO directory.campuses (key, hosts, config, server, schema)
     VALUES ($1, $2, $3, $4, $5)`,
    [
      campus.key,
      campus.hosts,
      JSON.stringify(campus.config),
      campus.server,
      campusSchemaOf(campus.key),
    ],
  );
  await home.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, campus.key]);
}

/** Throws CampusTakenError when the key or a host is registered already. */
export async function assertFree(home: ClientBase, key: string, hosts: string[]): Promise<void> {
  const { rows } = await home.query<{ key: string; hosts: string[] }>(
    'SELECT key, hosts FROM directory.campuses WHERE key = $1 OR hosts && $2',
    [key, hosts],
  );
  const same = rows.find((r) => r.key === key);
  if (same) throw new CampusTakenError(`a campus "${key}" is registered already`);
  if (rows.length > 0) {
    const taken = hosts.filter((h) => rows.some((r) => r.hosts.includes(h)));
    throw new CampusTakenError(`${taken.join(', ')} is campus "${rows[0]!.key}"'s already`);
  }
}

/** Throws CampusTakenError when one of `hosts` is another campus's than `key`. */
export async function assertHostsFree(
  home: ClientBase,
  key: string,
  hosts: readonly string[],
): Promise<void> {
  const { rows } = await home.query<{ key: string; hosts: string[] }>(
    'SELECT key, hosts FROM directory.campuses WHERE key <> $1 AND hosts && $2 ORDER BY key',
    [key, hosts],
  );
  const other = rows[0];
  if (!other) return;
  const taken = hosts.filter((h) => other.hosts.includes(h));
  throw new CampusTakenError(`${taken.join(', ')} is campus "${other.key}"'s already`);
}

/** The SAML entity ID a campus signs on with, its scheme left out: its file's, else its address's. */
function samlEntityOf(campus: { config: CampusConfig; hosts: readonly string[] }): string | null {
  const { sso, publicUrl } = campus.config;
  if (sso?.protocol !== 'saml') return null;
  const address = publicUrl?.replace(/\/+$/, '') ?? `//${campus.hosts[0] ?? ''}`;
  const entityId = sso.saml?.spEntityId ?? `${address}/api/sso/saml/metadata`;
  return entityId.replace(/^([a-z][a-z0-9+.-]*:)?\/\//i, '').toLowerCase();
}

/**
 * Throws CampusTakenError when another campus signs on through SAML with the same entity ID: a
 * provider tells its service providers apart by it (their addresses, their keys), so two campuses
 * sharing one would be sent each other's sign-ons, or neither would work.
 */
export async function assertSignOnFree(
  home: ClientBase,
  key: string,
  campus: { config: CampusConfig; hosts: readonly string[] },
): Promise<void> {
  const mine = samlEntityOf(campus);
  if (!mine) return;
  const { rows } = await home.query<{ key: string; hosts: string[]; config: CampusConfig }>(
    `SELECT key, hosts, config FROM directory.campuses
      WHERE key <> $1 AND config #>> '{sso,protocol}' = 'saml' ORDER BY key`,
    [key],
  );
  const other = rows.find((row) => samlEntityOf(row) === mine);
  if (!other) return;
  throw new CampusTakenError(
    `sso.saml.spEntityId: ${mine} is campus "${other.key}"'s SAML entity ID already ` +
      '(a provider tells the campuses apart by it: give this one its own)',
  );
}

/**
 * Replaces a registered campus's configuration, its hosts, or both (`campus update`), in one
 * statement: a field not given keeps its value, so two updates of one campus (its file, its hosts)
 * both land. The caller holds the migrations' lock, as `campus add` does, so no host is taken
 * meanwhile. Announced on the directory's channel: app servers serve the campus as changed.
 */
export async function updateCampus(
  home: ClientBase,
  key: string,
  change: { config?: CampusConfig; hosts?: string[] },
): Promise<void> {
  if (change.hosts) await assertHostsFree(home, key, change.hosts);
  await home.query(
    `UPDATE directory.campuses
        SET config = coalesce($2::jsonb, config), hosts = coalesce($3::text[], hosts),
            updated_at = now()
      WHERE key = $1`,
    [key, change.config ? JSON.stringify(change.config) : null, change.hosts ?? null],
  );
  await home.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, key]);
}

/** Sets a campus's state and announces it on the directory's channel (app servers poll too). */
export async function setCampusState(
  home: ClientBase,
  key: string,
  state: CampusState,
): Promise<void> {
  await home.query('UPDATE directory.campuses SET state = $2, updated_at = now() WHERE key = $1', [
    key,
    state,
  ]);
  await home.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, key]);
}

/** Points a campus at another server, active again, remembering where its old schema stays. */
export async function switchCampusServer(
  home: ClientBase,
  key: string,
  server: string | null,
  movedFrom: string,
): Promise<void> {
  await home.query(
    `UPDATE directory.campuses SET server = $2, state = 'active', moved_from = $3,
            updated_at = now() WHERE key = $1`,
    [key, server, movedFrom],
  );
  await home.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, key]);
}
