import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { emailTokens } from '../../db/schema';

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
  options: { userId: string; purpose: TokenPurpose; email: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(emailTokens).values({
    tokenHash: hashToken(token),
    userId: options.userId,
    purpose: options.purpose,
    email: options.email,
    expiresAt: sql`now() + make_interval(secs => ${LIFETIME_SECONDS[options.purpose]})`,
  });
  return token;
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

/** Retires a user's unused links of one purpose (a new password makes older reset links moot). */
export async function retireEmailTokens(db: Db, userId: string, purpose: TokenPurpose) {
  await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
      ),
    );
}
