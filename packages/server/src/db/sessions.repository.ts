import { and, eq, gt, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Db } from './database';
import { preparedOnce } from './prepared';
import { sessions, users, type UserRow } from './schema';

// Sessions' queries live in db/, not in features/accounts/: the sessions plugin reads them and a plugin
// imports no feature (eslint.config.js).

/** Opens a session row; its id is what the signed cookie names. */
export async function insertSession(db: Db, userId: string, expiresAt: Date): Promise<string> {
  const [row] = await db.insert(sessions).values({ userId, expiresAt }).returning();
  return row!.id;
}

/** Revokes one session. */
export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Revokes every session of a user, except `keepSessionId` if given. */
export async function deleteSessionsOfUser(
  db: Db,
  userId: string,
  keepSessionId?: string,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keepSessionId
        ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId))
        : eq(sessions.userId, userId),
    );
}

/**
 * The user of a live session: the row exists, belongs to `userId`, has not expired, and the account
 * is not suspended (a suspended account is signed out everywhere, features/moderation).
 */
export async function findLiveSession(
  db: Db,
  sessionId: string,
  userId: string,
): Promise<{ user: UserRow; sessionId: string } | undefined> {
  // Read on every signed-in request: built once (db/prepared.ts).
  const statement = preparedOnce(db, 'live_session', (name) =>
    db
      .select({ user: users, sessionId: sessions.id })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.id, sql.placeholder('sessionId')),
          eq(sessions.userId, sql.placeholder('userId')),
          gt(sessions.expiresAt, sql.placeholder('now')),
          isNull(users.suspendedAt),
        ),
      )
      .prepare(name),
  );
  const [row] = await statement.execute({ sessionId, userId, now: new Date() });
  return row;
}

/** Deletes the sessions expired at `now` (the retention policy); how many. */
export async function deleteExpiredSessions(db: Db, now: Date): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(lte(sessions.expiresAt, now))
    .returning({ id: sessions.id });
  return deleted.length;
}
