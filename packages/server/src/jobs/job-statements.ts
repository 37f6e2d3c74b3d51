import { sql, type SQL } from 'drizzle-orm';
import { textLiteral } from '../db/literal';
import { rowsOf, type Executor } from '../db/rows';

/**
 * The job table's statements (docs/decisions/006): what the runner in `jobs.ts` says to the
 * database, kept apart from when it says it.
 */

/**
 * The NOTIFY channel an enqueue wakes the servers on. Its payload is `<schema>:<job name>`: the
 * schema of the `jobs` table written (a campus's, decision 024), so a runner looks at that scope
 * only. A payload without a schema (a server of an earlier version) wakes every scope.
 */
export const JOBS_CHANNEL = 'jobs';

/** An enqueue's NOTIFY payload read: the job's name and, when it says, the schema of its table. */
export function parseJobNotice(payload: string): { schema?: string; name: string } {
  const cut = payload.indexOf(':');
  if (cut < 0) return { name: payload };
  return { schema: payload.slice(0, cut), name: payload.slice(cut + 1) };
}

/** A claimed job as the claim returns it, with the claim's token. */
export interface ClaimedRow {
  id: string;
  name: string;
  payload: unknown;
  run_at: string | Date;
  interval_ms: number | null;
  attempts: number;
  max_attempts: number;
  /** This claim's token: the job is this server's while `locked_by` still holds it. */
  token: string;
}

export const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** A one-off job, unless a pending job has its key, with the NOTIFY that wakes the servers. */
export function enqueueStatement(
  name: string,
  payload: unknown,
  options: { key: string | null; runAt: Date; maxAttempts: number },
): SQL {
  return sql`
      WITH added AS (
        INSERT INTO jobs (name, key, payload, run_at, max_attempts)
        VALUES (${name}, ${options.key}, ${JSON.stringify(payload)}::jsonb, ${ts(options.runAt)},
          ${options.maxAttempts})
        ON CONFLICT (key) DO NOTHING
        RETURNING id, tableoid
      )
      SELECT id, pg_notify(${JOBS_CHANNEL},
        (SELECT nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.oid = added.tableoid) || ${`:${name}`})
      FROM added`;
}

/**
 * `enqueue` as a trigger's statements (plpgsql): a job `name` due now for each row of `rows` (a
 * `FROM …` clause), its payload `payload`, then the NOTIFY that wakes the servers, so a job a
 * trigger writes is the job runner's own row. Constants only: the trigger's body has no parameter.
 */
export function enqueueInTriggerSql(
  name: string,
  payload: SQL,
  rows: SQL,
  maxAttempts: number,
): SQL {
  return sql`INSERT INTO public.jobs (name, payload, run_at, max_attempts)
    SELECT ${textLiteral(name)}, ${payload}, now(), ${sql.raw(String(Math.trunc(maxAttempts)))} ${rows};
  IF FOUND THEN
    PERFORM pg_notify(${textLiteral(JOBS_CHANNEL)}, TG_TABLE_SCHEMA || ${textLiteral(`:${name}`)});
  END IF;`;
}

/** A recurring job's one row, scheduled (or its interval changed) at a server's start. */
export function scheduleStatement(
  name: string,
  everyMs: number,
  now: Date,
  at?: (after: Date) => Date,
): SQL {
  if (at) {
    // A calendar slot: a pending slot in the future moves to the schedule's (its hour may have
    // been configured anew); a slot already due stays, so a run missed while no server ran
    // happens now.
    return sql`
        INSERT INTO jobs (name, key, run_at, interval_ms)
        VALUES (${name}, ${`every:${name}`}, ${ts(at(now))}, ${everyMs})
        ON CONFLICT (key) DO UPDATE
          SET interval_ms = EXCLUDED.interval_ms, run_at = EXCLUDED.run_at
          WHERE jobs.run_at > ${ts(now)} AND jobs.run_at <> EXCLUDED.run_at
            AND jobs.locked_by IS NULL`;
  }
  const first = new Date(now.getTime() + everyMs);
  return sql`
      INSERT INTO jobs (name, key, run_at, interval_ms)
      VALUES (${name}, ${`every:${name}`}, ${ts(first)}, ${everyMs})
      ON CONFLICT (key) DO UPDATE
        SET interval_ms = EXCLUDED.interval_ms, run_at = LEAST(jobs.run_at, EXCLUDED.run_at)
        WHERE jobs.interval_ms IS DISTINCT FROM EXCLUDED.interval_ms`;
}

/**
 * The recurring slots (by key) missed while every server was down, overdue at `now`, moved to
 * `firstLook`; a slot not yet due stays where it is.
 */
export function deferMissedSlotsStatement(keys: string[], now: Date, firstLook: Date): SQL {
  return sql`
      UPDATE jobs SET run_at = ${ts(firstLook)}
      WHERE key IN (${sql.join(
        keys.map((key) => sql`${key}`),
        sql`, `,
      )}) AND run_at < ${ts(now)}
        AND locked_by IS NULL AND failed_at IS NULL`;
}

/**
 * When the next of the jobs of these names can be claimed (its `run_at`, or its lease's end while a
 * server holds it); null when there is none. A runner remembers it per scope (job-scopes.ts).
 */
export function nextDueStatement(names: string[]): SQL {
  return sql`
      SELECT min(GREATEST(run_at, COALESCE(locked_until, run_at))) AS due FROM jobs
      WHERE failed_at IS NULL AND name IN (${sql.join(
        names.map((n) => sql`${n}`),
        sql`, `,
      )})`;
}

/** Up to `limit` due jobs of these names, claimed for a lease (`FOR UPDATE SKIP LOCKED`). */
export function claimStatement(claim: {
  names: string[];
  now: Date;
  leaseMs: number;
  limit: number;
  token: string;
}): SQL {
  const { names, now, leaseMs, limit, token } = claim;
  return sql`
      UPDATE jobs
      SET locked_until = ${ts(new Date(now.getTime() + leaseMs))}, locked_by = ${token},
        attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM jobs
        WHERE failed_at IS NULL AND run_at <= ${ts(now)}
          AND (locked_until IS NULL OR locked_until <= ${ts(now)})
          AND name IN (${sql.join(
            names.map((n) => sql`${n}`),
            sql`, `,
          )})
        ORDER BY run_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, name, payload, run_at, interval_ms, attempts, max_attempts`;
}

/**
 * The statements of one claimed job, each only while this claim (`token`) still holds it: renew the
 * lease, lock it to end the run in a transaction, move a recurring job to its next slot, delete a
 * one-off, give up, or retry later.
 */
export function claimOf(id: string, token: string) {
  const mine = sql`id = ${id} AND locked_by = ${token}`;
  return {
    renew: (until: Date) =>
      sql`UPDATE jobs SET locked_until = ${ts(until)} WHERE ${mine} RETURNING id`,
    lock: () => sql`SELECT id FROM jobs WHERE ${mine} FOR UPDATE`,
    moveTo: (slot: Date) => sql`UPDATE jobs SET run_at = ${ts(slot)}, attempts = 0,
            locked_until = NULL, locked_by = NULL, last_error = NULL WHERE ${mine}`,
    remove: () => sql`DELETE FROM jobs WHERE ${mine}`,
    giveUp: (now: Date, message: string) =>
      sql`UPDATE jobs SET failed_at = ${ts(now)}, last_error = ${message},
          locked_until = NULL, locked_by = NULL WHERE ${mine}`,
    retryAt: (at: Date, message: string) =>
      sql`UPDATE jobs SET run_at = ${ts(at)}, last_error = ${message},
          locked_until = NULL, locked_by = NULL WHERE ${mine}`,
  };
}

/** Deletes the one-off jobs given up before `before` (the retention policy); how many. */
export async function deleteFailedJobsBefore(db: Executor, before: Date): Promise<number> {
  const rows = await rowsOf(
    db,
    sql`DELETE FROM jobs WHERE failed_at < ${before.toISOString()}::timestamptz RETURNING id`,
  );
  return rows.length;
}
