import { openDatabase, type Database } from '../db/database';
import type { CampusSite } from './campus-app-config';
import { campusHandles, campusAwareDatabase } from './campus-database';
import type { ServedCampus } from './campus-context';
import {
  DIRECTORY_CHANNEL,
  readDirectory,
  type CampusEntry,
  type ParsedConfigs,
} from './campus-directory';
import { pointAt } from './campus-pool';
import { migrateCampus } from './campus-provision';
import type { CampusChange, CampusRouting, CampusWatcher } from './campus-routing';

/** A campus as served here: its hosts are always known. */
type Served = CampusSite & { hosts: readonly string[] };

/** What an app server of a many-campus installation serves with. */
export interface CampusInstallation {
  /** The database facade the app gets: the request's campus's handles (campus-database.ts). */
  database: Database;
  routing: CampusRouting;
  /** The directory as read at start. */
  campuses: CampusEntry[];
  /**
   * Reads the directory again and applies what changed of the campuses served: a campus registered
   * (served from then on, its jobs and live events included) or no longer registered, its file, its
   * hosts, its state (a campus being moved refuses writes) and its server (a moved campus is served
   * from its new server's pools, opened then). The poll (`pollMs`) and the directory's NOTIFY call it;
   * tests call it. The routing's watchers are told of each campus added, removed or moved.
   */
  refresh(): Promise<void>;
  /** Closes the other servers' pools, then the home database. */
  close(): Promise<void>;
}

/**
 * Reads the campus directory of the home database (PostgreSQL) and, when it names campuses, opens one
 * set of pools per PostgreSQL server holding them, migrates each campus's schema, and gives the
 * database facade and the host routing. Null when there is no campus (a single-campus
 * installation, served as before).
 */
export async function openCampusInstallation(
  home: Database,
  options: {
    poolSize?: number;
    /** How often the directory is read again (CAMPUS_STATE_POLL_MS); 0 or unset: only on NOTIFY. */
    pollMs?: number;
  } = {},
): Promise<CampusInstallation | null> {
  if (!home.pools) return null;
  // The campus files parsed from the directory, parsed again only when their text changes.
  const parsedConfigs: ParsedConfigs = new Map();
  const client = await home.pools.main.connect();
  let entries: CampusEntry[];
  try {
    entries = await readDirectory(client, parsedConfigs);
  } finally {
    client.release();
  }
  if (entries.length === 0) return null;
  const others = new Map<string, Database>();
  const closeOthers = () => Promise.all([...others.values()].map((d) => d.close()));
  const serverOf = async (url: string | null) => {
    if (!url) return home;
    const server =
      others.get(url) ??
      (await openDatabase({ engine: 'postgres', url, poolSize: options.poolSize, migrate: false }));
    others.set(url, server);
    return server;
  };
  const byHost = new Map<string, ServedCampus>();
  const byKey = new Map<string, { work: ServedCampus & Served; server: string | null }>();
  const works: ServedCampus[] = [];
  const mapHosts = () => {
    byHost.clear();
    for (const { work } of byKey.values()) for (const host of work.hosts) byHost.set(host, work);
  };
  /** A campus served from now on: its handles on its server's pools, its schema migrated. */
  const serve = async (entry: CampusEntry) => {
    const server = await serverOf(entry.server);
    const work: ServedCampus & Served = {
      key: entry.key,
      schema: entry.schema,
      config: entry.config,
      hosts: entry.hosts,
      handles: campusHandles(server, entry.schema),
      listen: server.listen,
      state: entry.state,
    };
    const connection = await server.pools!.main.connect();
    try {
      await migrateCampus(connection, work);
    } finally {
      connection.release();
    }
    return work;
  };
  try {
    for (const entry of entries) {
      const work = await serve(entry);
      works.push(work);
      byKey.set(entry.key, { work, server: entry.server });
    }
    mapHosts();
  } catch (error) {
    await closeOthers();
    throw error;
  }

  const watchers = new Set<CampusWatcher>();
  const tell = async (change: CampusChange) => {
    for (const watcher of watchers) {
      try {
        await watcher(change);
      } catch (error) {
        console.error(`Campus ${change.campus.key} ${change.kind}: ${(error as Error).message}`);
      }
    }
  };
  const apply = async () => {
    const client = await home.pools!.main.connect();
    let now: CampusEntry[];
    try {
      // A pooled connection may be pointed at a campus, whose role cannot read the directory.
      await pointAt(client, 'public');
      now = await readDirectory(client, parsedConfigs);
    } finally {
      client.release();
    }
    const registered = new Set(now.map((entry) => entry.key));
    for (const [key, served] of byKey) {
      if (registered.has(key)) continue;
      // No longer registered: its hosts are refused (421) from now on, then its jobs and hub end.
      byKey.delete(key);
      works.splice(works.indexOf(served.work), 1);
      mapHosts();
      await tell({ kind: 'removed', campus: served.work });
    }
    for (const entry of now) {
      const served = byKey.get(entry.key);
      if (!served) {
        // Registered since (`campus add`, which migrated it: this reads three rows): its jobs
        // scope and live-event hub are made before its hosts answer. A failure is tried again
        // at the next reading.
        let work: ServedCampus & Served;
        try {
          work = await serve(entry);
        } catch (error) {
          console.error(`Could not serve campus ${entry.key}: ${(error as Error).message}`);
          continue;
        }
        await tell({ kind: 'added', campus: work });
        works.push(work);
        byKey.set(entry.key, { work, server: entry.server });
        mapHosts();
        continue;
      }
      if (entry.server !== served.server) {
        // Moved (`campus move`): its requests, jobs and new LISTENs go to the new server's pools
        // from the next query on; the old server's pools stay open for its other campuses. Its
        // jobs and live streams then LISTEN on the new server too.
        const server = await serverOf(entry.server);
        served.work.handles = campusHandles(server, entry.schema);
        served.work.listen = server.listen;
        served.server = entry.server;
        await tell({ kind: 'moved', campus: served.work });
      }
      served.work.state = entry.state;
      const isRehosted = entry.hosts.join(' ') !== served.work.hosts.join(' ');
      // Its file changed (`campus update`), or its hosts, whose first is its address: a new config
      // object, so what is kept for the old one (app.config, the shell, its icons) is made again.
      // (The same object when its stored text did not change: readDirectory parses a file again only then.)
      const isRefiled =
        entry.config !== served.work.config &&
        JSON.stringify(entry.config) !== JSON.stringify(served.work.config);
      if (isRehosted || isRefiled) {
        served.work.config = entry.config;
      }
      if (isRehosted) {
        served.work.hosts = entry.hosts;
        mapHosts();
      }
    }
  };
  // One reading at a time; a call meanwhile waits for the next.
  let reading: Promise<void> = Promise.resolve();
  const refresh = () => (reading = reading.then(apply, apply));
  const onError = (error: unknown) => {
    console.error(`Could not read the campus directory: ${(error as Error).message}`);
  };
  const unlisten = await home.listen(DIRECTORY_CHANNEL, () => void refresh().catch(onError));
  const timer =
    options.pollMs && options.pollMs > 0
      ? setInterval(() => void refresh().catch(onError), options.pollMs)
      : undefined;
  timer?.unref();
  const close = async () => {
    if (timer) clearInterval(timer);
    await unlisten().catch(() => {});
    await reading.catch(() => {});
    await closeOthers();
    await home.close();
  };
  return {
    database: { ...campusAwareDatabase(home), close },
    routing: {
      campusOfHost: (host) => byHost.get(host),
      campuses: works,
      watch: (watcher) => {
        watchers.add(watcher);
        return () => void watchers.delete(watcher);
      },
    },
    campuses: entries,
    refresh,
    close,
  };
}
