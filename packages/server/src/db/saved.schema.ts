import { index, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { createdAt, users, listings } from './schema';

/** A student's saved (hearted) listings. */
export const savedListings = pgTable(
  'saved_listings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.listingId] }),
    index('saved_listings_listing_idx').on(t.listingId),
  ],
);
