import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button';

export interface ConfirmModalProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  isBusy?: boolean;
}

/**
 * A confirmation in a native modal <dialog>: the browser traps focus and Escape cancels;
 * focus starts on Cancel (the safe choice) and returns to the opener when it closes.
 */
export function ConfirmModal({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  isBusy = false,
}: ConfirmModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal();
      cancelRef.current?.focus();
      return () => {
        if (dialog.open) dialog.close();
        opener?.focus?.();
      };
    }
  }, [open]);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        if (!isBusy) onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <h2 id={titleId} className="text-lg font-bold">
        {title}
      </h2>
      {children ? (
        <div id={bodyId} className="mt-2 text-sm text-slate-700">
          {children}
        </div>
      ) : null}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={isBusy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} isLoading={isBusy} loadingText="Working...">
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
