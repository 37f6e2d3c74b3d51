import { courseSlug, formatCourse } from '@campus-books/common/course-name';
import type { ListingCampus } from '@campus-books/common/consortium-listing';
import { courseLevelColor, courseNumberBadge } from '@campus-books/common/display';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { partnerHref } from './listing-card-links';

const COLORS = {
  blue: 'bg-blue-100 text-blue-900',
  green: 'bg-green-100 text-green-900',
  yellow: 'bg-yellow-100 text-yellow-900',
  orange: 'bg-orange-100 text-orange-900',
  red: 'bg-red-100 text-red-900',
  grey: 'bg-slate-200 text-slate-800',
} as const;

// The link is a 44 px tall tap target on phones; the badge inside it stays small.
const LINK =
  'group -my-3 inline-flex min-h-11 min-w-11 items-center no-underline sm:my-0 sm:min-h-0';

/**
 * The course badge: "ECON 101" when the subject is known, else the number (or N/A), coloured by
 * level, linking to the course page. A partner campus's listing (`campus`, consortium sharing)
 * links to the course page on that campus's own site: its course numbers are its own, and this
 * campus's page of the same number is another course or none.
 */
export function CourseBadge({
  subject,
  courseNumber,
  prefix,
  campus,
}: {
  subject: string | null | undefined;
  courseNumber: string;
  prefix?: string;
  campus?: ListingCampus | undefined;
}) {
  const label = subject
    ? formatCourse(subject, courseNumber.trim())
    : courseNumberBadge(courseNumber);
  const className = `inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${COLORS[courseLevelColor(courseNumber)]}`;
  if (label === 'N/A') return <span className={className}>{prefix ? `${prefix} N/A` : 'N/A'}</span>;
  const text = prefix ? `${prefix} ${label}` : label;
  const badge = <span className={`${className} group-hover:underline`}>{text}</span>;
  const path = paths.course(courseSlug(subject, courseNumber.trim()));
  if (!campus) {
    return (
      <Link to={path} className={LINK} aria-label={`Course ${label}: every copy on campus`}>
        {badge}
      </Link>
    );
  }
  const href = partnerHref(campus, path);
  if (!href) return <span className={className}>{text}</span>;
  return (
    <a href={href} className={LINK} aria-label={`Course ${label}: every copy at ${campus.name}`}>
      {badge}
    </a>
  );
}
