import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { users, type SignupClaim, type UserRow } from '../../db/schema';

/** The columns a profile change may set (`updatedAt` is set by the repository). */
export type UserChanges = Partial<
  Omit<typeof users.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>
>;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return user;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

/**
 * Creates the account, or nothing when the address already has one (the unique index decides, so
 * of parallel sign-ups for one address exactly one creates it). `email` is stored lower-case;
 * `verified` when a sign-on provider vouched for the address.
 */
export async function insertUserUnlessEmailTaken(
  db: Db,
  values: Pick<
    typeof users.$inferInsert,
    'firstName' | 'lastName' | 'username' | 'email' | 'passwordHash' | 'groupmelink'
  >,
  { verified = false } = {},
): Promise<UserRow | undefined> {
  const [created] = await db
    .insert(users)
    .values({
      ...values,
      email: values.email.toLowerCase(),
      ...(verified ? { emailVerifiedAt: sql`now()` } : {}),
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  return created;
}

/** Sets the given columns and `updatedAt`; the updated row, or undefined if the user is gone. */
export async function updateUser(
  db: Db,
  id: string,
  changes: UserChanges,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/**
 * Verifies the account's address, taking a sign-up claim's password and names if given. Acts only
 * while the address is unverified, so of parallel links exactly one returns true.
 */
export async function markUserEmailVerified(
  db: Db,
  id: string,
  claim: SignupClaim | null,
): Promise<boolean> {
  const [row] = await db
    .update(users)
    .set({
      emailVerifiedAt: sql`now()`,
      ...(claim
        ? {
            passwordHash: claim.passwordHash,
            firstName: claim.firstName,
            lastName: claim.lastName,
            username: claim.username,
            groupmelink: claim.groupmelink,
            updatedAt: sql`now()`,
          }
        : {}),
    })
    .where(and(eq(users.id, id), isNull(users.emailVerifiedAt)))
    .returning({ id: users.id });
  return row !== undefined;
}

/** Makes `email` the account's address (verified); throws a unique violation if it is taken. */
export async function confirmUserEmail(db: Db, id: string, email: string): Promise<void> {
  await db
    .update(users)
    .set({
      email,
      pendingEmail: null,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, id));
}

/** Sets a new password hash; `provesAddress` also verifies the address the reset link went to. */
export async function setUserPassword(
  db: Db,
  id: string,
  passwordHash: string,
  provesAddress: boolean,
): Promise<void> {
  await db
    .update(users)
    .set({
      passwordHash,
      updatedAt: sql`now()`,
      ...(provesAddress ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` } : {}),
    })
    .where(eq(users.id, id));
}

/** Deletes the account (cascades to its rows); false when it was already gone. */
export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return deleted.length > 0;
}

/**
 * Locks the user's row until the transaction ends (FOR UPDATE): a per-user cap checked after it
 * counts what the user's other transactions wrote, so parallel requests cannot pass it together.
 */
export async function lockUserRow(tx: Db, id: string): Promise<void> {
  await tx.execute(sql`SELECT 1 FROM ${users} WHERE ${users.id} = ${id} FOR UPDATE`);
}

/** True for PostgreSQL's unique_violation (23505), however the driver wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
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

/** Deletes the unverified account of the address, if any (someone's unproven claim on it). */
export async function deleteUnverifiedUserByEmail(db: Db, email: string): Promise<void> {
  await db
    .delete(users)
    .where(and(eq(users.email, email.toLowerCase()), isNull(users.emailVerifiedAt)));
}

/** Turns the mails about a student's saved listings on or off. */
export async function setSavedListingMails(db: Db, userId: string, on: boolean): Promise<void> {
  await db
    .update(users)
    .set({ savedListingMails: on, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** Turns read receipts ("Seen") on or off, both ways (features/conversations). */
export async function setReadReceipts(db: Db, userId: string, on: boolean): Promise<void> {
  await db
    .update(users)
    .set({ readReceipts: on, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** Turns the mails about unread messages on or off. */
export async function setMessageMails(db: Db, userId: string, on: boolean): Promise<void> {
  await db
    .update(users)
    .set({ messageMails: on, updatedAt: new Date() })
    .where(eq(users.id, userId));
}
