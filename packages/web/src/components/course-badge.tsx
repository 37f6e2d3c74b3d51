import { courseSlug, formatCourse } from '@campus-books/common/course-name';
import { courseLevelColor, courseNumberBadge } from '@campus-books/common/display';
import { Link } from 'react-router';
import { paths } from '../config/paths';

const COLORS = {
  blue: 'bg-blue-100 text-blue-900',
  green: 'bg-green-100 text-green-900',
  yellow: 'bg-yellow-100 text-yellow-900',
  orange: 'bg-orange-100 text-orange-900',
  red: 'bg-red-100 text-red-900',
  grey: 'bg-slate-200 text-slate-800',
} as const;

/**
 * The course badge: "ECON 101" when the subject is known, else the number (or N/A), coloured by
 * level, linking to the course page.
 */
export function CourseBadge({
  subject,
  courseNumber,
  prefix,
}: {
  subject: string | null | undefined;
  courseNumber: string;
  prefix?: string;
}) {
  const label = subject
    ? formatCourse(subject, courseNumber.trim())
    : courseNumberBadge(courseNumber);
  const className = `inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${COLORS[courseLevelColor(courseNumber)]}`;
  if (label === 'N/A') return <span className={className}>{prefix ? `${prefix} N/A` : 'N/A'}</span>;
  return (
    // The link is a 44 px tall tap target on phones; the badge inside it stays small.
    <Link
      to={paths.course(courseSlug(subject, courseNumber.trim()))}
      className="group -my-3 inline-flex min-h-11 min-w-11 items-center no-underline sm:my-0 sm:min-h-0"
      aria-label={`Course ${label}: every copy on campus`}
    >
      <span className={`${className} group-hover:underline`}>
        {prefix ? `${prefix} ${label}` : label}
      </span>
    </Link>
  );
}
