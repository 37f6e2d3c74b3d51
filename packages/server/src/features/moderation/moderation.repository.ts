import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { users } from '../../db/schema';

// A moderator's reads and writes of accounts: a suspension is a moderation decision.

export async function userExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
  return row !== undefined;
}

export async function findUserEmail(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, id));
  return row?.email;
}

/** Suspends the account; false when it is missing or already suspended (acts once). */
export async function suspendUserRow(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .update(users)
    .set({ suspendedAt: new Date() })
    .where(and(eq(users.id, id), isNull(users.suspendedAt)))
    .returning({ id: users.id });
  return row !== undefined;
}

/** Lifts a suspension; false when the account is missing or not suspended (acts once). */
export async function unsuspendUserRow(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .update(users)
    .set({ suspendedAt: null })
    .where(and(eq(users.id, id), isNotNull(users.suspendedAt)))
    .returning({ id: users.id });
  return row !== undefined;
}
