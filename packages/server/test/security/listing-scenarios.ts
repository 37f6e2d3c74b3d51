import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { listingReports } from '../../src/db/moderation.schema';
import { images, listings } from '../../src/db/schema';
import { signListingLink } from '../../src/features/listings/listing-links';
import { createUser } from '../helpers';
import { createListingAs, listingBody } from '../listing-fixtures';
import { createUploadedImage } from '../support/test-uploaded-image';
import {
  bare,
  COPIES,
  expectListingStatus,
  expectLogged,
  json,
  statuses,
  successes,
  type Scenario,
} from './duplicate-scenario';

/** 25 copies at once of each route that writes a listing, its one-click link or a report of it. */
export const LISTING_SCENARIOS: Record<string, Scenario> = {
  'POST /api/listing/create': {
    async prepare(w) {
      const user = await createUser(w.t);
      const imageUrl = await createUploadedImage(w.t, user.id);
      return {
        request: json('POST', '/api/listing/create', listingBody({ imageUrls: [imageUrl] }), user),
        check: async (answers) => {
          const created = await w.t.database.db
            .select()
            .from(listings)
            .where(eq(listings.userId, user.id));
          expect(created.length).toBe(successes(answers));
        },
      };
    },
  },
  'POST /api/listing/update/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      const listing = await createListingAs(w.t, user);
      const body = listingBody({ name: 'Twenty-five times', imageUrls: listing.imageUrls });
      return {
        request: json('POST', `/api/listing/update/${listing._id}`, body, user),
        check: async (answers) => {
          expect(successes(answers)).toBe(COPIES);
          const [row] = await w.t.database.db
            .select()
            .from(listings)
            .where(eq(listings.id, listing._id));
          expect(row?.name).toBe('Twenty-five times');
        },
      };
    },
  },
  'POST /api/listing/mark-as-sold/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      const listing = await createListingAs(w.t, user);
      return {
        request: bare('POST', `/api/listing/mark-as-sold/${listing._id}`, user),
        check: async () => expectListingStatus(w, listing._id, 'sold'),
      };
    },
  },
  'POST /api/listing/relist/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      const listing = await createListingAs(w.t, user);
      await w.t.app.inject(bare('POST', `/api/listing/mark-as-sold/${listing._id}`, user));
      return {
        request: bare('POST', `/api/listing/relist/${listing._id}`, user),
        check: async () => expectListingStatus(w, listing._id, 'active'),
      };
    },
  },
  'DELETE /api/listing/delete/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      const listing = await createListingAs(w.t, user);
      return {
        request: bare('DELETE', `/api/listing/delete/${listing._id}`, user),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          const db = w.t.database.db;
          expect(await db.select().from(listings).where(eq(listings.id, listing._id))).toHaveLength(
            0,
          );
          // Its photo is released with it: no row, no file.
          expect(await db.select().from(images).where(eq(images.ownerId, user.id))).toHaveLength(0);
        },
      };
    },
  },
  'DELETE /api/listing/delete/:id (reported)': {
    async prepare(w) {
      const user = await createUser(w.t);
      const listing = await createListingAs(w.t, user);
      await w.t.app.inject(
        json('POST', `/api/reports/${listing._id}`, { reason: 'other' }, await createUser(w.t)),
      );
      return {
        request: bare('DELETE', `/api/listing/delete/${listing._id}`, user),
        // Issue 26 item 3: kept for the moderators once, with one audit line; the copies hear 404.
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          expect(answers.filter((a) => a.statusCode === 404)).toHaveLength(COPIES - 1);
          const db = w.t.database.db;
          const [row] = await db.select().from(listings).where(eq(listings.id, listing._id));
          expect(row?.sellerDeletedAt).not.toBeNull();
          await expectLogged(w, 'seller-delete', { listingId: listing._id });
          expect(await db.select().from(images).where(eq(images.ownerId, user.id))).toHaveLength(1);
        },
      };
    },
  },
  'POST /api/listing/request-review/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      const listing = await createListingAs(w.t, user);
      await w.t.database.db
        .update(listings)
        .set({ status: 'hidden', hiddenReason: 'reports' })
        .where(eq(listings.id, listing._id));
      return {
        request: bare('POST', `/api/listing/request-review/${listing._id}`, user),
        // Idempotent: every copy hears the same 200; the first request's place in the queue stays.
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(COPIES);
          const [row] = await w.t.database.db
            .select()
            .from(listings)
            .where(eq(listings.id, listing._id));
          expect(row?.reviewRequestedAt).not.toBeNull();
        },
      };
    },
  },
  'POST /api/listing-link/:token': {
    async prepare(w) {
      const user = await createUser(w.t);
      const listing = await createListingAs(w.t, user);
      const [row] = await w.t.database.db
        .select()
        .from(listings)
        .where(eq(listings.id, listing._id));
      const token = signListingLink(w.t.app.config.sessionSecret, {
        listingId: listing._id,
        action: 'extend',
        validUntil: new Date(Date.now() + 60 * 60_000),
        confirmedAt: row!.confirmedAt,
      });
      return {
        request: bare('POST', `/api/listing-link/${token}`),
        // Single use: one confirmation, the other copies 410.
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          expect(answers.filter((a) => a.statusCode === 410)).toHaveLength(COPIES - 1);
        },
      };
    },
  },
  'POST /api/reports/:listingId': {
    async prepare(w) {
      const listing = await createListingAs(w.t, await createUser(w.t));
      const student = await createUser(w.t);
      return {
        request: json('POST', `/api/reports/${listing._id}`, { reason: 'other' }, student),
        check: async (answers) => {
          expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
          expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(COPIES - 1);
          const rows = await w.t.database.db
            .select()
            .from(listingReports)
            .where(eq(listingReports.listingId, listing._id));
          expect(rows).toHaveLength(1);
        },
      };
    },
  },
};
