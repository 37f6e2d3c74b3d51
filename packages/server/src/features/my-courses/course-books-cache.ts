import type { FastifyInstance } from 'fastify';
import type { CourseBooksAnswer } from '@campus-books/common/my-courses.schemas';
import type { ListingViewer } from '../listings/listing-visibility';
import { keptUntilCatalogueChanges } from '../search/catalogue-kept';
import { findMyCourseBooks } from './my-course-books';
import type { SubjectCourse } from './my-courses.repository';

type CourseBooks = Omit<CourseBooksAnswer, 'success'>;

/**
 * GET /api/my-courses/books from memory, per list of courses, until the catalogue changes
 * (keptUntilCatalogueChanges): the same answer is asked by every student of a course in the term's
 * first days, and building it is a dozen statements and a few thousand rows (docs/performance.md,
 * "My courses"). Every listing the answer reads is active or sold, statuses anyone may see, so a
 * student's answer is a visitor's; a moderator's (who also sees what a deleted seller's reported
 * listings kept) is never kept.
 */
export function courseBooksCache(
  app: FastifyInstance,
  options = { maxEntries: 1_000, ttlMs: 60_000 },
) {
  const kept = keptUntilCatalogueChanges<CourseBooks>(app.listingCaches, {
    ...options,
    // Its text's length twice (UTF-16 at worst): about what the objects hold.
    sizeOf: (books) => 2 * JSON.stringify(books).length,
  });
  return async function courseBooks(
    courses: SubjectCourse[],
    viewer: ListingViewer | null,
  ): Promise<CourseBooks> {
    if (viewer?.moderator) return findMyCourseBooks(app.database.db, courses, viewer);
    const key = courses.map((c) => `${c.subject}-${c.courseNumber}`).join(',');
    return kept(key, () => findMyCourseBooks(app.database.db, courses, null));
  };
}
