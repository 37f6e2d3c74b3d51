import { RATING_TAG_LABELS, type Rating } from '@campus-books/common/rating.schemas';

/** A revealed rating: thumb, tags, comment (shown as text), never an e-mail. */
export function RatingView({ rating, heading }: { rating: Rating; heading?: string }) {
  return (
    <div className="rounded border border-slate-200 bg-white p-3">
      {heading ? <p className="text-sm font-semibold text-slate-900">{heading}</p> : null}
      <p className="text-slate-900">
        {rating.positive ? 'Thumbs up' : 'Thumbs down'}
        {rating.tags.length > 0
          ? ` · ${rating.tags.map((t) => RATING_TAG_LABELS[t]).join(', ')}`
          : ''}
      </p>
      {rating.comment ? (
        <p className="mt-1 whitespace-pre-line wrap-anywhere text-slate-800">“{rating.comment}”</p>
      ) : null}
    </div>
  );
}
