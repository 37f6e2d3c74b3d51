import {
  NEGATIVE_RATING_TAGS,
  POSITIVE_RATING_TAGS,
  RATING_COMMENT_MAX_LENGTH,
  RATING_TAG_LABELS,
  type Exchange,
  type RatingTag,
} from '@campus-books/common/rating.schemas';
import { useId, useState } from 'react';
import { useRateExchange } from '../../api/ratings-api';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/form-field';
import { RequestError } from '../../components/ui/request-error';

/** Thumbs up or down, the tags of that side, an optional comment: sent once. */
export function RateExchangeForm({ exchange }: { exchange: Exchange }) {
  const rate = useRateExchange();
  const [positive, setPositive] = useState<boolean | null>(null);
  const [tags, setTags] = useState<RatingTag[]>([]);
  const [comment, setComment] = useState('');
  const groupId = useId();
  const choices = positive === false ? NEGATIVE_RATING_TAGS : POSITIVE_RATING_TAGS;
  const other = exchange.other.username ?? 'the other student';
  return (
    <form
      className="mt-3 space-y-3"
      aria-label={`Rate your exchange with ${other}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (positive === null) return;
        rate.mutate({ id: exchange.id, rating: { positive, tags, comment } });
      }}
    >
      <fieldset>
        <legend className="mb-1 text-sm font-semibold text-slate-800">How did it go?</legend>
        <div className="flex gap-2">
          {[true, false].map((value) => (
            <label
              key={String(value)}
              className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded border border-slate-300 px-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name={`${groupId}-thumb`}
                checked={positive === value}
                onChange={() => {
                  setPositive(value);
                  setTags([]);
                }}
              />
              {value ? 'Thumbs up' : 'Thumbs down'}
            </label>
          ))}
        </div>
      </fieldset>
      {positive !== null ? (
        <fieldset>
          <legend className="mb-1 text-sm font-semibold text-slate-800">
            {positive ? 'What went well?' : 'What went wrong?'} (optional)
          </legend>
          <div className="flex flex-wrap gap-2">
            {choices.map((tag) => (
              <label
                key={tag}
                className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded border border-slate-300 px-3"
              >
                <input
                  type="checkbox"
                  checked={tags.includes(tag)}
                  onChange={(event) => {
                    const on = event.currentTarget.checked;
                    setTags((current) =>
                      on ? [...current, tag] : current.filter((t) => t !== tag),
                    );
                  }}
                />
                {RATING_TAG_LABELS[tag]}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <TextAreaField
        label="Comment (optional)"
        value={comment}
        maxLength={RATING_COMMENT_MAX_LENGTH}
        rows={2}
        onChange={(event) => setComment(event.currentTarget.value)}
      />
      <Button
        type="submit"
        disabled={positive === null}
        isLoading={rate.isPending}
        loadingText="Sending..."
      >
        Send rating
      </Button>
      <RequestError error={rate.error} />
    </form>
  );
}
