import { useEffect, useRef, useState } from 'react';
import type { MessagePhoto } from '@campus-books/common/message-photos';

/**
 * A message's photos inline (the 640 px variant, small), each a button that opens it full screen in
 * a native modal <dialog>: the browser keeps focus inside, Escape or Close shuts it, and focus
 * returns to the photo that opened it.
 */
export function MessagePhotos({ photos, from }: { photos: MessagePhoto[]; from: string }) {
  const [open, setOpen] = useState<number | null>(null);
  if (photos.length === 0) return null;
  return (
    <>
      <ul className="flex flex-wrap gap-2" aria-label={`Photos from ${from}`}>
        {photos.map((photo, index) => (
          <li key={photo.id}>
            <button
              type="button"
              className="block min-h-11 min-w-11 overflow-hidden rounded-xl ring-1 ring-slate-300 focus-visible:outline-2 focus-visible:outline-brand-700"
              onClick={() => setOpen(index)}
            >
              <img
                src={photo.thumbnail}
                alt={`Photo ${index + 1} of ${photos.length} from ${from}, open full screen`}
                loading="lazy"
                width={160}
                height={160}
                className="size-32 object-cover sm:size-40"
              />
            </button>
          </li>
        ))}
      </ul>
      {open !== null && photos[open] ? (
        <PhotoViewer
          photo={photos[open]}
          label={`Photo ${open + 1} of ${photos.length} from ${from}`}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </>
  );
}

function PhotoViewer({
  photo,
  label,
  onClose,
}: {
  photo: MessagePhoto;
  label: string;
  onClose(): void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    closeRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus?.();
    };
  }, []);
  return (
    <dialog
      ref={dialogRef}
      aria-label={label}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-0 flex h-dvh max-h-none w-screen max-w-none flex-col items-center justify-center gap-3 bg-slate-950 p-3 backdrop:bg-slate-950"
    >
      <button
        ref={closeRef}
        type="button"
        onClick={onClose}
        className="inline-flex min-h-11 items-center self-end rounded-lg bg-white px-4 text-sm font-semibold text-slate-900"
      >
        Close
      </button>
      <img
        src={photo.full}
        alt={label}
        className="max-h-[calc(100dvh-6rem)] max-w-full object-contain"
      />
    </dialog>
  );
}
