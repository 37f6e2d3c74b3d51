import { useEffect, useId, useRef, useState } from 'react';
import { imageIdFromUrl, imageVariantUrl } from '@campus-books/common/images';
import { MAX_MESSAGE_PHOTOS, MESSAGE_PHOTO_MESSAGES } from '@campus-books/common/message-photos';
import { apiCall } from '../../lib/api-client';
import { UploadProgressList } from '../../components/uploads/upload-progress-list';
import { useImageUploads } from '../../components/uploads/use-image-uploads';

const REMOVE =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border border-red-700 bg-white px-3 text-sm font-semibold text-red-700 hover:bg-red-50';

/**
 * The message box's photos: up to four files picked from the phone or computer, each uploaded at
 * once over tus as a listing's photos are (downscaled first, progress, pause, cancel), shown as
 * previews with a Remove button. `value` holds the uploads' URLs; the message sends their ids.
 */
export function PhotoAttach({
  value,
  onChange,
  onBusyChange,
}: {
  value: string[];
  onChange(urls: string[]): void;
  onBusyChange(busy: boolean): void;
}) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  // The latest list between renders: several uploads may finish before the composer renders again.
  const valueRef = useRef(value);
  useEffect(() => {
    valueRef.current = value;
  }, [value]);
  const uploads = useImageUploads((url) => {
    valueRef.current = [...valueRef.current, url];
    onChange(valueRef.current);
  });
  const onBusyRef = useRef(onBusyChange);
  useEffect(() => {
    onBusyRef.current = onBusyChange;
  });
  useEffect(() => onBusyRef.current(uploads.isBusy), [uploads.isBusy]);

  function pick(files: File[]) {
    if (inputRef.current) inputRef.current.value = '';
    if (files.length === 0) return;
    if (valueRef.current.length + uploads.pending + files.length > MAX_MESSAGE_PHOTOS) {
      setPickError(MESSAGE_PHOTO_MESSAGES.tooMany);
      return;
    }
    setPickError(null);
    uploads.start(files);
  }

  function remove(url: string) {
    valueRef.current = valueRef.current.filter((u) => u !== url);
    onChange(valueRef.current);
    const id = imageIdFromUrl(url);
    // Best effort: the hourly sweep deletes an upload nothing uses anyway.
    if (id) void apiCall('DELETE /api/uploads/:id', { params: { id } }).catch(() => {});
  }

  const full = value.length + uploads.pending >= MAX_MESSAGE_PHOTOS;
  return (
    <div className="space-y-2">
      <label
        htmlFor={inputId}
        className={`inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-400 bg-white px-3 text-sm font-semibold text-slate-800 hover:bg-slate-100 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700 ${full ? 'pointer-events-none opacity-50' : ''}`}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M4 7h3l2-3h6l2 3h3v13H4z" />
          <circle cx="12" cy="13" r="4" />
        </svg>
        Add photos<span className="sr-only"> (up to {MAX_MESSAGE_PHOTOS})</span>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept="image/*"
          multiple
          disabled={full}
          className="sr-only"
          onChange={(event) => pick(Array.from(event.target.files ?? []))}
        />
      </label>
      {pickError ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {pickError}
        </p>
      ) : null}
      <UploadProgressList
        items={uploads.items}
        onPause={uploads.pause}
        onResume={uploads.resume}
        onCancel={uploads.cancel}
        onDismiss={uploads.dismiss}
      />
      {value.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label="Photos to send">
          {value.map((url, index) => (
            <li key={url} className="flex flex-col items-center gap-1">
              <img
                src={imageVariantUrl(url, 320)}
                alt={`Photo ${index + 1} of ${value.length}`}
                width={80}
                height={80}
                className="size-20 rounded-lg object-cover ring-1 ring-slate-300"
              />
              <button type="button" className={REMOVE} onClick={() => remove(url)}>
                Remove<span className="sr-only"> photo {index + 1}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
