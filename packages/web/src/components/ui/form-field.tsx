import { useId, type ComponentProps, type ReactNode } from 'react';

const CONTROL =
  'block w-full rounded-lg border bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-500 disabled:bg-slate-100 aria-invalid:border-red-600';
const CONTROL_BORDER = 'border-slate-500';

interface FieldExtras {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** Ids that tie a control to its hint and error, for aria-describedby. */
function useFieldIds(id: string | undefined, hint: unknown, error: unknown) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return { controlId, hintId, errorId, describedBy };
}

function FieldMessages(props: {
  hint?: ReactNode;
  hintId?: string;
  error?: string;
  errorId?: string;
}) {
  return (
    <>
      {props.hint ? (
        <p id={props.hintId} className="mt-1 text-sm text-slate-600">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={props.errorId} className="mt-1 text-sm font-medium text-red-700">
          {props.error}
        </p>
      ) : null}
    </>
  );
}

export function TextField({
  label,
  error,
  hint,
  id,
  className,
  ...rest
}: FieldExtras & ComponentProps<'input'>) {
  const ids = useFieldIds(id, hint, error);
  return (
    <div className={className}>
      <label htmlFor={ids.controlId} className="mb-1 block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <input
        id={ids.controlId}
        className={`${CONTROL} ${CONTROL_BORDER}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        {...rest}
      />
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  id,
  className,
  rows = 4,
  ...rest
}: FieldExtras & ComponentProps<'textarea'>) {
  const ids = useFieldIds(id, hint, error);
  return (
    <div className={className}>
      <label htmlFor={ids.controlId} className="mb-1 block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <textarea
        id={ids.controlId}
        rows={rows}
        className={`${CONTROL} ${CONTROL_BORDER}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        {...rest}
      />
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}

export function SelectField({
  label,
  error,
  hint,
  id,
  className,
  children,
  ...rest
}: FieldExtras & ComponentProps<'select'>) {
  const ids = useFieldIds(id, hint, error);
  return (
    <div className={className}>
      <label htmlFor={ids.controlId} className="mb-1 block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <select
        id={ids.controlId}
        className={`${CONTROL} ${CONTROL_BORDER}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        {...rest}
      >
        {children}
      </select>
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}

export function CheckboxField({
  label,
  error,
  hint,
  id,
  className,
  ...rest
}: FieldExtras & Omit<ComponentProps<'input'>, 'type'>) {
  const ids = useFieldIds(id, hint, error);
  return (
    <div className={className}>
      <div className="flex items-center gap-2">
        <input
          id={ids.controlId}
          type="checkbox"
          className="size-5 rounded border-slate-500 accent-brand-700"
          aria-invalid={error ? true : undefined}
          aria-describedby={ids.describedBy}
          {...rest}
        />
        <label
          htmlFor={ids.controlId}
          className="flex min-h-11 items-center text-sm font-medium text-slate-800 sm:min-h-0"
        >
          {label}
        </label>
      </div>
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}
