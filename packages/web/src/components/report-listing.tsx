import {
  REPORT_NOTE_MAX,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  type ReportReason,
} from '@campus-books/common/constants';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from './ui/button';
import { useReportListing } from '../api/report-listing';
import { RequestError } from './ui/request-error';

/** "Report" on a listing page: a reason from the fixed list and an optional note, in a dialog. */
export function ReportListing({ listingId }: { listingId: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const report = useReportListing();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const noteId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
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
        variant="secondary"
        className="min-h-11 w-full sm:w-auto"
        onClick={() => setOpen(true)}
      >
        Report
      </Button>
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault();
          if (!report.isPending) setOpen(false);
        }}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!reason) return;
            report.mutate(
              { listingId, reason, ...(note.trim() ? { note } : {}) },
              {
                onSuccess: (answer) => {
                  setOpen(false);
                  setDone(answer.message);
                },
              },
            );
          }}
        >
          <h2 id={titleId} className="text-lg font-bold">
            Report this listing
          </h2>
          <fieldset className="mt-4">
            <legend className="text-sm font-semibold text-slate-800">Why?</legend>
            <div className="mt-2 flex flex-col gap-1">
              {REPORT_REASONS.map((value) => (
                <label key={value} className="flex min-h-11 items-center gap-3">
                  <input
                    type="radio"
                    name="reason"
                    value={value}
                    checked={reason === value}
                    onChange={() => setReason(value)}
                    required
                    className="size-5"
                  />
                  {REPORT_REASON_LABELS[value]}
                </label>
              ))}
            </div>
          </fieldset>
          <label htmlFor={noteId} className="mt-4 block text-sm font-semibold text-slate-800">
            Note for the moderators (optional)
          </label>
          <textarea
            id={noteId}
            rows={3}
            maxLength={REPORT_NOTE_MAX}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            className="mt-1 w-full rounded-lg border border-slate-400 p-2"
          />
          <RequestError error={report.error} className="mt-2" />
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <Button
              className="min-h-11"
              variant="secondary"
              onClick={() => setOpen(false)}
              disabled={report.isPending}
            >
              Cancel
            </Button>
            <Button
              className="min-h-11"
              type="submit"
              isLoading={report.isPending}
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
