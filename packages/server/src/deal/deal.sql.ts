import { sql, type SQL } from 'drizzle-orm';
import { textLiteral } from '../db/literal';
import { DEAL_ROLES, FOR_SALE, HUMAN_MESSAGE_KINDS, otherRole, type DealRole } from './deal';

/**
 * The deal's rules (deal.ts) as SQL, for the statements and triggers that decide them in the
 * database. A deal is named by its alias in the statement (`c` a conversation, `e` an exchange, or
 * `NEW`), whose `seller_id` and `buyer_id` are its two students. The roles and kinds are written as
 * literals, so a trigger's body holds no parameter.
 */

function alias(deal: string): string {
  if (!/^[A-Za-z_]\w*$/.test(deal)) throw new Error(`${deal} is not a table alias`);
  return deal;
}

/** A user id: a parameter, or SQL (a column such as `NEW.sender_id`). */
const userOf = (user: SQL | string): SQL => (typeof user === 'string' ? sql`${user}` : user);

/** Each role's column `<deal>.<role>_<suffix>` (`id`, `read_id`, `mailed_id`). */
export const roleColumns = (deal: string, suffix = 'id'): Record<DealRole, SQL> => ({
  seller: sql.raw(`${alias(deal)}.seller_${suffix}`),
  buyer: sql.raw(`${alias(deal)}.buyer_${suffix}`),
});

/** The user is one of the deal's two students. */
export function isPartySql(deal: string, user: SQL | string): SQL {
  const ids = roleColumns(deal);
  return sql`(${sql.join(
    DEAL_ROLES.map((role) => sql`${ids[role]} = ${userOf(user)}`),
    sql` OR `,
  )})`;
}

/** The value of the user's side (`values[role]`); NULL for anyone else. */
export function byRoleSql(deal: string, user: SQL | string, values: Record<DealRole, SQL>): SQL {
  const ids = roleColumns(deal);
  return sql`CASE ${sql.join(
    DEAL_ROLES.map((role) => sql`WHEN ${userOf(user)} = ${ids[role]} THEN ${values[role]}`),
    sql` `,
  )} END`;
}

/** `roleOf` in SQL: 'seller', 'buyer' or NULL. */
export const roleOfSql = (deal: string, user: SQL | string): SQL =>
  byRoleSql(deal, user, {
    seller: textLiteral('seller'),
    buyer: textLiteral('buyer'),
  });

/** The student on the other side from the user (the recipient of what they wrote). */
export function otherPartySql(deal: string, user: SQL | string): SQL {
  const ids = roleColumns(deal);
  return byRoleSql(deal, user, {
    seller: ids[otherRole('seller')],
    buyer: ids[otherRole('buyer')],
  });
}

/** The user's own `<role>_<suffix>` column (their read mark, their mailed mark). */
export const ownColumnSql = (deal: string, user: SQL | string, suffix: string): SQL =>
  byRoleSql(deal, user, roleColumns(deal, suffix));

/** The other side's `<role>_<suffix>` column. */
export function otherColumnSql(deal: string, user: SQL | string, suffix: string): SQL {
  const columns = roleColumns(deal, suffix);
  return byRoleSql(deal, user, {
    seller: columns[otherRole('seller')],
    buyer: columns[otherRole('buyer')],
  });
}

/**
 * The read marks of the deal `deal` are revealed ("Seen") only when both students show read
 * receipts: one who turned them off shows none and sees none (a deleted side: none).
 */
export const bothShowReceiptsSql = (deal: string): SQL =>
  sql`(${sql.join(
    DEAL_ROLES.map(
      (role) =>
        sql`EXISTS (SELECT 1 FROM users r WHERE r.id = ${roleColumns(deal)[role]} AND r.read_receipts)`,
    ),
    sql` AND `,
  )})`;

/** The kinds a student writes, as `('message', …)` for `kind IN`. */
export const HUMAN_KINDS_SQL: SQL = sql`(${sql.join(
  HUMAN_MESSAGE_KINDS.map((kind) => textLiteral(kind)),
  sql`, `,
)})`;

/**
 * `isRevealed` of the exchange `deal`'s ratings: both sides rated, or the sale is at or before
 * `revealBefore` (now minus RATING_REVEAL_DAYS).
 */
export function isRevealedSql(deal: string, revealBefore: Date): SQL {
  const exchange = alias(deal);
  return sql`(${sql.raw(exchange)}.sold_at <= ${revealBefore.toISOString()}::timestamptz
    OR (SELECT count(*) FROM ratings both_rated
        WHERE both_rated.exchange_id = ${sql.raw(exchange)}.id) >= ${sql.raw(String(DEAL_ROLES.length))})`;
}

/** `isHoldable` of the listing `listing` (a table name or alias) at `now`: for sale and not held. */
export function isHoldableSql(listing: string, now: Date): SQL {
  const l = alias(listing);
  return sql`(${sql.raw(l)}.status = ${textLiteral(FOR_SALE)} AND (${sql.raw(l)}.held_until IS NULL OR ${sql.raw(l)}.held_until <= ${now.toISOString()}::timestamptz))`;
}
