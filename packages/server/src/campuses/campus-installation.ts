import { openDatabase, type Database } from '../db/database';
import type { CampusSite } from './campus-app-config';
import { campusHandles, campusAwareDatabase } from './campus-database';
import type { ServedCampus } from './campus-context';
import { DIRECTORY_CHANNEL, readDirectory, type CampusEntry } from './campus-directory';
import { pointAt } from './campus-pool';
import { migrateCampus } from './campus-provision';
import type { CampusRouting } from './campus-routing';

/** What an app server of a many-campus installation serves with. */
export interface CampusInstallation {
  /** The database facade the app gets: the request's campus's handles (campus-database.ts). */
  database: Database;
  routing: CampusRouting;
  campuses: CampusEntry[];
  /**
   * Reads the directory again and applies what changed of the campuses served: a state (a campus
   * being moved refuses writes) and a server (a moved campus is served from its new server's pools,
   * opened then). The poll (`pollMs`) and the directory's NOTIFY call it; tests call it. A campus
   * registered since the start is served after a restart.
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
  const client = await home.pools.main.connect();
  let entries: CampusEntry[];
  try {
    entries = await readDirectory(client);
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
  const byKey = new Map<string, { work: ServedCampus; server: string | null }>();
  const works: ServedCampus[] = [];
  try {
    for (const entry of entries) {
      const server = await serverOf(entry.server);
      const work: ServedCampus & CampusSite = {
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
      works.push(work);
      byKey.set(entry.key, { work, server: entry.server });
      for (const host of entry.hosts) byHost.set(host, work);
    }
  } catch (error) {
    await closeOthers();
    throw error;
  }

  const apply = async () => {
    const client = await home.pools!.main.connect();
    let now: CampusEntry[];
    try {
      // A pooled connection may be pointed at a campus, whose role cannot read the directory.
      await pointAt(client, 'public');
      now = await readDirectory(client);
    } finally {
      client.release();
    }
    for (const entry of now) {
      const served = byKey.get(entry.key);
      if (!served) continue;
      if (entry.server !== served.server) {
        // Moved (`campus move`): its requests, jobs and new LISTENs go to the new server's pools
        // from the next query on; the old server's pools stay open for its other campuses.
        const server = await serverOf(entry.server);
        served.work.handles = campusHandles(server, entry.schema);
        served.work.listen = server.listen;
        served.server = entry.server;
      }
      served.work.state = entry.state;
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
    routing: { campusOfHost: (host) => byHost.get(host), campuses: works },
    campuses: entries,
    refresh,
    close,
  };
}
