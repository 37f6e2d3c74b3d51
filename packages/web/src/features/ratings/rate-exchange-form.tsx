import {
  NEGATIVE_RATING_TAGS,
  POSITIVE_RATING_TAGS,
  RATING_COMMENT_MAX_LENGTH,
  RATING_TAG_LABELS,
  rateExchangeSchema,
  type Exchange,
  type RatingTag,
} from '@campus-books/common/rating.schemas';
import { useId } from 'react';
import type { z } from 'zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useRateExchange } from '../../api/ratings-api';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/form-field';
import { RequestError } from '../../components/ui/request-error';
import { bodyResolver } from '../../lib/body-resolver';

interface RatingFormValues {
  /** Null until a thumb is chosen. */
  positive: boolean | null;
  tags: RatingTag[];
  comment: string;
}

const resolver = bodyResolver(
  rateExchangeSchema,
  ({ positive, tags, comment }: RatingFormValues) => ({
    positive: positive ?? undefined,
    tags,
    comment,
  }),
  ['positive', 'tags', 'comment'],
);

const LEGEND = 'mb-1 text-sm font-semibold text-slate-800';
const ERROR = 'mt-1 text-sm font-medium text-red-700';

/** Thumbs up or down, the tags of that side, an optional comment: checked by the API's schema, sent once. */
export function RateExchangeForm({ exchange }: { exchange: Exchange }) {
  const rate = useRateExchange();
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<RatingFormValues, unknown, z.output<typeof rateExchangeSchema>>({
    resolver,
    defaultValues: { positive: null, tags: [], comment: '' },
  });
  const positive = useWatch({ control, name: 'positive' });
  const groupId = useId();
  const choices = positive === false ? NEGATIVE_RATING_TAGS : POSITIVE_RATING_TAGS;
  const other = exchange.other.username ?? 'the other student';
  return (
    <form
      noValidate
      className="mt-3 space-y-3"
      aria-label={`Rate your exchange with ${other}`}
      onSubmit={handleSubmit(({ positive, tags, comment }) =>
        rate.mutate({
          id: exchange.id,
          rating: { positive, tags, ...(comment ? { comment } : {}) },
        }),
      )}
    >
      <Controller
        control={control}
        name="positive"
        render={({ field }) => (
          <fieldset>
            <legend className={LEGEND}>How did it go?</legend>
            <div className="flex gap-2">
              {[true, false].map((value) => (
                <label
                  key={String(value)}
                  className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded border border-slate-300 px-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
                >
                  <input
                    type="radio"
                    name={`${groupId}-thumb`}
                    checked={field.value === value}
                    onChange={() => {
                      field.onChange(value);
                      // The tags of the other side no longer apply.
                      setValue('tags', []);
                    }}
                  />
                  {value ? 'Thumbs up' : 'Thumbs down'}
                </label>
              ))}
            </div>
            {errors.positive?.message ? <p className={ERROR}>{errors.positive.message}</p> : null}
          </fieldset>
        )}
      />
      {positive !== null ? (
        <Controller
          control={control}
          name="tags"
          render={({ field }) => (
            <fieldset>
              <legend className={LEGEND}>
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
                      checked={field.value.includes(tag)}
                      onChange={(event) =>
                        field.onChange(
                          event.currentTarget.checked
                            ? [...field.value, tag]
                            : field.value.filter((t) => t !== tag),
                        )
                      }
                    />
                    {RATING_TAG_LABELS[tag]}
                  </label>
                ))}
              </div>
              {errors.tags?.message ? <p className={ERROR}>{errors.tags.message}</p> : null}
            </fieldset>
          )}
        />
      ) : null}
      <TextAreaField
        label="Comment (optional)"
        maxLength={RATING_COMMENT_MAX_LENGTH}
        rows={2}
        error={errors.comment?.message}
        {...register('comment')}
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
