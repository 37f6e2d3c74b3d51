import { editionLabel, formatPrice } from '@campus-books/common/display';
import { Link, useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useCourse } from './api/get-course';
import { NotifyMeButton } from '../../components/notify-me-button';
import { DemandLine } from '../../components/demand';
import { ButtonLink } from '../../components/ui/button-link';

/** /course/{SUBJECT}-{number}: every active listing of a course, grouped by book. */
export default function CoursePage() {
  const { code } = useParams();
  const { data, isPending, error } = useCourse(code);
  if (isPending) return <Loading />;
  if (error || !data) {
    return (
      <div role="alert" className="py-12 text-center">
        <PageTitle title="Course not found" />
        <h1 className="text-2xl font-bold text-slate-900">We don&apos;t know that course</h1>
        {error ? <p className="mt-2 text-slate-700">{error.message}</p> : null}
        <ButtonLink to={paths.search} className="mt-6">
          Search all books
        </ButtonLink>
      </div>
    );
  }
  return (
    <section className="space-y-5">
      <PageTitle title={`${data.label} books`} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{data.label}</h1>
        {data.subjectName ? <p className="text-slate-700">{data.subjectName}</p> : null}
      </div>
      {data.books.length === 0 ? (
        <p className="rounded-lg bg-slate-100 p-4 text-slate-800">
          No books for {data.label} on campus right now. Check back soon: sellers list new copies
          every week.{' '}
          <Link to={paths.createListing} className="link">
            Have one? Sell it
          </Link>
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {data.books.map((book) => (
            <li
              key={book.isbn ?? book.title}
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
            >
              <h2 className="text-lg font-semibold text-slate-900 capitalize">{book.title}</h2>
              <p className="text-sm text-slate-700">
                {[book.authors, editionLabel(book.edition), book.isbn && `ISBN ${book.isbn}`]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              <p className="mt-2 text-slate-900">
                {book.copies} {book.copies === 1 ? 'copy' : 'copies'} · from{' '}
                <strong>{formatPrice(book.lowestPrice)}</strong>
                {book.highestPrice > book.lowestPrice
                  ? ` (up to ${formatPrice(book.highestPrice)})`
                  : ''}
              </p>
              <ul className="mt-2 flex flex-wrap gap-2 text-sm">
                {book.listingIds.map((id, i) => (
                  <li key={id}>
                    <Link to={paths.listing(id)}>Copy {i + 1}</Link>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <DemandLine subject={data.subject} courseNumber={data.courseNumber} />
      <NotifyMeButton
        filters={{ subject: data.subject, courseNumber: data.courseNumber }}
        label={`Notify me of new ${data.label} books`}
      />
      <p>
        <Link to={`${paths.search}?searchTerm=${encodeURIComponent(data.label)}`}>
          Search every listing for {data.label}
        </Link>
      </p>
    </section>
  );
}
