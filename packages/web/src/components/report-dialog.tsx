import { Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from './ui/button';
import { Loading } from './ui/spinner';

interface ReportDialogProps {
  /** The button that opens the dialog. */
  opener: { label: string; variant: 'secondary' | 'ghost'; className: string };
  title: string;
  /** A line under the title (what the moderators will see, who is told). */
  hint?: ReactNode;
  /** Whether the report is being sent (Escape does not close the dialog then). */
  isPending: boolean;
  /** The form (`ReportForm`, usually loaded when first opened), given what ends the dialog. */
  form(end: { onSent(message: string): void; onCancel(): void }): ReactNode;
}

/**
 * A report in a modal dialog (Escape closes it unless it is sending; focus returns to the opener);
 * once sent, the server's message takes the opener's place. Listings and conversations are
 * reported with it. The form inside renders only while the dialog is open, so a page that loads it
 * lazily pays for the form library and the schemas when a student opens a report, not before.
 */
export function ReportDialog(props: ReportDialogProps) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const hintId = useId();

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
        <h2 id={titleId} className="text-lg font-bold">
          {props.title}
        </h2>
        {props.hint ? (
          <p id={hintId} className="mt-2 text-sm text-slate-700">
            {props.hint}
          </p>
        ) : null}
        {open ? (
          <Suspense fallback={<Loading />}>
            {props.form({
              onSent: (message) => {
                setOpen(false);
                setDone(message);
              },
              onCancel: () => setOpen(false),
            })}
          </Suspense>
        ) : null}
      </dialog>
    </>
  );
}
