import { formatPrice } from '@campus-books/common/display';
import type { DraftPublishAnswer } from '@campus-books/common/shelf.schemas';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { ShelfBookForm } from './shelf-book-form';
import type { ShelfDraft } from './shelf-store';
import { useShelf } from './use-shelf';

const isEmpty = (d: ShelfDraft) =>
  d.imageUrls.length === 0 && Object.values(d.fields).every((v) => v === '' || v == null);

/** "Sell my shelf": list several books in a row on a phone, then publish them all at once. */
export default function SellMyShelfPage() {
  const userId = useSession().user?._id ?? '';
  return userId ? <Shelf userId={userId} /> : null;
}

function Shelf({ userId }: { userId: string }) {
  const shelf = useShelf(userId);
  // The book being filled in: a draft of the shelf, or a new one kept once something is typed.
  const [currentId, setCurrentId] = useState<string>(() => crypto.randomUUID());
  const [report, setReport] = useState<DraftPublishAnswer | null>(null);
  const [publishError, setPublishError] = useState('');
  const [isPublishing, setIsPublishing] = useState(false);
  const current: ShelfDraft = shelf.drafts.find((d) => d.id === currentId) ?? {
    id: currentId,
    fields: {},
    imageUrls: [],
    synced: false,
  };
  const others = shelf.drafts.filter((d) => d.id !== currentId && !isEmpty(d));
  const toPublish = shelf.drafts.filter((d) => !isEmpty(d));

  function nextBook() {
    void shelf.flush(currentId);
    setCurrentId(crypto.randomUUID());
  }

  async function publishAll() {
    setIsPublishing(true);
    setPublishError('');
    try {
      setReport(await shelf.publishAll());
      setCurrentId(crypto.randomUUID());
    } catch (error) {
      setPublishError(error instanceof ApiError ? error.message : 'Publishing failed: try again');
    } finally {
      setIsPublishing(false);
    }
  }

  return (
    <section className="mx-auto w-full max-w-2xl py-2 sm:py-6">
      <PageTitle title="Sell my shelf" />
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Sell my shelf</h1>
      <p className="mt-2 text-slate-700">
        List your books one after another: type or scan the ISBN, add a photo, set the condition and
        price, next book. Your books are kept as drafts on this device and in your account until you
        publish them all.
      </p>

      {report ? <PublishReport report={report} /> : null}

      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        <h2 className="mb-4 text-lg font-semibold text-slate-900">
          {isEmpty(current) ? 'Add a book' : (current.fields.name ?? '') || 'This book'}
        </h2>
        <ShelfBookForm
          key={currentId}
          draft={current}
          onChange={(change) => shelf.update(currentId, change)}
        />
        <Button
          variant="secondary"
          className="mt-5 w-full"
          disabled={isEmpty(current)}
          onClick={nextBook}
        >
          Next book
        </Button>
      </div>

      <section aria-labelledby="shelf-heading" className="mt-8">
        <h2 id="shelf-heading" className="text-lg font-semibold text-slate-900">
          Your shelf ({toPublish.length})
        </h2>
        {!shelf.isLoaded ? (
          <p className="mt-2 text-sm text-slate-600">Loading your drafts…</p>
        ) : null}
        {others.length === 0 && shelf.isLoaded ? (
          <p className="mt-2 text-sm text-slate-600">The books you have finished show here.</p>
        ) : null}
        <ul className="mt-3 space-y-2">
          {others.map((d) => (
            <li
              key={d.id}
              className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-3"
              data-testid="shelf-draft"
            >
              <div className="min-w-0 flex-1">
                <p className="truncate font-semibold text-slate-900">
                  {d.fields.name || 'Untitled'}
                </p>
                <p className="text-sm text-slate-700">
                  {[
                    [d.fields.subject, d.fields.courseNumber].filter(Boolean).join(' '),
                    typeof d.fields.regularPrice === 'number'
                      ? formatPrice(d.fields.regularPrice)
                      : 'no price',
                    `${d.imageUrls.length} photo${d.imageUrls.length === 1 ? '' : 's'}`,
                    d.synced ? 'saved' : 'on this device',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
                {d.problem ? <p className="text-sm font-medium text-red-700">{d.problem}</p> : null}
              </div>
              <Button variant="secondary" className="min-h-11" onClick={() => setCurrentId(d.id)}>
                Edit<span className="sr-only"> {d.fields.name}</span>
              </Button>
              <Button
                variant="secondary"
                className="min-h-11"
                onClick={() => void shelf.remove(d.id)}
              >
                Remove<span className="sr-only"> {d.fields.name}</span>
              </Button>
            </li>
          ))}
        </ul>
        <Button
          className="mt-5 w-full"
          disabled={toPublish.length === 0}
          isLoading={isPublishing}
          loadingText="Publishing..."
          onClick={() => void publishAll()}
        >
          Publish all ({toPublish.length})
        </Button>
        {publishError ? (
          <p role="alert" className="mt-2 text-sm font-medium text-red-700">
            {publishError}
          </p>
        ) : null}
        <p className="mt-4 text-sm text-slate-700">
          One book with more details (schools, pickup place)?{' '}
          <Link to={paths.createListing} className="inline-flex min-h-11 items-center underline">
            Create a single listing
          </Link>
        </p>
      </section>
    </section>
  );
}

function PublishReport({ report }: { report: DraftPublishAnswer }) {
  const published = report.results.flatMap((r) => (r.status === 'published' ? [r] : []));
  const failed = report.results.flatMap((r) => (r.status === 'failed' ? [r] : []));
  // "Publish all" is at the foot of the page and the report near its top: on a phone the student
  // would not see it. Focus (and the view) go to it, each time a new report comes.
  const reportRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
    // The whole report, clear of the sticky header (scroll-mt).
    reportRef.current?.scrollIntoView({ block: 'start' });
  }, [report]);
  return (
    <div
      ref={reportRef}
      role="status"
      className="mt-5 scroll-mt-24 rounded-lg border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950"
      data-testid="publish-report"
    >
      <h2 ref={headingRef} tabIndex={-1} className="text-base font-semibold">
        {published.length} published
        {failed.length > 0 ? `, ${failed.length} kept as drafts` : ''}.
      </h2>
      {published.length > 0 ? (
        <ul className="mt-2">
          {published.map((r) => (
            <li key={r.draftId}>
              <Link
                to={paths.listing(r.listing._id)}
                className="inline-flex min-h-11 items-center underline"
              >
                {r.listing.name}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {failed.length > 0 ? (
        <p className="mt-2">Fix the drafts marked below and publish again.</p>
      ) : null}
    </div>
  );
}
