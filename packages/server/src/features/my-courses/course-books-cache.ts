import type { FastifyInstance } from 'fastify';
import type { CourseBooksAnswer } from '@campus-books/common/my-courses.schemas';
import type { ListingViewer } from '../listings/listing-visibility';
import { WriteInvalidatedCache } from '../listings/search-cache';
import { findMyCourseBooks } from './my-course-books';
import type { SubjectCourse } from './my-courses.repository';

type CourseBooks = Omit<CourseBooksAnswer, 'success'>;

/**
 * GET /api/my-courses/books from memory, per list of courses, until the catalogue changes: the same
 * answer is asked by every student of a course in the term's first days, and building it is a dozen
 * statements and a few thousand rows (docs/performance.md, "My courses").
 *
 * - Kept only while the listing caches are (listings.cache.ts): a write on this server empties them,
 *   and on PostgreSQL every read first checks the catalogue's version (one row), so a listing
 *   created, sold or hidden through any app server is in the very next answer.
 * - Every listing the answer reads is active or sold, statuses anyone may see, so a student's answer
 *   is a visitor's; a moderator's (who also sees what a deleted seller's reported listings kept) is
 *   never cached.
 * - The alerts' ISBNs and the required-books list are read with it but do not move the catalogue's
 *   version: on another app server, or after `npm run import-required-books`, they show within
 *   `ttlMs`.
 */
export function courseBooksCache(
  app: FastifyInstance,
  options = { maxEntries: 1_000, ttlMs: 60_000 },
) {
  const answers = new WriteInvalidatedCache<CourseBooks>(options);
  let keptFor = app.listingCaches.generation();

  return async function courseBooks(
    courses: SubjectCourse[],
    viewer: ListingViewer | null,
  ): Promise<CourseBooks> {
    if (viewer?.moderator) return findMyCourseBooks(app.database.db, courses, viewer);
    const caches = app.listingCaches;
    const fresh = await caches.ensureFresh(caches.generation());
    if (!fresh || caches.generation() !== keptFor) {
      answers.invalidate();
      keptFor = caches.generation();
    }
    const key = courses.map((c) => `${c.subject}-${c.courseNumber}`).join(',');
    return answers.getOrLoad(key, () => findMyCourseBooks(app.database.db, courses, null));
  };
}
