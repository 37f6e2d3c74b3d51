import {
  ALERT_MESSAGES,
  MAX_ALERTS_PER_USER,
  alertInputSchema,
  type Alert,
} from '@campus-books/common/alert.schemas';
import type { NotifyAnswer } from '@campus-books/common/my-courses.schemas';
import type { Db } from '../../db/database';
import { AppError } from '../../lib/errors';
import { createAlert, toAlert } from '../alerts/alerts.service';
import type { ListingViewer } from '../listings/listing-visibility';
import { findMyCourseBooks } from './my-course-books';
import type { SubjectCourse } from './my-courses.repository';

interface WantedAlert {
  label: string;
  filters: { isbn: string } | { subject: string; courseNumber: string };
}

/**
 * What is still missing for some courses, as alerts: each book with an ISBN and no listing now is
 * watched by its ISBN; a course with a missing book that has no ISBN, or with no known book at all,
 * is watched as a course. Required books come first, so the alert limit keeps what matters most.
 */
function missingAlerts(answer: Awaited<ReturnType<typeof findMyCourseBooks>>): WantedAlert[] {
  const wanted = new Map<string, WantedAlert>();
  for (const course of answer.courses) {
    const missing = course.books.filter((b) => b.cheapest.length === 0);
    for (const book of missing) {
      if (book.isbn && !wanted.has(book.isbn)) {
        wanted.set(book.isbn, {
          label: `${book.title} (${course.label})`,
          filters: { isbn: book.isbn },
        });
      }
    }
    if (course.books.length === 0 || missing.some((b) => !b.isbn)) {
      wanted.set(course.slug, {
        label: `every book of ${course.label}`,
        filters: { subject: course.subject, courseNumber: course.courseNumber },
      });
    }
  }
  return [...wanted.values()];
}

/**
 * "Notify me for everything": creates the alerts for what the courses still miss, one at a time
 * through the alerts' own create (its limit, its lock on the student's row, its rule that an alert
 * with the same filters is not made twice). Pressing it again creates nothing new; concurrent
 * presses make each alert once. Alerts past MAX_ALERTS_PER_USER are reported, not created.
 */
export async function notifyForCourses(
  db: Db,
  viewer: ListingViewer,
  courses: SubjectCourse[],
): Promise<Omit<NotifyAnswer, 'success'>> {
  const wanted = missingAlerts(await findMyCourseBooks(db, courses, viewer));
  const created: Alert[] = [];
  const skipped: NotifyAnswer['skipped'] = [];
  let existing = 0;
  for (const alert of wanted) {
    if (skipped.length > 0) {
      skipped.push({ label: alert.label, reason: ALERT_MESSAGES.tooMany });
      continue;
    }
    try {
      const { row, created: isNew } = await createAlert(
        db,
        viewer.id,
        alertInputSchema.parse(alert.filters),
      );
      if (isNew) created.push(toAlert(row));
      else existing += 1;
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 409) throw error;
      if (error.message === ALERT_MESSAGES.tooMany) {
        skipped.push({ label: alert.label, reason: ALERT_MESSAGES.tooMany });
      } else {
        existing += 1; // the same filters, other settings (paused, digest): already watched
      }
    }
  }
  return {
    message: notifyMessage(created.length, existing, skipped.length),
    created,
    existing,
    skipped,
  };
}

function notifyMessage(created: number, existing: number, skipped: number): string {
  const parts: string[] = [];
  if (created > 0) parts.push(`Created ${created} alert${created === 1 ? '' : 's'}`);
  if (existing > 0) {
    parts.push(`${existing} ${existing === 1 ? 'was' : 'were'} already watched by your alerts`);
  }
  if (skipped > 0) {
    parts.push(
      `${skipped} not created: you can keep up to ${MAX_ALERTS_PER_USER} alerts (delete some on the Alerts page)`,
    );
  }
  if (parts.length === 0) return 'Nothing is missing: every book has a listing now';
  return `${parts.join('; ')}.`;
}
