import type { UploadItem } from './use-image-uploads';

const BUTTON =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border border-slate-400 bg-white px-3 text-sm font-semibold text-slate-800 hover:bg-slate-100 disabled:opacity-50';

interface UploadProgressListProps {
  items: UploadItem[];
  onPause(key: string): void;
  onResume(key: string): void;
  onCancel(key: string): void;
  onDismiss(key: string): void;
}

/** One row per upload: a progress bar, Pause/Resume/Cancel, and the server's message on failure. */
export function UploadProgressList({ items, ...actions }: UploadProgressListProps) {
  if (items.length === 0) return null;
  return (
    <ul className="mt-3 space-y-3" aria-label="Uploads in progress">
      {items.map((item) => (
        <li key={item.key} className="rounded-lg border border-slate-300 bg-white p-3">
          <div className="flex items-center justify-between gap-2 text-sm">
            <span className="truncate font-medium text-slate-800">{item.name}</span>
            <span className="shrink-0 text-slate-600">{label(item)}</span>
          </div>
          {item.state !== 'refused' ? (
            <div
              role="progressbar"
              aria-label={`Uploading ${item.name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={item.percent}
              className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200"
            >
              <div className="h-full bg-blue-700" style={{ width: `${item.percent}%` }} />
            </div>
          ) : null}
          {item.message ? (
            <p role="alert" className="mt-2 text-sm font-medium text-red-700">
              {item.message}
            </p>
          ) : null}
          <div className="mt-2 flex flex-wrap gap-2">
            {item.state === 'running' ? (
              <button type="button" className={BUTTON} onClick={() => actions.onPause(item.key)}>
                Pause<span className="sr-only"> {item.name}</span>
              </button>
            ) : null}
            {item.state === 'paused' || item.state === 'error' ? (
              <button type="button" className={BUTTON} onClick={() => actions.onResume(item.key)}>
                Resume<span className="sr-only"> {item.name}</span>
              </button>
            ) : null}
            {item.state === 'refused' ? (
              <button type="button" className={BUTTON} onClick={() => actions.onDismiss(item.key)}>
                Dismiss<span className="sr-only"> {item.name}</span>
              </button>
            ) : (
              <button type="button" className={BUTTON} onClick={() => actions.onCancel(item.key)}>
                Cancel<span className="sr-only"> {item.name}</span>
              </button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

function label(item: UploadItem): string {
  switch (item.state) {
    case 'preparing':
      return 'Preparing...';
    case 'running':
      return `${item.percent}%`;
    case 'paused':
      return `Paused at ${item.percent}%`;
    case 'error':
      return 'Interrupted';
    case 'refused':
      return 'Not uploaded';
  }
}
