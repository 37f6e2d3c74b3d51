import { and, eq, sql } from 'drizzle-orm';
import {
  positivePercent,
  RATING_MESSAGES as M,
  RATING_TAGS,
  type Exchange,
  type PublicProfile,
  type RateExchangeInput,
  type Rating,
  type RatingTag,
  type ReportedRating,
} from '@campus-books/common/rating.schemas';
import type { Db } from '../../db/database';
import { listings, users, type UserRow } from '../../db/schema';
import { logModeratorAction } from '../moderation/moderation.repository';
import {
  isRevealed,
  otherRole,
  participantRole,
  partyOf,
  revealAtOf,
  revealedSoldBefore,
  type DealParties,
} from '../../deal/deal';
import { conflict, notFound } from '../../lib/errors';
import { toListing } from '../listings/listing.serializer';
import { visibleTo } from '../listings/listing-visibility';
import {
  countExchangesOf,
  deleteRatingReports,
  findExchangeOf,
  findExchangesOf,
  findRating,
  findRatingsOfExchanges,
  findReportedRatings,
  findRevealedRatingsOf,
  insertRating,
  insertRatingReport,
  removeRating,
  type ExchangeDbRow,
  type RatingDbRow,
} from './ratings.repository';

/** What the rating rules need: the database, the clock, and how long ratings stay hidden. */
export interface RatingDeps {
  db: Db;
  now: () => Date;
  revealMs: number;
}

const DAY_MS = 24 * 60 * 60_000;
/** RATING_REVEAL_DAYS, as the pages and mails that state it say it. */
export const revealDaysOf = ({ revealMs }: Pick<RatingDeps, 'revealMs'>) =>
  Math.round(revealMs / DAY_MS);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (value: Date | string) => new Date(value).toISOString();
/** Both drivers give text[] as an array; a string form is parsed to be safe. */
const tagsOf = (tags: RatingTag[] | string): RatingTag[] =>
  (Array.isArray(tags) ? tags : tags.replace(/^\{|\}$/g, '').split(',')).filter(
    (t): t is RatingTag => (RATING_TAGS as readonly string[]).includes(t),
  );

export function toRating(row: RatingDbRow): Rating {
  return {
    id: row.id,
    positive: row.positive,
    tags: tagsOf(row.tags),
    comment: row.comment,
    raterRole: row.rater_role,
    rater: { id: row.rater_id, username: row.rater_username },
    createdAt: iso(row.created_at),
  };
}

const partiesOf = (row: ExchangeDbRow): DealParties => ({
  sellerId: row.seller_id,
  buyerId: row.buyer_id,
});

function toExchange(
  deps: RatingDeps,
  row: ExchangeDbRow,
  ratings: RatingDbRow[],
  userId: string,
): Exchange {
  const role = participantRole(userId, partiesOf(row));
  const mine = ratings.find((r) => r.rater_role === role);
  const theirs = ratings.find((r) => r.rater_role === otherRole(role));
  const revealAt = revealAtOf(row.sold_at, deps.revealMs);
  const revealed = isRevealed({
    ratingsGiven: ratings.length,
    soldAt: row.sold_at,
    now: deps.now(),
    revealMs: deps.revealMs,
  });
  const otherId = partyOf(otherRole(role), partiesOf(row));
  return {
    id: row.id,
    listing: { id: row.listing_id, name: row.listing_name },
    role,
    other: {
      id: otherId,
      username: row[`${otherRole(role)}_username` as const],
    },
    soldAt: iso(row.sold_at),
    revealed,
    revealAt: revealAt.toISOString(),
    canRate: !mine && otherId !== null,
    mine: mine && !mine.removed_at ? toRating(mine) : null,
    theirs: revealed && theirs && !theirs.removed_at ? toRating(theirs) : null,
    theyRated: theirs !== undefined,
  };
}

/** The user's exchanges, each with what they may see of its ratings, and how many await theirs. */
export async function listExchanges(deps: RatingDeps, user: UserRow) {
  const rows = await findExchangesOf(deps.db, user.id);
  const ratings = await findRatingsOfExchanges(
    deps.db,
    rows.map((r) => r.id),
  );
  const exchanges = rows.map((row) =>
    toExchange(
      deps,
      row,
      ratings.filter((r) => r.exchange_id === row.id),
      user.id,
    ),
  );
  return {
    exchanges,
    toRate: exchanges.filter((e) => e.canRate).length,
    revealDays: revealDaysOf(deps),
  };
}

/** One exchange of the user's; 404 for anyone but its two students (never "it exists"). */
export async function getExchange(deps: RatingDeps, user: UserRow, id: string): Promise<Exchange> {
  const row = UUID.test(id) ? await findExchangeOf(deps.db, id, user.id) : undefined;
  if (!row) throw notFound(M.exchangeNotFound);
  return toExchange(deps, row, await findRatingsOfExchanges(deps.db, [row.id]), user.id);
}

/** The user's rating of an exchange: once per side (a copy sent at once gets 409). */
export async function rateExchange(
  deps: RatingDeps,
  user: UserRow,
  id: string,
  input: { positive: boolean; tags: RatingTag[]; comment: string | null },
): Promise<Exchange> {
  const row = UUID.test(id) ? await findExchangeOf(deps.db, id, user.id) : undefined;
  if (!row) throw notFound(M.exchangeNotFound);
  const role = participantRole(user.id, partiesOf(row));
  const rateeId = partyOf(otherRole(role), partiesOf(row));
  if (rateeId === null) throw conflict(M.otherDeleted);
  const inserted = await insertRating(deps.db, {
    exchangeId: row.id,
    raterId: user.id,
    rateeId,
    raterRole: role,
    positive: input.positive,
    tags: input.tags,
    comment: input.comment,
    createdAt: deps.now(),
  });
  if (!inserted) throw conflict(M.alreadyRated);
  return getExchange(deps, user, id);
}
export type { RateExchangeInput };

/** A rating anyone may see: revealed and not removed (404 otherwise, as if it did not exist). */
async function findVisibleRating(deps: RatingDeps, id: string) {
  const row = UUID.test(id) ? await findRating(deps.db, id) : undefined;
  if (!row || row.removed_at) return undefined;
  const revealed = isRevealed({
    ratingsGiven: Number(row.ratings_of_exchange),
    soldAt: row.sold_at,
    now: deps.now(),
    revealMs: deps.revealMs,
  });
  return revealed ? row : undefined;
}

export async function reportRating(
  deps: RatingDeps,
  user: UserRow,
  id: string,
  reason: string | null,
): Promise<void> {
  const row = await findVisibleRating(deps, id);
  if (!row) throw notFound(M.ratingNotFound);
  await insertRatingReport(deps.db, row.id, user.id, reason);
}

export async function reportedRatings(deps: RatingDeps): Promise<ReportedRating[]> {
  const rows = await findReportedRatings(deps.db);
  return rows.map((row) => ({
    rating: toRating(row),
    ratedUser: { id: row.ratee_id, username: row.ratee_username },
    listingName: row.listing_name,
    reports: Number(row.reports),
    reasons: Array.isArray(row.reasons) ? row.reasons : [],
    lastReportedAt: iso(row.last_reported_at),
  }));
}

/** A moderator removes a rating (once; the audit log records it in the same transaction). */
export async function moderateRating(
  deps: RatingDeps,
  moderator: UserRow,
  id: string,
  action: 'remove_rating' | 'dismiss_rating',
  reason: string | null,
): Promise<void> {
  const row = UUID.test(id) ? await findRating(deps.db, id) : undefined;
  if (!row) throw notFound(M.ratingNotFound);
  await deps.db.transaction(async (tx) => {
    const changed =
      action === 'remove_rating'
        ? await removeRating(tx, row.id, deps.now())
        : await deleteRatingReports(tx, row.id);
    if (!changed) {
      throw conflict(
        action === 'remove_rating'
          ? 'This rating is already removed'
          : 'This rating has no open reports',
      );
    }
    if (action === 'remove_rating') await deleteRatingReports(tx, row.id);
    await logModeratorAction(tx, moderator, action, {
      ratingId: row.id,
      userId: row.rater_id,
      reason,
    });
  });
}

/** A student's public profile: never an e-mail; 404 for an unknown, suspended or guessed id. */
export async function publicProfile(deps: RatingDeps, id: string): Promise<PublicProfile> {
  const [user] = UUID.test(id)
    ? await deps.db.select().from(users).where(eq(users.id, id)).limit(1)
    : [];
  if (!user || user.suspendedAt) throw notFound('Student not found');
  const revealBefore = revealedSoldBefore(deps.now(), deps.revealMs);
  const received = await findRevealedRatingsOf(deps.db, user.id, revealBefore);
  const positive = received.filter((r) => r.positive).length;
  const tagCounts = new Map<RatingTag, number>();
  for (const rating of received) {
    for (const tag of tagsOf(rating.tags)) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
  }
  const active = await deps.db
    .select()
    .from(listings)
    .where(and(eq(listings.userId, user.id), eq(listings.status, 'active'), visibleTo(null)))
    .orderBy(sql`${listings.createdAt} DESC`)
    .limit(50);
  return {
    id: user.id,
    username: user.username,
    memberSince: user.createdAt.toISOString(),
    completedExchanges: await countExchangesOf(deps.db, user.id),
    ratingCount: received.length,
    positivePercent: positivePercent(positive, received.length),
    topTags: [...tagCounts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 3)
      .map(([tag, count]) => ({ tag, count })),
    comments: received
      .filter((r) => r.comment)
      .slice(0, 20)
      .map(toRating),
    listings: active.map(toListing),
  };
}
