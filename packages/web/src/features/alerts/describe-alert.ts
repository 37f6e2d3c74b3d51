import type { Alert } from '@campus-books/common/alert.schemas';
import { activeCampus } from '@campus-books/common/active-campus';
import { conditionLabel, formatPrice } from '@campus-books/common/display';

/** What an alert watches, in words. */
export function describeAlert(alert: Alert): string {
  const parts = [
    alert.searchTerm && `“${alert.searchTerm}”`,
    alert.isbn && `ISBN ${alert.isbn}`,
    (alert.subject || alert.courseNumber) &&
      `course ${[alert.subject, alert.courseNumber].filter(Boolean).join(' ')}`,
    alert.major && `major ${alert.major}`,
    alert.condition && `condition ${conditionLabel(alert.condition)}`,
    // The school as the campus names it (its key only if the campus no longer has it).
    alert.school &&
      `school ${activeCampus().schools.find((s) => s.key === alert.school)?.label ?? alert.school}`,
    alert.maxPrice !== null && `at most ${formatPrice(alert.maxPrice)}`,
  ];
  return parts.filter(Boolean).join(', ');
}
