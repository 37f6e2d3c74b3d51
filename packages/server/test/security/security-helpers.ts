import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/database';
import { encode } from './hostile-input';

export interface RouteEntry {
  method: string;
  /** Fastify's path, with `:param` placeholders. */
  path: string;
}

/**
 * Every route the app answers, read from Fastify's own route tree (printRoutes), so a route added
 * later is attacked too without anyone remembering to list it. HEAD twins of GET are left out.
 */
export function listRoutes(app: FastifyInstance): RouteEntry[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: RouteEntry[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S*)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const parent = stack.join('');
    const segment = match[2]!;
    const needsSlash = segment.startsWith(':') && !parent.endsWith('/');
    const full = needsSlash ? `${parent}/${segment}` : parent + segment;
    stack.push(full.slice(parent.length));
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method && method !== 'HEAD') routes.push({ method, path: full });
    }
  }
  return routes;
}

const TABLES = ['users', 'sessions', 'email_tokens', 'listings', 'images'] as const;

/**
 * Row counts and an md5 of every row of every table: equal fingerprints mean nothing was written.
 * One statement, so it is cheap enough to take after every refused request.
 */
export async function fingerprint(database: Database): Promise<string> {
  const parts = TABLES.map(
    (table) =>
      sql`(SELECT ${table} || ':' || count(*) || ':' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM ${sql.identifier(table)} t)`,
  );
  const result = (await database.db.execute(
    sql`SELECT concat_ws('|', ${sql.join(parts, sql`, `)}) AS fp`,
  )) as unknown as { rows: { fp: string }[] };
  return result.rows[0]!.fp;
}

/** Fills a route's `:params` with the values given (or a placeholder). */
export function fillPath(path: string, values: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => encode(values[name] ?? values['*'] ?? 'x'));
}

/** A figure line the reader of the test output (and docs/security.md) can find with grep. */
export function printFigure(name: string, figures: Record<string, unknown>): void {
  console.log(`[figure] ${name}: ${JSON.stringify(figures)}`);
}
