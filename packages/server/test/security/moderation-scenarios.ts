import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { moderationLog } from '../../src/db/moderation.schema';
import { createUser } from '../helpers';
import { createListingAs } from '../listing-fixtures';
import { mailsTo } from '../outbox';
import {
  bare,
  COPIES,
  expectListingStatus,
  expectLogged,
  json,
  setUp,
  statuses,
  successes,
  type Scenario,
} from './duplicate-scenario';
import { moderatorOf } from './route-fixtures';

/** 25 copies at once of each moderator's action: one action, one audit line, one mail. */
export const MODERATION_SCENARIOS: Record<string, Scenario> = {
  'POST /api/moderation/conversations/:id/dismiss': {
    async prepare(w) {
      const moderator = await moderatorOf(w);
      const seller = await createUser(w.t);
      const buyer = await createUser(w.t);
      const listing = await createListingAs(w.t, seller);
      const sent = await setUp(w, 'POST /api/conversations', {
        as: buyer,
        body: { listingId: listing._id, text: 'Hello' },
      });
      const id = sent.conversationId;
      await w.t.app.inject(
        json('POST', `/api/conversations/${id}/report`, { reason: 'other' }, buyer),
      );
      return {
        request: bare('POST', `/api/moderation/conversations/${id}/dismiss`, moderator),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(COPIES - 1);
          const rows = await w.t.database.db
            .select()
            .from(moderationLog)
            .where(eq(moderationLog.conversationId, id));
          expect(rows.map((r) => r.action)).toEqual(['dismiss_conversation']);
        },
      };
    },
  },
  'POST /api/moderation/listings/:listingId/dismiss': {
    async prepare(w) {
      const moderator = await moderatorOf(w);
      const listing = await createListingAs(w.t, await createUser(w.t));
      await w.t.app.inject(
        json('POST', `/api/reports/${listing._id}`, { reason: 'other' }, await createUser(w.t)),
      );
      return {
        request: bare('POST', `/api/moderation/listings/${listing._id}/dismiss`, moderator),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          await expectLogged(w, 'dismiss', { listingId: listing._id });
        },
      };
    },
  },
  'POST /api/moderation/listings/:listingId/remove': {
    async prepare(w) {
      const moderator = await moderatorOf(w);
      const seller = await createUser(w.t);
      const listing = await createListingAs(w.t, seller);
      return {
        request: json(
          'POST',
          `/api/moderation/listings/${listing._id}/remove`,
          { reason: 'Not a textbook' },
          moderator,
        ),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          await expectListingStatus(w, listing._id, 'removed');
          await expectLogged(w, 'remove', { listingId: listing._id });
          expect(await mailsTo(w.t, seller.email)).toHaveLength(1);
        },
      };
    },
  },
  'POST /api/moderation/listings/:listingId/restore': {
    async prepare(w) {
      const moderator = await moderatorOf(w);
      const listing = await createListingAs(w.t, await createUser(w.t));
      await w.t.app.inject(
        json('POST', `/api/moderation/listings/${listing._id}/remove`, { reason: 'x' }, moderator),
      );
      return {
        request: bare('POST', `/api/moderation/listings/${listing._id}/restore`, moderator),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(COPIES - 1);
          await expectListingStatus(w, listing._id, 'active');
          await expectLogged(w, 'restore', { listingId: listing._id });
        },
      };
    },
  },
  'POST /api/moderation/users/:userId/suspend': {
    async prepare(w) {
      const moderator = await moderatorOf(w);
      const seller = await createUser(w.t);
      return {
        request: json(
          'POST',
          `/api/moderation/users/${seller.id}/suspend`,
          { reason: 'Scam reports' },
          moderator,
        ),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          await expectLogged(w, 'suspend', { userId: seller.id });
        },
      };
    },
  },
  'POST /api/moderation/users/:userId/unsuspend': {
    async prepare(w) {
      const moderator = await moderatorOf(w);
      const seller = await createUser(w.t);
      await w.t.app.inject(
        json('POST', `/api/moderation/users/${seller.id}/suspend`, { reason: 'x' }, moderator),
      );
      return {
        request: bare('POST', `/api/moderation/users/${seller.id}/unsuspend`, moderator),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          await expectLogged(w, 'unsuspend', { userId: seller.id });
        },
      };
    },
  },
};
