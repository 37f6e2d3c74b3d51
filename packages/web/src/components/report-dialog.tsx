import { REPORT_NOTE_MAX } from '@campus-books/common/constants';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import type { z } from 'zod';
import { bodyResolver } from '../lib/body-resolver';
import { Button } from './ui/button';
import { RequestError } from './ui/request-error';

/** What a report sends: a reason of the list, and a note when one was written. */
interface ReportBody<Reason extends string> {
  reason: Reason;
  note?: string | undefined;
}

interface ReportFormValues<Reason extends string> {
  reason: Reason | '';
  note: string;
}

interface ReportDialogProps<Reason extends string> {
  /** The button that opens the dialog. */
  opener: { label: string; variant: 'secondary' | 'ghost'; className: string };
  title: string;
  /** A line under the title (what the moderators will see, who is told). */
  hint?: ReactNode;
  reasons: readonly Reason[];
  labels: Record<Reason, string>;
  /** The API's schema of the report, which the form validates with. */
  schema: z.ZodType<ReportBody<Reason>>;
  isPending: boolean;
  error: Error | null;
  /** Sends the report; `onSent` takes the server's message, shown in place of the opener. */
  send(input: ReportBody<Reason>, onSent: (message: string) => void): void;
}

/**
 * A report: a reason from a fixed list and an optional note for the moderators, in a modal dialog
 * (Escape closes it unless it is sending; focus returns to the opener). Listings and conversations
 * are reported with it.
 */
export function ReportDialog<Reason extends string>(props: ReportDialogProps<Reason>) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
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
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  // A generic reason makes its error's type opaque to TypeScript: it is a field's error.
  const reasonError = (errors.reason as FieldError | undefined)?.message;
  const titleId = useId();
  const hintId = useId();
  const noteId = useId();
  const reasonErrorId = useId();
  const noteErrorId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) {
      dialog.close();
      openerRef.current?.focus();
    }
  }, [open]);

  if (done) {
    return (
      <p role="status" className="text-sm text-slate-700">
        {done}
      </p>
    );
  }

  return (
    <>
      <Button
        ref={openerRef}
        variant={props.opener.variant}
        className={props.opener.className}
        onClick={() => setOpen(true)}
      >
        {props.opener.label}
      </Button>
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        aria-describedby={props.hint ? hintId : undefined}
        onCancel={(event) => {
          event.preventDefault();
          if (!props.isPending) setOpen(false);
        }}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      >
        <form
          noValidate
          onSubmit={handleSubmit((report) =>
            props.send(report, (message) => {
              setOpen(false);
              setDone(message);
            }),
          )}
        >
          <h2 id={titleId} className="text-lg font-bold">
            {props.title}
          </h2>
          {props.hint ? (
            <p id={hintId} className="mt-2 text-sm text-slate-700">
              {props.hint}
            </p>
          ) : null}
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
              onClick={() => setOpen(false)}
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
      </dialog>
    </>
  );
}
