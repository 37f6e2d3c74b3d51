import path from 'node:path';
import { parseArgs } from 'node:util';
import { activeCampus, setActiveCampus } from '@campus-books/common/active-campus';
import type { CampusConfig } from '@campus-books/common/campus-config';
import pg from 'pg';
import { currentCampusWork } from '../campuses/campus-context';
import {
  CampusTakenError,
  ensureDirectory,
  normalHosts,
  readDirectory,
  registerCampus,
  assertFree,
  assertSignOnFree,
} from '../campuses/campus-directory';
import { pointAt } from '../campuses/campus-pool';
import { createCampusSchema, migrateCampus } from '../campuses/campus-provision';
import { campusSchemaOf, CampusKeyError } from '../campuses/campus-schema';
import { CampusConfigError, readCampusFile } from '../config/campus-file';
import { checkCampusSso } from '../config/campus-sso';
import { MIGRATION_LOCK } from '../db/database';
import { CampusMoveError, dropOldSchema, moveCampus } from './campus-move';
import { CampusUpdateError, updateCampusEntry } from './campus-update';

/**
 * `npm run campus -- add | update | list`: the campus directory of a many-campus installation
 * (decision 024). Exit codes: 0 done, 64 usage, 65 an invalid campus file or key, an unknown campus
 * or a key its data still uses, 73 a key or host taken, 75 a campus being moved, 78 no PostgreSQL
 * (several campuses need it).
 */
type Io = { out: (text: string) => void; err: (text: string) => void };

export const DIRECTORY_USAGE = `  npm run campus -- add <key> --host <host> [--host <host>…] --config <file.yaml> [--server <postgres url>]
                                          registers a campus (DATABASE_URL: PostgreSQL), served at its hosts
  npm run campus -- update <key> [--config <file.yaml>] [--host <host>…] [--settle-ms <ms>]
                                          replaces a registered campus's file or hosts (at least one); the
                                          running app servers follow it and empty its cached pages
  npm run campus -- list                  the registered campuses: hosts, server, students, listings, last activity
  npm run campus -- move <key> --to <postgres url> [--settle-ms <ms>]
                                          copies a campus to another PostgreSQL server (writes refused meanwhile),
                                          verifies it and switches the app servers to it (docs/operations.md)
  npm run campus -- drop-old <key>        drops the schema a moved campus left on its old server`;

async function connected(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  return client;
}

/** Everything but the URL's password, for printing. */
export function serverName(url: string | null): string {
  if (!url) return 'home';
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return '(unreadable URL)';
  }
}

/** A campus file as `add` and `update` take it: valid, its sign-on's secret set; else null, said. */
function checkedCampusFile(name: string, env: NodeJS.ProcessEnv, io: Io): CampusConfig | null {
  const file = path.resolve(name);
  try {
    const config = readCampusFile(file);
    // Its sign-on provider as app servers check it at start (a secret's variable set here too).
    checkCampusSso(config, file, env);
    return config;
  } catch (error) {
    if (!(error instanceof CampusConfigError)) throw error;
    io.err(`${error.message}\n`);
    return null;
  }
}

async function addCampus(
  args: string[],
  homeUrl: string,
  io: Io,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      host: { type: 'string', multiple: true },
      config: { type: 'string' },
      server: { type: 'string' },
    },
  });
  if (positionals.length !== 1 || !values.config || !values.host) {
    io.err(`Usage:\n${DIRECTORY_USAGE}\n`);
    return 64;
  }
  const key = positionals[0]!;
  let schema: string;
  let hosts: string[];
  try {
    schema = campusSchemaOf(key);
    hosts = normalHosts(values.host);
  } catch (error) {
    io.err(`${(error as Error).message}\n`);
    return error instanceof CampusKeyError ? 65 : 64;
  }
  const config = checkedCampusFile(values.config, env, io);
  if (config === null) return 65;
  const server = values.server?.trim() || null;
  // The listing JSON a migration writes names the campus's schools: its campus is the one at work
  // (outside it, whatever campus this process had).
  let before: CampusConfig | undefined;
  try {
    before = activeCampus().config;
  } catch {
    before = undefined;
  }
  setActiveCampus(() => currentCampusWork()?.config ?? before);
  const home = await connected(homeUrl);
  try {
    // One `campus add` at a time, and none while an app server migrates.
    await home.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    await ensureDirectory(home);
    await assertFree(home, key, hosts);
    await assertSignOnFree(home, key, { config, hosts });
    const target = server ? await connected(server) : home;
    let ran: string[];
    try {
      await createCampusSchema(target, schema);
      ran = await migrateCampus(target, { key, schema, config });
    } finally {
      if (target !== home) await target.end();
    }
    await pointAt(home, 'public');
    await registerCampus(home, { key, hosts, config, server });
    io.out(
      `Added campus ${key} (${config.name}) at ${hosts.join(', ')}: schema ${schema} on ` +
        `${serverName(server)}, ${ran.length} migrations applied.\n` +
        'The running app servers serve it now (at the latest at their next reading of the directory).\n',
    );
    return 0;
  } catch (error) {
    if (!(error instanceof CampusTakenError)) throw error;
    io.err(`${error.message}\n`);
    return 73;
  } finally {
    await home.end();
  }
}

interface CampusFigures {
  students: number;
  listings: number;
  lastActivity: Date | null;
}

/** A campus's students, live listings and latest write, read as the campus (its role). */
async function figuresOf(client: pg.Client, schema: string): Promise<CampusFigures> {
  await pointAt(client, schema);
  const { rows } = await client.query<{
    students: string;
    listings: string;
    last: Date | null;
  }>(`SELECT (SELECT count(*) FROM users) AS students,
             (SELECT count(*) FROM listings WHERE status = 'active') AS listings,
             GREATEST((SELECT max(created_at) FROM users), (SELECT max(updated_at) FROM listings),
                      (SELECT max(created_at) FROM conversation_events)) AS last`);
  await pointAt(client, 'public');
  const row = rows[0]!;
  return { students: Number(row.students), listings: Number(row.listings), lastActivity: row.last };
}

async function listCampuses(homeUrl: string, io: Io): Promise<number> {
  const clients = new Map<string, pg.Client>();
  const home = await connected(homeUrl);
  clients.set('', home);
  try {
    const campuses = await readDirectory(home);
    if (campuses.length === 0) {
      io.out('No campus is registered: this installation serves its one campus (CAMPUS_CONFIG).\n');
      return 0;
    }
    const lines = [['key', 'hosts', 'server', 'students', 'listings', 'last activity']];
    for (const campus of campuses) {
      const at = campus.server ?? '';
      const client = clients.get(at) ?? (await connected(at));
      clients.set(at, client);
      const figures = await figuresOf(client, campus.schema);
      lines.push([
        campus.key,
        campus.hosts.join(','),
        serverName(campus.server),
        String(figures.students),
        String(figures.listings),
        figures.lastActivity?.toISOString() ?? 'none',
      ]);
    }
    const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
    for (const line of lines) {
      io.out(
        `${line
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd()}\n`,
      );
    }
    return 0;
  } finally {
    await Promise.all([...clients.values()].map((c) => c.end()));
  }
}

/** The app servers' time to read the directory: longer than two polls (CAMPUS_STATE_POLL_MS, 1 s). */
const settleOf = (env: NodeJS.ProcessEnv) => 2 * Number(env.CAMPUS_STATE_POLL_MS || 1000) + 500;

/** `campus update <key> [--config <file>] [--host <host>…] [--settle-ms <ms>]`: the exit code. */
async function updateCampusOf(
  args: string[],
  homeUrl: string,
  io: Io,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        host: { type: 'string', multiple: true },
        config: { type: 'string' },
        'settle-ms': { type: 'string' },
      },
    });
  } catch {
    parsed = null;
  }
  const settle = parsed?.values['settle-ms'] ?? String(settleOf(env));
  if (
    !parsed ||
    parsed.positionals.length !== 1 ||
    (!parsed.values.config && !parsed.values.host) ||
    !/^\d{1,6}$/.test(settle)
  ) {
    io.err(`Usage:\n${DIRECTORY_USAGE}\n`);
    return 64;
  }
  const { values, positionals } = parsed;
  const key = positionals[0]!;
  let hosts: string[] | undefined;
  try {
    campusSchemaOf(key);
    hosts = values.host ? normalHosts(values.host) : undefined;
  } catch (error) {
    io.err(`${(error as Error).message}\n`);
    return error instanceof CampusKeyError ? 65 : 64;
  }
  const config = values.config ? checkedCampusFile(values.config, env, io) : undefined;
  if (config === null) return 65;
  try {
    await updateCampusEntry({
      homeUrl,
      key,
      ...(config ? { config } : {}),
      ...(hosts ? { hosts } : {}),
      settleMs: Number(settle),
      out: io.out,
      err: io.err,
    });
    return 0;
  } catch (error) {
    if (!(error instanceof CampusUpdateError)) throw error;
    io.err(`${error.message}\n`);
    return error.code;
  }
}

/** `campus move` and `campus drop-old`: the exit code. */
async function moveOrDrop(
  command: 'move' | 'drop-old',
  args: string[],
  env: NodeJS.ProcessEnv,
  homeUrl: string,
  io: Io,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: { to: { type: 'string' }, 'settle-ms': { type: 'string' } },
  });
  const to = typeof values.to === 'string' ? values.to.trim() : '';
  const settle = String(values['settle-ms'] ?? settleOf(env));
  const usable =
    positionals.length === 1 &&
    (command === 'drop-old' ? values.to === undefined : /^postgres(ql)?:\/\//.test(to)) &&
    /^\d{1,6}$/.test(settle);
  if (!usable) {
    io.err(`Usage:\n${DIRECTORY_USAGE}\n`);
    return 64;
  }
  try {
    if (command === 'drop-old') io.out(await dropOldSchema(homeUrl, positionals[0]!));
    else {
      await moveCampus({
        homeUrl,
        key: positionals[0]!,
        to,
        settleMs: Number(settle),
        out: io.out,
      });
    }
    return 0;
  } catch (error) {
    // A server that cannot be reached, an unreadable URL: said in a line, exit 70.
    io.err(`${(error as Error).message}\n`);
    return error instanceof CampusMoveError ? error.code : 70;
  }
}

const DIRECTORY_COMMANDS = new Set(['add', 'update', 'list', 'move', 'drop-old']);

/** `campus add`, `update`, `list`, `move` and `drop-old`; null for another subcommand. */
export async function runCampusDirectoryCommand(
  command: string | undefined,
  args: string[],
  env: NodeJS.ProcessEnv,
  io: Io,
): Promise<number | null> {
  if (!command || !DIRECTORY_COMMANDS.has(command)) return null;
  const homeUrl = env.DATABASE_URL?.trim();
  if (!homeUrl) {
    io.err(
      'Several campuses need PostgreSQL: set DATABASE_URL to the home database ' +
        '(the embedded database serves one campus).\n',
    );
    return 78;
  }
  if (command === 'list') {
    if (args.length > 0) {
      io.err(`Usage:\n${DIRECTORY_USAGE}\n`);
      return 64;
    }
    return listCampuses(homeUrl, io);
  }
  if (command === 'move' || command === 'drop-old') {
    return moveOrDrop(command, args, env, homeUrl, io);
  }
  if (command === 'update') return updateCampusOf(args, homeUrl, io, env);
  return addCampus(args, homeUrl, io, env);
}
