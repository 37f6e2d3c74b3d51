import { openDatabase, type Database } from '../db/database';
import { campusHandles, campusAwareDatabase } from './campus-database';
import type { ServedCampus } from './campus-context';
import { readDirectory, type CampusEntry } from './campus-directory';
import { migrateCampus } from './campus-provision';
import type { CampusRouting } from './campus-routing';

/** What an app server of a many-campus installation serves with. */
export interface CampusInstallation {
  /** The database facade the app gets: the request's campus's handles (campus-database.ts). */
  database: Database;
  routing: CampusRouting;
  campuses: CampusEntry[];
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
  options: { poolSize?: number } = {},
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
  const byHost = new Map<string, ServedCampus>();
  const works: ServedCampus[] = [];
  try {
    for (const entry of entries) {
      let server = home;
      if (entry.server) {
        server =
          others.get(entry.server) ??
          (await openDatabase({
            engine: 'postgres',
            url: entry.server,
            poolSize: options.poolSize,
            migrate: false,
          }));
        others.set(entry.server, server);
      }
      const work: ServedCampus = {
        key: entry.key,
        schema: entry.schema,
        config: entry.config,
        handles: campusHandles(server, entry.schema),
        listen: server.listen,
      };
      const connection = await server.pools!.main.connect();
      try {
        await migrateCampus(connection, work);
      } finally {
        connection.release();
      }
      works.push(work);
      for (const host of entry.hosts) byHost.set(host, work);
    }
  } catch (error) {
    await closeOthers();
    throw error;
  }
  const close = async () => {
    await closeOthers();
    await home.close();
  };
  return {
    database: { ...campusAwareDatabase(home), close },
    routing: { campusOfHost: (host) => byHost.get(host), campuses: works },
    campuses: entries,
    close,
  };
}
