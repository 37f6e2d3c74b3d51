import {
  ALERT_MESSAGES,
  MAX_ALERTS_PER_USER,
  type Alert,
  type AlertInput,
} from '@campus-books/common/alert.schemas';
import { toIsbn13 } from '@campus-books/common/isbn';
import type { Db } from '../../db/database';
import type { AlertRow } from '../../db/alerts.schema';
import {
  isUniqueViolation,
  lockUserRow,
  setMessageMails,
  setSavedListingMails,
} from '../accounts/users.repository';
import { AppError, notFound } from '../../lib/errors';
import { setTermEndSubscription } from '../shelf/term-end.repository';
import {
  deleteAlertsOf,
  findAlertsOf,
  insertAlertUnlessSame,
  updateAlertOf,
} from './alerts.repository';
import type { NotificationKind } from '@campus-books/common/notification.schemas';
import { stopMails } from '../notifications/notification-settings';
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
      // Sorted as the database's "C" collation sorts (code points), distinct: one set of words has
      // one stored form, which the unique index on an alert's filters compares.
      termWords = words
        ? [...new Set(words)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
        : [searchTerm.toLowerCase()];
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

export async function listAlerts(db: Db, userId: string): Promise<AlertRow[]> {
  return findAlertsOf(db, userId);
}

/**
 * Creates an alert unless the student has MAX_ALERTS_PER_USER already. The owner's row is locked
 * first, so concurrent creates count one after the other and never pass the limit together.
 * An alert with the same filters as one of the student's (issue 26 item 5) is not created again:
 * with the same settings too (a double tap, a repeated request) the existing alert is answered
 * (`created: false`), with other settings it is a 409; neither counts toward the limit. The unique
 * index `alerts_same_filters` holds the rule in the database as well (`ON CONFLICT DO NOTHING`).
 */
export async function createAlert(
  db: Db,
  userId: string,
  input: AlertInput,
): Promise<{ row: AlertRow; created: boolean }> {
  const columns = alertColumns(input);
  const wanted = filtersKey(columns);
  const sameAs = (rows: AlertRow[]) => {
    const same = rows.find((a) => filtersKey(a) === wanted);
    if (!same) return null;
    if (same.digest !== columns.digest || same.paused !== columns.paused) {
      throw new AppError(409, ALERT_MESSAGES.exists);
    }
    return { row: same, created: false };
  };
  return db.transaction(async (tx) => {
    await lockUserRow(tx, userId);
    const mine = await findAlertsOf(tx, userId);
    const existing = sameAs(mine);
    if (existing) return existing;
    if (mine.length >= MAX_ALERTS_PER_USER) throw new AppError(409, ALERT_MESSAGES.tooMany);
    const row = await insertAlertUnlessSame(tx, userId, columns);
    if (row) return { row, created: true };
    const again = sameAs(await findAlertsOf(tx, userId));
    if (!again) throw new AppError(409, ALERT_MESSAGES.exists);
    return again;
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
  db: Db,
  userId: string,
  id: string,
  input: AlertInput,
): Promise<AlertRow> {
  if (!UUID.test(id)) throw notFound(ALERT_MESSAGES.notFound);
  const columns = alertColumns(input);
  const saving = db.transaction(async (tx) => {
    await lockUserRow(tx, userId);
    const mine = await findAlertsOf(tx, userId);
    const current = mine.find((a) => a.id === id);
    if (!current) throw notFound(ALERT_MESSAGES.notFound);
    const wanted = filtersKey(columns);
    if (
      wanted !== filtersKey(current) &&
      mine.some((a) => a.id !== id && filtersKey(a) === wanted)
    ) {
      throw new AppError(409, ALERT_MESSAGES.duplicate);
    }
    return (await updateAlertOf(tx, userId, id, columns))!;
  });
  // The unique index is the last word: an edit it refuses is the same 409, never a 500.
  return saving.catch((error: unknown) => {
    if (isUniqueViolation(error)) throw new AppError(409, ALERT_MESSAGES.duplicate);
    throw error;
  });
}

export async function deleteAlert(db: Db, userId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound(ALERT_MESSAGES.notFound);
  if ((await deleteAlertsOf(db, userId, [id])) === 0) throw notFound(ALERT_MESSAGES.notFound);
}

/** What an unsubscribe link needs: the database, the key that signs its tokens, the clock. */
export interface UnsubscribeDeps {
  db: Db;
  sessionSecret: string;
  now: () => Date;
}

/**
 * One-click unsubscribe from a mail: the signed token is the authority (no session). Deletes the
 * alerts it names that still exist and, when it names them, turns off the mails about the
 * student's saved listings (the listings stay saved; the Saved page turns the mails back on).
 * Using a link again changes nothing and answers the same.
 */
export async function unsubscribe(
  deps: UnsubscribeDeps,
  token: string | undefined,
): Promise<{
  alerts: boolean;
  savedListings: boolean;
  termEndMail: boolean;
  messageMails: boolean;
  kinds: NotificationKind[];
}> {
  const read = readToken(deps, token);
  if (!read) throw new AppError(400, ALERT_MESSAGES.badUnsubscribe);
  const ids = read.alertIds.filter((id) => UUID.test(id));
  await deps.db.transaction(async (tx) => {
    await deleteAlertsOf(tx, read.userId, ids);
    if (read.savedListings) {
      await setSavedListingMails(tx, read.userId, false);
    }
    if (read.messageMails) {
      await setMessageMails(tx, read.userId, false);
    }
    if (read.termEndMail) {
      await setTermEndSubscription(tx, read.userId, false);
    }
    for (const kind of read.kinds) await stopMails(tx, read.userId, kind);
  });
  return {
    alerts: read.alertIds.length > 0,
    savedListings: read.savedListings,
    termEndMail: read.termEndMail,
    messageMails: read.messageMails,
    kinds: read.kinds,
  };
}

/** What a token would stop, without stopping it (the page a GET shows); null when not valid. */
export function readToken(
  { sessionSecret, now }: Pick<UnsubscribeDeps, 'sessionSecret' | 'now'>,
  token: string | undefined,
) {
  return token ? readUnsubscribeToken(sessionSecret, token, now()) : null;
}
