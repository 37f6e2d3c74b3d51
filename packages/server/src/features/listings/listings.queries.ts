import { and, desc, eq, sql } from 'drizzle-orm';
import type { ListingStatus } from '@campus-books/common/constants';
import type { Db } from '../../db/database';
import { ReadyAnswer, readyRoomBytes } from '../../lib/ready-answer';
import { preparedOnce } from '../../db/prepared';
import { listings, type ListingRow } from '../../db/schema';
import { visibleTo } from './listing-visibility';
import { isListingId } from './listings.repository';

/** Reads of listings the listing page and a seller's list make (writes: listings.repository.ts). */

/** A listing's stored answer (listing_json, db/listing-json-trigger.ts) and what the visibility rule reads. */
export interface StoredListing {
  json: string | null;
  status: ListingStatus;
  /** NULL only on a listing kept for the moderators after its seller deleted their account. */
  userId: string | null;
  sellerDeletedAt: Date | null;
}

/**
 * A listing's stored answer as the caches keep it (search/listing-caches.ts): with the bytes made
 * from its text the first time it is sent (lib/ready-answer.ts), kept and emptied with it. A kept
 * listing is thus found and sent with one look in its campus's cache, not a second by its text.
 * It holds the row's fields itself, not the row: one object fewer to reach on every answer
 * (docs/performance.md, "Listing by id and course pages at 100 campuses").
 */
export class KeptListing implements StoredListing {
  readonly json: string | null;
  readonly status: ListingStatus;
  readonly userId: string | null;
  readonly sellerDeletedAt: Date | null;
  #ready: ReadyAnswer | undefined;

  constructor(stored: StoredListing) {
    this.json = stored.json;
    this.status = stored.status;
    this.userId = stored.userId;
    this.sellerDeletedAt = stored.sellerDeletedAt;
  }

  /** The answer's bytes ready to send; undefined when the row has no stored text. */
  get ready(): ReadyAnswer | undefined {
    if (this.#ready === undefined && this.json !== null) this.#ready = new ReadyAnswer(this.json);
    return this.#ready;
  }

  /** Bytes held, as the cache room counts them: the text, and its ready bytes (made or to be). */
  get roomBytes(): number {
    const text = this.json?.length ?? 0;
    return 512 + 2 * text + readyRoomBytes(text);
  }
}

/** The listing page's read: its answer as the database wrote it, no row to parse or serialize. */
export async function findStoredListing(db: Db, id: string): Promise<StoredListing | undefined> {
  if (!isListingId(id)) return undefined;
  const statement = preparedOnce(db, 'listing_json_by_id', (name) =>
    db
      .select({
        json: listings.listingJson,
        status: listings.status,
        userId: listings.userId,
        sellerDeletedAt: listings.sellerDeletedAt,
      })
      .from(listings)
      .where(eq(listings.id, sql.placeholder('id')))
      .prepare(name),
  );
  const [row] = await statement.execute({ id });
  return row;
}

/** A seller's listings, active and sold, newest first (the order of listings_user_idx). */
export function findListingsQuery(db: Db, userId: string) {
  return db
    .select()
    .from(listings)
    .where(and(eq(listings.userId, userId), visibleTo({ id: userId, moderator: false })))
    .orderBy(sql`${listings.createdAt} DESC NULLS LAST`, desc(listings.id));
}

export async function findListingsByUser(db: Db, userId: string): Promise<ListingRow[]> {
  return findListingsQuery(db, userId);
}
