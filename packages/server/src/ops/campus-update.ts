import { setTimeout as sleep } from 'node:timers/promises';
import { activeCampus, setActiveCampus } from '@campus-books/common/active-campus';
import { consortiumProblems, isSharing } from '@campus-books/common/campus-consortium';
import type { CampusConfig } from '@campus-books/common/campus-config';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { currentCampusWork } from '../campuses/campus-context';
import {
  CampusTakenError,
  assertHostsFree,
  assertSignOnFree,
  readDirectory,
  updateCampus,
  type CampusEntry,
} from '../campuses/campus-directory';
import { pointAt } from '../campuses/campus-pool';
import { migrateCampus } from '../campuses/campus-provision';
import { quoted } from '../campuses/campus-schema';
import { MIGRATION_LOCK } from '../db/database';
import type { Db } from '../db/db-type';
import * as dbSchema from '../db/schema';
import {
  describeKeysInUse,
  findKeysInUse,
  keyedTables,
  type KeyedList,
  type KeyInUse,
} from './campus-keys-in-use';
import { keyOf } from './campus-lists';
import { giveBackMoveLock, takeMoveLock } from './campus-move';

/** `campus update` refused: the message and the exit code (65 data, 73 taken, 75 try later). */
export class CampusUpdateError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'CampusUpdateError';
  }
}

export interface CampusUpdateOptions {
  homeUrl: string;
  key: string;
  /** The campus's new file, read and checked as `campus add` checks it. */
  config?: CampusConfig;
  /** Its new hosts, normalised (normalHosts). */
  hosts?: string[];
  /** How long the app servers are given to read the directory before the caches are emptied. */
  settleMs: number;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** The keys of a campus's lists that stored data names: what a new file may not drop if used. */
const LISTS: Record<KeyedList, (campus: CampusConfig) => string[]> = {
  schools: (c: CampusConfig) => c.schools.map((s) => s.key),
  subjects: (c: CampusConfig) => c.subjects.map((s) => keyOf('subjects', s)),
  majors: (c: CampusConfig) => c.majors.map((m) => keyOf('majors', m)),
  meetupSpots: (c: CampusConfig) => c.meetupSpots.map((s) => s.id),
};

/** The rows of the campus (its handle) that store a key its new file drops. */
async function keysInUse(db: Db, before: CampusConfig, after: CampusConfig): Promise<KeyInUse[]> {
  const found: KeyInUse[] = [];
  for (const list of Object.keys(LISTS) as KeyedList[]) {
    const kept = new Set(LISTS[list](after));
    const removed = LISTS[list](before).filter((key) => !kept.has(key));
    found.push(...(await findKeysInUse(db, list, removed)));
  }
  return found;
}

/** One line of what changed: the name, the hosts, the sharing, the file's other fields. */
function describeChange(before: CampusEntry, after: CampusEntry, all: CampusEntry[]): string {
  const changes: string[] = [];
  if (before.config.name !== after.config.name) {
    changes.push(`name "${before.config.name}" → "${after.config.name}"`);
  }
  if (before.hosts.join(' ') !== after.hosts.join(' ')) {
    changes.push(`hosts ${before.hosts.join(', ')} → ${after.hosts.join(', ')}`);
  }
  const sharing = (campus: CampusEntry) => {
    const partners = all.filter((other) => isSharing(campus, other)).map((other) => other.key);
    return partners.length > 0 ? partners.join(', ') : 'nobody';
  };
  const named = (campus: CampusEntry) => (campus.config.consortium?.share ?? []).join(' ');
  if (named(before) !== named(after)) {
    changes.push(`shares with ${sharing(after)} (was ${sharing(before)})`);
  }
  const fields = Object.keys({ ...before.config, ...after.config }).filter(
    (field) =>
      field !== 'name' &&
      field !== 'consortium' &&
      JSON.stringify(before.config[field as keyof CampusConfig]) !==
        JSON.stringify(after.config[field as keyof CampusConfig]),
  );
  if (fields.length > 0) changes.push(`its file's ${fields.join(', ')}`);
  return changes.join('; ');
}

async function connected(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  return client;
}

/**
 * Bumps a campus's catalogue version and announces it (campus-catalogue.ts), as a write of its
 * listings does: every app server's caches of the campus (searches, signed-out pages, ready answers)
 * are emptied, at once on the NOTIFY and at the latest at their next look at the version.
 */
async function emptyCachesOf(client: pg.Client, schema: string): Promise<void> {
  await pointAt(client, schema);
  await client.query(
    `WITH bumped AS (
       UPDATE ${quoted(schema)}.catalogue_version SET version = version + 1 WHERE id = 1
       RETURNING version)
     SELECT pg_notify('catalogue', $1 || ':' || version) FROM bumped`,
    [schema],
  );
}

/**
 * `npm run campus -- update <key>`: replaces a registered campus's file, its hosts, or both, under
 * the migrations' lock (one `campus add` or `update` at a time). A new file that drops a school,
 * subject, major or meetup spot rows of the campus still store is refused, the rows named, nothing
 * written; the rows' tables take no write from the check to the directory's commit. The running
 * app servers follow the directory's NOTIFY; once they had `settleMs` to read it, the caches of the
 * campus and of the campuses it shares with (before or after: their answers carry its name and
 * address) are emptied, so no cached page keeps the old name.
 */
export async function updateCampusEntry(options: CampusUpdateOptions): Promise<void> {
  const { homeUrl, key, config, hosts } = options;
  const home = await connected(homeUrl);
  let before: CampusEntry;
  let after: CampusEntry;
  let all: CampusEntry[];
  let holdsMoveLock = false;
  try {
    await home.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    all = await readDirectory(home);
    const entry = all.find((c) => c.key === key);
    if (!entry) {
      throw new CampusUpdateError(
        `no campus "${key}" is registered (npm run campus -- list names them)`,
        65,
      );
    }
    // A campus being moved is copied from its old server: what changed there would be left behind.
    holdsMoveLock = await takeMoveLock(home, key);
    if (!holdsMoveLock || entry.state !== 'active') {
      throw new CampusUpdateError(`campus ${key} is being moved: update it once it is done`, 75);
    }
    before = entry;
    after = { ...entry, config: config ?? entry.config, hosts: hosts ?? entry.hosts };
    await (async () => {
      if (hosts) await assertHostsFree(home, key, hosts);
      await assertSignOnFree(home, key, after);
    })().catch((error: unknown) => {
      if (error instanceof CampusTakenError) throw new CampusUpdateError(error.message, 73);
      throw error;
    });
    const isNewFile = JSON.stringify(before.config) !== JSON.stringify(after.config);
    if (!isNewFile && before.hosts.join(' ') === after.hosts.join(' ')) {
      options.out(`Campus ${key} (${before.config.name}): nothing changed.\n`);
      return;
    }
    await writeUpdate(home, options, before, isNewFile ? after.config : undefined);
    all = all.map((c) => (c.key === key ? after : c));
  } finally {
    // Before the session ends, which would release it and the migrations' lock in no set order.
    if (holdsMoveLock) await giveBackMoveLock(home, key).catch(() => undefined);
    await home.end();
  }
  options.out(`Updated campus ${key}: ${describeChange(before, after, all)}.\n`);
  for (const problem of consortiumProblems(all).filter((p) => p.includes(`"${key}"`))) {
    options.err(`Warning: ${problem}\n`);
  }
  // The app servers read the directory on its NOTIFY (or at their next poll); a page rendered
  // before that would be kept with the old name past an emptying done sooner.
  await sleep(options.settleMs);
  const partners = all.filter((c) => isSharing(before, c) || isSharing(after, c));
  const clients = new Map<string, pg.Client>();
  try {
    for (const campus of [after, ...partners]) {
      const at = campus.server ?? homeUrl;
      const client = clients.get(at) ?? (await connected(at));
      clients.set(at, client);
      await emptyCachesOf(client, campus.schema);
    }
  } finally {
    await Promise.all([...clients.values()].map((c) => c.end()));
  }
  options.out(
    'The running app servers serve it as updated (at the latest at their next reading of the ' +
      'directory); its cached pages and searches were emptied.\n',
  );
}

/**
 * Writes the update: the new file checked against the campus's rows (their tables locked from the
 * check to the commit), the directory's row, then the listing JSON migrated to the new file's
 * schools (as at an app server's start, which its labels are written into).
 */
async function writeUpdate(
  home: pg.Client,
  options: CampusUpdateOptions,
  entry: CampusEntry,
  config: CampusConfig | undefined,
): Promise<void> {
  if (!config) {
    await updateCampus(home, entry.key, { hosts: options.hosts });
    return;
  }
  const campus = await connected(entry.server ?? options.homeUrl);
  let isOpen = false;
  try {
    await pointAt(campus, entry.schema);
    await campus.query('BEGIN');
    isOpen = true;
    await campus.query(`SET LOCAL lock_timeout = '10s'`);
    // No write to the tables that store those keys while the check runs and commits.
    await campus.query(`LOCK TABLE ${keyedTables().map(quoted).join(', ')} IN SHARE MODE`);
    const db = drizzle(campus as never, { schema: dbSchema }) as unknown as Db;
    const inUse = await keysInUse(db, entry.config, config);
    if (inUse.length > 0) {
      throw new CampusUpdateError(
        `Refused: the new file drops keys campus ${entry.key}'s data still uses; keep them in the ` +
          `file (nothing was written):\n${describeKeysInUse(inUse)}`,
        65,
      );
    }
    await updateCampus(home, entry.key, { config, hosts: options.hosts });
    await campus.query('COMMIT');
    isOpen = false;
  } catch (error) {
    if (isOpen) await campus.query('ROLLBACK').catch(() => {});
    if ((error as { code?: string }).code === '55P03') {
      throw new CampusUpdateError(`campus ${entry.key}'s tables are busy: try again`, 75);
    }
    throw error;
  } finally {
    await campus.end();
  }
  // Outside the lock's transaction (a listing JSON rewrite writes listings); on the home server
  // under this session's migrations' lock, which another session would wait for.
  const target = entry.server ? await connected(entry.server) : home;
  const outside = currentActiveConfig();
  setActiveCampus(() => currentCampusWork()?.config ?? outside);
  try {
    await migrateCampus(target, { key: entry.key, schema: entry.schema, config });
  } finally {
    await pointAt(target, 'public');
    if (target !== home) await target.end();
  }
}

/** The process's campus outside any campus's work, if it has one (the listing JSON's schools). */
function currentActiveConfig(): CampusConfig | undefined {
  try {
    return activeCampus().config;
  } catch {
    return undefined;
  }
}
