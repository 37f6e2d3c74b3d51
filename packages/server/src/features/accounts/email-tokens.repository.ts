import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { emailTokens, users, type SignupClaim } from '../../db/schema';

export type TokenPurpose = 'verify_email' | 'reset_password';
export type EmailTokenRow = typeof emailTokens.$inferSelect;

const LIFETIME_SECONDS: Record<TokenPurpose, number> = {
  verify_email: 24 * 60 * 60,
  reset_password: 60 * 60,
};

/** Only this hash is stored, so a leaked database holds no usable link. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Creates a single-use token for a link; `email` is the address the link was sent to. */
export async function issueEmailToken(
  db: Db,
  options: { userId: string; purpose: TokenPurpose; email: string; signupClaim?: SignupClaim },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(emailTokens).values({
    tokenHash: hashToken(token),
    userId: options.userId,
    purpose: options.purpose,
    email: options.email,
    signupClaim: options.signupClaim ?? null,
    expiresAt: sql`now() + make_interval(secs => ${LIFETIME_SECONDS[options.purpose]})`,
  });
  return token;
}

/**
 * Creates a single-use token for the account of `email`, if there is one, with the same work either
 * way (decision 002: an answer's time must not tell whether the address has an account): the token
 * is made and hashed, and one INSERT … SELECT runs, which writes a row only when the address has
 * an account. The token and the account's address, or null.
 */
export async function issueEmailTokenForAddress(
  db: Db,
  email: string,
  purpose: TokenPurpose,
): Promise<{ token: string; email: string } | null> {
  const token = randomBytes(32).toString('base64url');
  const [row] = await rowsOf<{ email: string }>(
    db,
    sql`INSERT INTO ${emailTokens} (token_hash, user_id, purpose, email, expires_at)
        SELECT ${hashToken(token)}, ${users.id}, ${purpose}, ${users.email},
               now() + make_interval(secs => ${LIFETIME_SECONDS[purpose]})
        FROM ${users} WHERE ${users.email} = ${email.toLowerCase()}
        RETURNING email`,
  );
  return row ? { token, email: row.email } : null;
}

/** The token's row, used or not, expired or not: a cheap look-up before any costly work. */
export async function findEmailToken(
  db: Db,
  token: string,
  purpose: TokenPurpose,
): Promise<EmailTokenRow | null> {
  const [row] = await db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, hashToken(token)), eq(emailTokens.purpose, purpose)));
  return row ?? null;
}

/** The sign-up claim of the user's newest usable verification link, if one carries a claim. */
export async function latestLiveSignupClaim(db: Db, userId: string): Promise<SignupClaim | null> {
  const [row] = await db
    .select({ claim: emailTokens.signupClaim })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.purpose, 'verify_email'),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, sql`now()`),
        isNotNull(emailTokens.signupClaim),
      ),
    )
    .orderBy(desc(emailTokens.createdAt))
    .limit(1);
  return row?.claim ?? null;
}

/** True while the token can still be used (unused and not expired). */
export async function isLiveEmailToken(
  db: Db,
  token: string,
  purpose: TokenPurpose,
): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: emailTokens.tokenHash })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, sql`now()`),
      ),
    );
  return row !== undefined;
}

/**
 * Marks the token used and returns it, or null when it is unknown, used or expired. One UPDATE
 * does check and use together, so of many parallel uses exactly one gets the row.
 */
export async function consumeEmailToken(
  db: Db,
  token: string,
  purpose: TokenPurpose,
): Promise<EmailTokenRow | null> {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Retires a user's unused links of one purpose (a new password makes older reset links moot);
 * `withoutClaimOnly` retires only plain links, not those carrying a sign-up's password.
 */
export async function retireEmailTokens(
  db: Db,
  userId: string,
  purpose: TokenPurpose,
  options: { withoutClaimOnly?: boolean } = {},
) {
  await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        options.withoutClaimOnly ? isNull(emailTokens.signupClaim) : undefined,
      ),
    );
}

/** Deletes the links used or expired at `now` (the retention policy); how many. */
export async function deleteSpentEmailTokens(db: Db, now: Date): Promise<number> {
  const deleted = await db
    .delete(emailTokens)
    .where(or(isNotNull(emailTokens.usedAt), lte(emailTokens.expiresAt, now)))
    .returning({ tokenHash: emailTokens.tokenHash });
  return deleted.length;
}
