import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  ALERT_MESSAGES,
  MAX_ALERTS_PER_USER,
  type Alert,
  type AlertInput,
} from '@campus-books/common/alert.schemas';
import { toIsbn13 } from '@campus-books/common/isbn';
import { alerts, type AlertRow } from '../../db/schema';
import { lockUserRow } from '../accounts/users.repository';
import { AppError, notFound } from '../../lib/errors';
import { readUnsubscribeToken } from './unsubscribe-token';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toAlert(row: AlertRow): Alert {
  return {
    _id: row.id,
    searchTerm: row.searchTerm,
    isbn: row.isbn,
    subject: row.subject,
    courseNumber: row.courseNumber,
    major: row.major,
    condition: row.condition,
    school: row.school,
    maxPrice: row.maxPrice === null ? null : Number(row.maxPrice),
    digest: row.digest,
    paused: row.paused,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The words a listing's name must contain, as the search reads a term: words of 3+ letters or
 * digits, lower-case; a term without such a word must appear as typed. A term that is an ISBN
 * watches that book instead.
 */
export function alertColumns(input: AlertInput) {
  let { isbn, searchTerm } = input;
  let termWords: string[] | null = null;
  if (searchTerm) {
    const asIsbn = toIsbn13(searchTerm);
    if (asIsbn && !isbn) {
      isbn = asIsbn;
      searchTerm = null;
    } else {
      const words = searchTerm.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu);
      termWords = words ? [...new Set(words)] : [searchTerm.toLowerCase()];
    }
  }
  return {
    searchTerm,
    termWords,
    isbn: isbn ? toIsbn13(isbn) : null,
    subject: input.subject,
    courseNumber: input.courseNumber,
    major: input.major,
    condition: input.condition,
    school: input.school,
    maxPrice: input.maxPrice,
    digest: input.digest,
    paused: input.paused,
  };
}

export async function listAlerts(app: FastifyInstance, userId: string): Promise<AlertRow[]> {
  return app.database.db
    .select()
    .from(alerts)
    .where(eq(alerts.userId, userId))
    .orderBy(desc(alerts.createdAt), desc(alerts.id));
}

/**
 * Creates an alert unless the student has MAX_ALERTS_PER_USER already. The owner's row is locked
 * first, so concurrent creates count one after the other and never pass the limit together.
 */
export async function createAlert(
  app: FastifyInstance,
  userId: string,
  input: AlertInput,
): Promise<AlertRow> {
  return app.database.db.transaction(async (tx) => {
    await lockUserRow(tx, userId);
    const [{ value } = { value: 0 }] = await tx
      .select({ value: count() })
      .from(alerts)
      .where(eq(alerts.userId, userId));
    if (value >= MAX_ALERTS_PER_USER) throw new AppError(409, ALERT_MESSAGES.tooMany);
    const [row] = await tx
      .insert(alerts)
      .values({ ...alertColumns(input), userId })
      .returning();
    return row!;
  });
}

/** What an alert looks for (its filters, as stored), to tell two alerts that watch the same thing. */
function filtersKey(columns: Pick<AlertRow, (typeof FILTER_COLUMNS)[number]>): string {
  return JSON.stringify(
    FILTER_COLUMNS.map((name) => {
      const value = columns[name];
      if (name === 'maxPrice') return value === null ? null : Number(value);
      if (name === 'termWords') return value === null ? null : [...(value as string[])].sort();
      return value;
    }),
  );
}
const FILTER_COLUMNS = [
  'termWords',
  'isbn',
  'subject',
  'courseNumber',
  'major',
  'condition',
  'school',
  'maxPrice',
] as const;

/**
 * Replaces an alert's filters and settings. An edit whose filters become those of another of the
 * student's alerts is a 409 (two alerts would mail the same listings); pausing or switching to the
 * digest never is. The owner's row is locked first, as for a create, so two edits that would make
 * the same pair of duplicates run one after the other.
 */
export async function updateAlert(
  app: FastifyInstance,
  userId: string,
  id: string,
  input: AlertInput,
): Promise<AlertRow> {
  if (!UUID.test(id)) throw notFound(ALERT_MESSAGES.notFound);
  const columns = alertColumns(input);
  return app.database.db.transaction(async (tx) => {
    await lockUserRow(tx, userId);
    const mine = await tx.select().from(alerts).where(eq(alerts.userId, userId));
    const current = mine.find((a) => a.id === id);
    if (!current) throw notFound(ALERT_MESSAGES.notFound);
    const wanted = filtersKey(columns);
    if (
      wanted !== filtersKey(current) &&
      mine.some((a) => a.id !== id && filtersKey(a) === wanted)
    ) {
      throw new AppError(409, ALERT_MESSAGES.duplicate);
    }
    const [row] = await tx
      .update(alerts)
      .set({ ...columns, updatedAt: new Date() })
      .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
      .returning();
    return row!;
  });
}

export async function deleteAlert(app: FastifyInstance, userId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound(ALERT_MESSAGES.notFound);
  const deleted = await app.database.db
    .delete(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
    .returning({ id: alerts.id });
  if (deleted.length === 0) throw notFound(ALERT_MESSAGES.notFound);
}

/**
 * One-click unsubscribe from a mail: the signed token is the authority (no session). Deletes the
 * alerts it names that still exist; using a link again changes nothing and answers the same.
 */
export async function unsubscribe(app: FastifyInstance, token: string | undefined): Promise<void> {
  const read = token ? readUnsubscribeToken(app.config.sessionSecret, token, new Date()) : null;
  if (!read) throw new AppError(400, ALERT_MESSAGES.badUnsubscribe);
  const ids = read.alertIds.filter((id) => UUID.test(id));
  if (ids.length === 0) return;
  await app.database.db
    .delete(alerts)
    .where(and(eq(alerts.userId, read.userId), inArray(alerts.id, ids)));
}
