import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { images, listings, sessions, users } from '../../src/db/schema';
import { issueEmailToken } from '../../src/features/accounts/email-tokens.repository';
import { signUpBody } from '../accounts';
import { createUser } from '../helpers';
import { createListingAs } from '../listing-fixtures';
import { mailsTo } from '../outbox';
import { createUploadedImage } from '../support/test-uploaded-image';
import { bare, COPIES, json, statuses, successes, type Scenario } from './duplicate-scenario';
import type { AttackWorld } from './route-fixtures';

async function expectNoSessions(w: AttackWorld, userId: string) {
  const rows = await w.t.database.db.select().from(sessions).where(eq(sessions.userId, userId));
  expect(rows).toHaveLength(0);
}

/** 25 copies at once of each sign-up, sign-in and account route (concurrent-duplicates.test.ts). */
export const ACCOUNT_SCENARIOS: Record<string, Scenario> = {
  'POST /api/auth/signup': {
    async prepare(w) {
      const body = signUpBody();
      return {
        request: json('POST', '/api/auth/signup', body),
        check: async () => {
          const rows = await w.t.database.db
            .select()
            .from(users)
            .where(eq(users.email, body.email));
          expect(rows).toHaveLength(1);
        },
      };
    },
  },
  'POST /api/auth/verify-email': {
    async prepare(w) {
      const user = await createUser(w.t, { verified: false });
      const token = await issueEmailToken(w.t.database.db, {
        userId: user.id,
        purpose: 'verify_email',
        email: user.email,
      });
      return {
        request: json('POST', '/api/auth/verify-email', { token }),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBeGreaterThanOrEqual(1);
          const [row] = await w.t.database.db.select().from(users).where(eq(users.id, user.id));
          expect(row?.emailVerifiedAt).not.toBeNull();
        },
      };
    },
  },
  'POST /api/auth/resend-verification': {
    async prepare(w) {
      const user = await createUser(w.t, { verified: false });
      return {
        request: json('POST', '/api/auth/resend-verification', { email: user.email }),
        check: async () => {
          const limit = w.t.config.rateLimits.mailPerAddress;
          expect((await mailsTo(w.t, user.email)).length).toBeLessThanOrEqual(limit);
        },
      };
    },
  },
  'POST /api/auth/signin': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: json('POST', '/api/auth/signin', { email: user.email, password: user.password }),
        check: async (answers) => {
          expect(successes(answers)).toBeGreaterThanOrEqual(1);
        },
      };
    },
  },
  'POST /api/auth/signout': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: bare('POST', '/api/auth/signout', user),
        check: async () => expectNoSessions(w, user.id),
      };
    },
  },
  'POST /api/auth/forgot-password': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: json('POST', '/api/auth/forgot-password', { email: user.email }),
        check: async () => {
          const limit = w.t.config.rateLimits.mailPerAddress;
          expect((await mailsTo(w.t, user.email)).length).toBeLessThanOrEqual(limit);
        },
      };
    },
  },
  'POST /api/auth/reset-password/:token': {
    async prepare(w) {
      const user = await createUser(w.t);
      const token = await issueEmailToken(w.t.database.db, {
        userId: user.id,
        purpose: 'reset_password',
        email: user.email,
      });
      return {
        request: json('POST', `/api/auth/reset-password/${token}`, { password: 'N3w-Secret!' }),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
        },
      };
    },
  },
  'POST /api/user/update/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: json('POST', `/api/user/update/${user.id}`, { username: 'Same Name' }, user),
        check: async (answers) => {
          expect(successes(answers)).toBe(COPIES);
          const [row] = await w.t.database.db.select().from(users).where(eq(users.id, user.id));
          expect(row?.username).toBe('Same Name');
        },
      };
    },
  },
  'DELETE /api/user/delete/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      await createListingAs(w.t, user, { imageUrls: [await createUploadedImage(w.t, user.id)] });
      return {
        request: json(
          'DELETE',
          `/api/user/delete/${user.id}`,
          { currentPassword: user.password },
          user,
        ),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          const db = w.t.database.db;
          expect(await db.select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
          expect(await db.select().from(listings).where(eq(listings.userId, user.id))).toHaveLength(
            0,
          );
          expect(await db.select().from(images).where(eq(images.ownerId, user.id))).toHaveLength(0);
        },
      };
    },
  },
};
