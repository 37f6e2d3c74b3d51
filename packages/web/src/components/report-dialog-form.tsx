import { REPORT_NOTE_MAX } from '@campus-books/common/constants';
import { useId, useMemo } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import type { z } from 'zod';
import { bodyResolver } from '../lib/body-resolver';
import { Button } from './ui/button';
import { RequestError } from './ui/request-error';

/** What a report sends: a reason of the list, and a note when one was written. */
export interface ReportBody<Reason extends string> {
  reason: Reason;
  note?: string | undefined;
}

interface ReportFormValues<Reason extends string> {
  reason: Reason | '';
  note: string;
}

export interface ReportFormProps<Reason extends string> {
  reasons: readonly Reason[];
  labels: Record<Reason, string>;
  /** The API's schema of the report, which the form validates with. */
  schema: z.ZodType<ReportBody<Reason>>;
  isPending: boolean;
  error: Error | null;
  /** Sends the report; `onSent` takes the server's message. */
  send(input: ReportBody<Reason>, onSent: (message: string) => void): void;
  /** The report was received: the dialog closes and shows `message` in place of its opener. */
  onSent(message: string): void;
  onCancel(): void;
}

/**
 * A report's form, inside `ReportDialog`: a reason from a fixed list and an optional note for the
 * moderators, validated by the API's own schema. Kept apart from the dialog so a page loads the form
 * library and the schemas only when a student opens a report.
 */
export function ReportForm<Reason extends string>(props: ReportFormProps<Reason>) {
  const { schema } = props;
  const resolver = useMemo(
    () =>
      bodyResolver(
        schema,
        ({ reason, note }: ReportFormValues<Reason>) => ({
          reason: reason || undefined,
          ...(note.trim() ? { note } : {}),
        }),
        ['reason', 'note'],
      ),
    [schema],
  );
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ReportFormValues<Reason>, unknown, ReportBody<Reason>>({
    resolver,
    defaultValues: { reason: '', note: '' },
  });
  // A generic reason makes its error's type opaque to TypeScript: it is a field's error.
  const reasonError = (errors.reason as FieldError | undefined)?.message;
  const noteId = useId();
  const reasonErrorId = useId();
  const noteErrorId = useId();

  return (
    <form noValidate onSubmit={handleSubmit((report) => props.send(report, props.onSent))}>
      <fieldset className="mt-4">
        <legend className="text-sm font-semibold text-slate-800">Why?</legend>
        <div className="mt-2 flex flex-col gap-1">
          {props.reasons.map((value) => (
            <label key={value} className="flex min-h-11 items-center gap-3">
              <input
                type="radio"
                value={value}
                required
                aria-invalid={reasonError ? true : undefined}
                aria-describedby={reasonError ? reasonErrorId : undefined}
                className="size-5"
                {...register('reason')}
              />
              {props.labels[value]}
            </label>
          ))}
        </div>
        {reasonError ? (
          <p id={reasonErrorId} className="mt-1 text-sm font-medium text-red-700">
            {reasonError}
          </p>
        ) : null}
      </fieldset>
      <label htmlFor={noteId} className="mt-4 block text-sm font-semibold text-slate-800">
        Note for the moderators (optional)
      </label>
      <textarea
        id={noteId}
        rows={3}
        maxLength={REPORT_NOTE_MAX}
        aria-invalid={errors.note ? true : undefined}
        aria-describedby={errors.note ? noteErrorId : undefined}
        className="mt-1 w-full rounded-lg border border-slate-500 p-2"
        {...register('note')}
      />
      {errors.note?.message ? (
        <p id={noteErrorId} className="mt-1 text-sm font-medium text-red-700">
          {errors.note.message}
        </p>
      ) : null}
      <RequestError error={props.error} className="mt-2" />
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button
          className="min-h-11"
          variant="secondary"
          onClick={props.onCancel}
          disabled={props.isPending}
        >
          Cancel
        </Button>
        <Button
          className="min-h-11"
          type="submit"
          isLoading={props.isPending}
          loadingText="Sending..."
        >
          Send report
        </Button>
      </div>
    </form>
  );
}
