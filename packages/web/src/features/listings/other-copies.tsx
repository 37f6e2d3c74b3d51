import { conditionLabel, formatPrice } from '@campus-books/common/display';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { otherCopiesQueryOptions } from './api/get-other-copies';

/** "Other copies on campus": the active listings of the same ISBN, with their prices and conditions. */
export function OtherCopies({ isbn13, listingId }: { isbn13: string; listingId: string }) {
  const { data } = useQuery(otherCopiesQueryOptions(isbn13));
  // This campus's copies: a partner campus's (consortium sharing) are on its own site, in search.
  const others = (data ?? []).filter(
    (l) => l.isbn === isbn13 && l._id !== listingId && l.campus === undefined,
  );
  if (others.length === 0) return null;
  return (
    <section aria-labelledby="other-copies" className="rounded-lg border border-slate-200 p-3">
      <h2 id="other-copies" className="text-lg font-semibold text-slate-900">
        Other copies on campus
      </h2>
      <ul className="mt-2 divide-y divide-slate-200">
        {others.map((copy) => (
          <li key={copy._id} className="flex items-center justify-between gap-3 py-2">
            <Link to={paths.listing(copy._id)} className="truncate">
              {copy.name}
            </Link>
            <span className="shrink-0 text-sm text-slate-700">
              {conditionLabel(copy.condition)} · <strong>{formatPrice(copy.regularPrice)}</strong>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
