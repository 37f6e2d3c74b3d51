import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { users, type UserRow } from '../../db/schema';
import { ssoIdentities, ssoOnce } from '../../db/sso.schema';

/**
 * Claims `key` once until `expiresAt`: true for the one caller whose insert made the row, false for
 * every other (parallel or later) one, on every app server. Expired rows are swept on the way.
 */
export async function claimOnce(
  db: Db,
  key: string,
  expiresAt: Date,
  value: string | null = null,
): Promise<boolean> {
  await db.delete(ssoOnce).where(lt(ssoOnce.expiresAt, sql`now()`));
  const rows = await db
    .insert(ssoOnce)
    .values({ key, value, expiresAt })
    .onConflictDoNothing({ target: ssoOnce.key })
    .returning({ key: ssoOnce.key });
  return rows.length === 1;
}

/** The value stored with a live key, or null. */
export async function readOnce(db: Db, key: string): Promise<string | null> {
  const [row] = await db
    .select({ value: ssoOnce.value })
    .from(ssoOnce)
    .where(and(eq(ssoOnce.key, key), gt(ssoOnce.expiresAt, sql`now()`)));
  return row ? (row.value ?? '') : null;
}

/** Deletes a key; its value if it was there and live. */
export async function removeOnce(db: Db, key: string): Promise<string | null> {
  const [row] = await db
    .delete(ssoOnce)
    .where(eq(ssoOnce.key, key))
    .returning({ value: ssoOnce.value, expiresAt: ssoOnce.expiresAt });
  return row && row.expiresAt > new Date() ? (row.value ?? '') : null;
}

/** The account linked to this identity at the provider. */
export async function findUserByIdentity(
  db: Db,
  provider: string,
  subject: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(ssoIdentities)
    .innerJoin(users, eq(users.id, ssoIdentities.userId))
    .where(and(eq(ssoIdentities.provider, provider), eq(ssoIdentities.subject, subject)));
  return row?.user;
}

/** Links the identity to the account; false when the identity was already linked (to anyone). */
export async function linkIdentity(
  db: Db,
  provider: string,
  subject: string,
  userId: string,
): Promise<boolean> {
  const rows = await db
    .insert(ssoIdentities)
    .values({ provider, subject, userId })
    .onConflictDoNothing()
    .returning({ userId: ssoIdentities.userId });
  return rows.length === 1;
}
