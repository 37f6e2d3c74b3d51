import { conditionLabel, formatPrice } from '@campus-books/common/display';
import type { MyCourseBook, CourseBooksAnswer } from '@campus-books/common/my-courses.schemas';
import { Link } from 'react-router';
import { paths } from '../../config/paths';

/** The campus price hint of a book, in words; null when the campus has seen no copy of it. */
function priceHint(book: MyCourseBook): string | null {
  const { active, sold } = book.prices;
  const parts: string[] = [];
  if (active.count > 0) {
    parts.push(
      active.min === active.max
        ? `${active.count} for sale at ${formatPrice(active.min!)}`
        : `${active.count} for sale, ${formatPrice(active.min!)}–${formatPrice(active.max!)}`,
    );
  }
  if (sold.median !== null) parts.push(`sold for ${formatPrice(sold.median)} (median)`);
  else if (sold.count > 0) parts.push(`${sold.count} sold`);
  return parts.length > 0 ? `On campus: ${parts.join(', ')}` : null;
}

function BookRow({ book }: { book: MyCourseBook }) {
  const hint = priceHint(book);
  return (
    <li className="flex flex-col gap-1 border-t border-slate-200 py-3 first:border-t-0">
      <p className="font-semibold wrap-anywhere text-slate-900">
        {book.title}
        {book.required !== null ? (
          <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold text-slate-800">
            {book.required ? 'Required' : 'Optional'}
          </span>
        ) : null}
      </p>
      {book.isbn ? <p className="text-xs text-slate-700">ISBN {book.isbn}</p> : null}
      {hint ? <p className="text-sm text-slate-700">{hint}</p> : null}
      {book.cheapest.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={`Cheapest copies of ${book.title}`}>
          {book.cheapest.map((copy) => (
            <li key={copy._id}>
              <Link
                to={paths.listing(copy._id)}
                className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-3 text-sm font-semibold text-brand-800"
              >
                {formatPrice(copy.price)} · {conditionLabel(copy.condition)}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        // One line, not two: a book the campus has never seen has no copy for sale either.
        <p className="text-sm font-medium text-amber-900">
          {hint ? 'No copy for sale now' : 'No copy on campus yet'}
        </p>
      )}
    </li>
  );
}

/** Each course of the list with the books known for it. */
export function CourseBooks({ answer }: { answer: CourseBooksAnswer }) {
  return (
    <div className="flex flex-col gap-4">
      {answer.courses.map((course) => (
        <section
          key={course.slug}
          aria-labelledby={`course-${course.slug}`}
          className="rounded-xl border border-slate-200 bg-white p-4"
        >
          <h2 id={`course-${course.slug}`} className="text-lg font-bold text-slate-900">
            <Link to={paths.course(course.slug)} className="inline-flex min-h-11 items-center">
              {course.label}
            </Link>
          </h2>
          {course.books.length === 0 ? (
            <p className="text-sm text-slate-700">
              No book is known for this course yet: an alert tells you when one is listed.
            </p>
          ) : (
            <ul>
              {course.books.map((book) => (
                <BookRow key={book.isbn ?? book.title} book={book} />
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}

/** "This term here today: $52 for 2 of 5 books (up to $102 at the highest campus prices)". */
export function termSummary(summary: CourseBooksAnswer['summary']): string {
  if (summary.books === 0) return 'No book is known for these courses yet.';
  if (summary.available === 0) return `None of the ${summary.books} books is for sale here today.`;
  return (
    `Your term here today: ${formatPrice(summary.costToday)} for ${summary.available} of ` +
    `${summary.books} books, against ${formatPrice(summary.highestTotal)} at their highest campus prices.`
  );
}
