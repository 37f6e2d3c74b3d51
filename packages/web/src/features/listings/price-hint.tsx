import { SOLD_PRICE_MIN_COUNT, type PriceSummary } from '@campus-books/common/book.schemas';
import { formatPrice } from '@campus-books/common/display';
import { useBookPrices, useCourseTitlePrices } from './api/books';

/** The price hint of a book known by its ISBN. */
export function IsbnPriceHint({ isbn13 }: { isbn13: string }) {
  return <PriceHint data={useBookPrices(isbn13).data} />;
}

/** The price hint of a title in a course ("ECON-101"), before an ISBN is known. */
export function CoursePriceHint({ course, title }: { course: string; title: string }) {
  return <PriceHint data={useCourseTitlePrices(course, title).data} />;
}

/** What this book goes for on campus: the active copies' range, and the sold median from 3 sales. */
function PriceHint({ data }: { data: PriceSummary | undefined }) {
  if (!data) return null;
  const { active, sold } = data;
  const range =
    active.min === null || active.max === null
      ? null
      : active.min === active.max
        ? formatPrice(active.min)
        : `${formatPrice(active.min)}–${formatPrice(active.max)}`;
  return (
    <div className="rounded-lg bg-slate-100 p-3 text-sm text-slate-800" data-testid="price-hint">
      <p className="font-semibold">Price hint for this book on campus</p>
      <p>
        {active.count === 0
          ? 'No other copies for sale right now.'
          : `${active.count} ${active.count === 1 ? 'copy' : 'copies'} for sale: ${range}.`}
      </p>
      <p>
        {sold.median !== null
          ? `Sold here for a median of ${formatPrice(sold.median)} (${sold.count} sales).`
          : `Fewer than ${SOLD_PRICE_MIN_COUNT} sales here so far: no sold price to show.`}
      </p>
    </div>
  );
}
