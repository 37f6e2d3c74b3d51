import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { LISTING_LINK_ACTIONS, type ListingLinkAction } from '@campus-books/common/listing.schemas';
import type { Db } from '../../db/database';
import type { ListingRow } from '../../db/schema';
import { AppError, badRequest } from '../../lib/errors';
import { releaseImages } from '../images/images.service';
import {
  deleteListingIfUnchanged,
  findListingById,
  isListingId,
  updateListingIfUnchanged,
} from './listings.repository';
import type { ListingDeps } from './listing-deps';
import { expiryFrom } from './listing-freshness';
import { enqueueListingEvent } from '../alerts/alerts.delivery';

/** What a reminder's one-click links do: "Still available", "Sold", "Remove". */
export { LISTING_LINK_ACTIONS, type ListingLinkAction };

export const LINK_INVALID = 'This link is not valid: use the newest reminder we sent you';
export const LINK_USED_OR_EXPIRED =
  'This link has expired or was already used: open your listings in your profile instead';

interface LinkClaims {
  listingId: string;
  action: ListingLinkAction;
  validUntil: Date;
  /** The listing's confirmed_at when the link was made: any confirmation since voids the link. */
  confirmedAt: Date;
}

function linkKey(sessionSecret: string): Buffer {
  return createHash('sha256').update(`listing-links\0${sessionSecret}`).digest();
}

function sign(sessionSecret: string, body: string): string {
  return createHmac('sha256', linkKey(sessionSecret)).update(body).digest('base64url');
}

/** What checking a link uses: the key it was signed with, the clock, the listing's row. */
export interface ListingLinkDeps {
  db: Db;
  sessionSecret: string;
  now: () => Date;
}

/**
 * `<listing id>~<action>~<valid until, s>~<confirmed at, ms>~<HMAC>` (no dots: the web server takes a
 * path ending in `.word` for a file). The listing's confirmed_at
 * when the link was made is part of what is signed: once the listing is confirmed, sold, relisted
 * or removed, every link mailed before no longer matches it. Single use in effect, nothing stored.
 */
export function signListingLink(sessionSecret: string, claims: LinkClaims): string {
  const body = [
    claims.listingId,
    claims.action,
    Math.floor(claims.validUntil.getTime() / 1000),
    claims.confirmedAt.getTime(),
  ].join('~');
  return `${body}~${sign(sessionSecret, body)}`;
}

const TOKEN = /^([0-9a-f-]{36})~(extend|sold|remove)~(\d{1,12})~(\d{1,15})~([A-Za-z0-9_-]{43})$/;

const gone = () => new AppError(410, LINK_USED_OR_EXPIRED);

/** The listing a link names, once its signature, its time and the listing's state are checked. */
export async function verifyListingLink(
  { db, sessionSecret, now }: ListingLinkDeps,
  token: string,
): Promise<{ listing: ListingRow; action: ListingLinkAction }> {
  const match = TOKEN.exec(token);
  if (!match || !isListingId(match[1]!)) throw badRequest(LINK_INVALID);
  const body = token.slice(0, token.lastIndexOf('~'));
  const expected = Buffer.from(sign(sessionSecret, body));
  const given = Buffer.from(match[5]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw badRequest(LINK_INVALID);
  }
  const listingId = match[1]!;
  const action = match[2] as ListingLinkAction;
  if (Number(match[3]) * 1000 <= now().getTime()) throw gone();
  const listing = await findListingById(db, listingId);
  if (!listing || listing.confirmedAt.getTime() !== Number(match[4])) throw gone();
  if (!LINK_STATUSES.includes(listing.status)) throw gone();
  return { listing, action };
}

/** A link acts on an active or expired listing only (not sold, hidden or removed). */
const LINK_STATUSES: ListingRow['status'][] = ['active', 'expired'];

/**
 * Does what the link says, guarded by the confirmed_at the link was made for: of several uses at
 * once (a double click, a mail scanner, 25 copies) exactly one acts, the others get 410.
 */
export async function useListingLink(
  deps: ListingDeps & { sessionSecret: string },
  token: string,
): Promise<{ action: ListingLinkAction; listing: ListingRow | null; relisted?: boolean }> {
  const { db } = deps;
  const { listing, action } = await verifyListingLink(deps, token);
  const now = deps.now();
  if (action === 'remove') {
    const removed = await deleteListingIfUnchanged(
      db,
      listing.id,
      LINK_STATUSES,
      listing.confirmedAt,
    );
    if (!removed) throw gone();
    await releaseImages(deps.images, removed.imageUrls).catch((error: unknown) =>
      deps.images.log.warn({ err: error }, 'releasing listing images failed; the sweep will retry'),
    );
    deps.caches.invalidate();
    return { action, listing: null };
  }
  const set =
    action === 'extend'
      ? {
          status: 'active' as const,
          confirmedAt: now,
          expiresAt: expiryFrom(deps.trust, now),
          reminded7dAt: null,
          reminded1dAt: null,
          updatedAt: now,
        }
      : { status: 'sold' as const, soldAt: now, confirmedAt: now, updatedAt: now };
  // A sale, or an expired listing back on sale, is news for savers and alerts, as when the seller
  // does it from the profile (listings.service.ts): the event's job commits with the change.
  const event = action === 'sold' ? 'sold' : listing.status === 'expired' ? 'relisted' : null;
  const updated = await db.transaction(async (tx) => {
    const row = await updateListingIfUnchanged(
      tx,
      listing.id,
      listing.status,
      listing.confirmedAt,
      set,
    );
    if (row && event) await enqueueListingEvent(deps.jobs, tx, row.id, event);
    return row;
  });
  if (!updated) throw gone();
  return { action, listing: updated, relisted: event === 'relisted' };
}
