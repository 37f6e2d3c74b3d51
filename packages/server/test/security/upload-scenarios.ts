import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { images } from '../../src/db/schema';
import { createUser } from '../helpers';
import { FAKE_ISBNS } from '../support/fake-book-providers';
import { createUpload } from '../support/tus-test-client';
import { bare, COPIES, statuses, successes, type Scenario } from './duplicate-scenario';

function uploadCreation(url: string): Scenario {
  return {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: {
          method: 'POST',
          url,
          headers: {
            cookie: user.cookie,
            'tus-resumable': '1.0.0',
            'upload-length': '1000',
            'upload-metadata': `filename ${Buffer.from('a.jpg').toString('base64')}`,
          },
        },
        check: async (answers) => {
          // Each creation is its own upload: one row per success, nothing for a refusal.
          const rows = await w.t.database.db
            .select()
            .from(images)
            .where(eq(images.ownerId, user.id));
          expect(rows).toHaveLength(successes(answers));
        },
      };
    },
  };
}

/** 25 copies at once of each upload route, a book cover's fetch and a CSP report. */
export const UPLOAD_SCENARIOS: Record<string, Scenario> = {
  'POST /api/uploads': uploadCreation('/api/uploads'),
  'POST /api/uploads/': uploadCreation('/api/uploads/'),
  'PATCH /api/uploads/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      const created = await createUpload(w.t.app, user.cookie, 4);
      return {
        request: {
          method: 'PATCH',
          url: created.location!,
          headers: {
            cookie: user.cookie,
            'tus-resumable': '1.0.0',
            'upload-offset': '0',
            'content-type': 'application/offset+octet-stream',
          },
          payload: Buffer.from('nope'),
        },
        // Four bytes that are no image: at most one copy gets to process (and refuse) them.
        check: async () => {
          const rows = await w.t.database.db
            .select()
            .from(images)
            .where(eq(images.ownerId, user.id));
          expect(rows).toHaveLength(0);
        },
      };
    },
  },
  // Against the local fake of the book providers (the real ones are on the internet).
  'POST /api/books/:isbn/cover': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: bare('POST', `/api/books/${FAKE_ISBNS.hit}/cover`, user),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBeGreaterThanOrEqual(1);
          const rows = await w.t.database.db
            .select()
            .from(images)
            .where(eq(images.ownerId, user.id));
          expect(rows).toHaveLength(1);
        },
      };
    },
  },
  'POST /api/csp-report': {
    async prepare() {
      const report = {
        'csp-report': { 'document-uri': 'http://localhost/', 'violated-directive': 'script-src' },
      };
      return {
        request: {
          method: 'POST',
          url: '/api/csp-report',
          headers: { 'content-type': 'application/csp-report' },
          payload: JSON.stringify(report),
        },
        // Reports are only logged: every copy is taken, nothing is stored.
        check: async (answers) => expect(successes(answers)).toBe(COPIES),
      };
    },
  },
  'DELETE /api/uploads/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      const created = await createUpload(w.t.app, user.cookie, 1000);
      return {
        request: {
          method: 'DELETE',
          url: created.location!,
          headers: { cookie: user.cookie, 'tus-resumable': '1.0.0' },
        },
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          const rows = await w.t.database.db
            .select()
            .from(images)
            .where(eq(images.ownerId, user.id));
          expect(rows).toHaveLength(0);
        },
      };
    },
  },
};
