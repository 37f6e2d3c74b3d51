import type { Alert } from '@campus-books/common/alert.schemas';
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
    alert.school && `school ${alert.school}`,
    alert.maxPrice !== null && `at most ${formatPrice(alert.maxPrice)}`,
  ];
  return parts.filter(Boolean).join(', ');
}
