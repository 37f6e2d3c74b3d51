import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { PUBLIC_LISTING_STATUSES } from '@campus-books/common/constants';
import type { FastifyRequest } from 'fastify';
import type { TrustConfig } from '../../config/config';
import { listings, type ListingRow } from '../../db/schema';
import type { Sessions } from '../../plugins/sessions';
import { isModerator } from '../moderation/moderators';

/** The answer to a listing that does not exist or that its reader may not see: the same 404. */
export const LISTING_NOT_FOUND = 'Listing not found';

/** Who reads a listing, for the visibility rule: null when signed out. */
export interface ListingViewer {
  id: string;
  moderator: boolean;
}

const PUBLIC_STATUSES = [...PUBLIC_LISTING_STATUSES];

/**
 * THE visibility rule, for every route, page and mail that shows a listing (docs/security.md): a
 * hidden or removed listing is "not found" for everyone but its seller and the moderators; one its
 * seller deleted while it was reported (`sellerDeletedAt`, kept as evidence) is the moderators' only.
 * `visibleTo` is the same rule as SQL, for queries that read many listings.
 */
export function isVisibleTo(
  listing: Pick<ListingRow, 'status' | 'userId' | 'sellerDeletedAt'>,
  viewer: ListingViewer | null,
): boolean {
  if (viewer?.moderator) return true;
  if (listing.sellerDeletedAt !== null) return false;
  if (PUBLIC_STATUSES.includes(listing.status)) return true;
  return viewer !== null && viewer.id === listing.userId;
}

/** `isVisibleTo` as a condition on the `listings` table. */
export function visibleTo(viewer: ListingViewer | null): SQL {
  if (viewer?.moderator) return sql`TRUE`;
  const open = and(inArray(listings.status, PUBLIC_STATUSES), isNull(listings.sellerDeletedAt))!;
  if (viewer === null) return open;
  return and(or(open, eq(listings.userId, viewer.id)), isNull(listings.sellerDeletedAt))!;
}

/** The visibility rule's viewer of a request: its signed-in user (a moderator or not), or null. */
export async function viewerOf(
  { sessions, trust }: { sessions: Pick<Sessions, 'read'>; trust: TrustConfig },
  request: FastifyRequest,
): Promise<ListingViewer | null> {
  const user = (await sessions.read(request))?.user;
  return user ? { id: user.id, moderator: isModerator(trust, user) } : null;
}
