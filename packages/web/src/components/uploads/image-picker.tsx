import { useEffect, useId, useRef, useState } from 'react';
import { imageIdFromUrl, imageVariantUrl } from '@campus-books/common/images';
import { MAX_IMAGES_ON_CREATE, MAX_IMAGES_PER_LISTING } from '@campus-books/common/constants';
import { MESSAGES } from '@campus-books/common/messages';
import { apiCall } from '../../lib/api-client';
import { UploadProgressList } from './upload-progress-list';
import { useImageUploads } from './use-image-uploads';

export interface ImagePickerProps {
  value: string[];
  onChange(urls: string[]): void;
  maxImages: number;
  mode: 'create' | 'update';
  id?: string;
  error?: string;
  /** Hears whether an upload is running (the form warns before the tab is closed meanwhile). */
  onBusyChange?(busy: boolean): void;
  /** A listing needs a photo: say so from the start, not only after a submit. */
  isRequired?: boolean;
}

const BUTTON =
  'inline-flex min-h-11 items-center justify-center rounded-lg px-4 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-60';

function limitMessage(max: number): string {
  if (max === MAX_IMAGES_ON_CREATE) return MESSAGES.imagesOnCreate;
  if (max === MAX_IMAGES_PER_LISTING) return MESSAGES.imagesPerListing;
  return `You can only upload ${max} images per listing`;
}

/**
 * A listing's images: the files picked start uploading at once, each over tus (progress, pause,
 * resume, cancel), and the uploaded ones show as thumbnails; the first is the cover. On create, Delete also deletes the
 * stored upload; on update it only takes the image out of the list (saving the listing decides).
 */
export function ImagePicker({
  value,
  onChange,
  maxImages,
  mode,
  id,
  error,
  onBusyChange,
  isRequired = false,
}: ImagePickerProps) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [pickError, setPickError] = useState<string | null>(null);

  // Uploads finish in any order; keep the order the files were picked in, so the cover is the first.
  const pickOrders = useRef(new Map<string, number>());
  const inPickOrder = (list: string[], url: string) => {
    const order = pickOrders.current.get(url) ?? 0;
    const later = list.findIndex((u) => (pickOrders.current.get(u) ?? 0) > order);
    return later === -1 ? [...list, url] : [...list.slice(0, later), url, ...list.slice(later)];
  };
  // The latest list, also between renders: several uploads may finish before the form renders
  // again. A render may still bring a list older than the one last sent (without an image that
  // finished since): the images sent but not yet seen in `value` are kept, or a third upload
  // finishing then would replace the second.
  const valueRef = useRef(value);
  const unseen = useRef(new Set<string>());
  useEffect(() => {
    for (const url of value) unseen.current.delete(url);
    valueRef.current = [...unseen.current].reduce(inPickOrder, value);
  }, [value]);
  const uploads = useImageUploads((url, pickOrder) => {
    pickOrders.current.set(url, pickOrder);
    unseen.current.add(url);
    const next = inPickOrder(valueRef.current, url);
    valueRef.current = next;
    onChange(next);
  });

  const onBusyChangeRef = useRef(onBusyChange);
  useEffect(() => {
    onBusyChangeRef.current = onBusyChange;
  });
  useEffect(() => {
    onBusyChangeRef.current?.(uploads.isBusy);
  }, [uploads.isBusy]);

  /** Starts the files just picked: no second press, so a student never leaves without them. */
  function startUploads(files: File[]) {
    // Emptied, so picking the same file again (after a refusal, say) is a change too.
    if (inputRef.current) inputRef.current.value = '';
    if (files.length === 0) return;
    if (valueRef.current.length + uploads.pending + files.length > maxImages) {
      setPickError(limitMessage(maxImages));
      return;
    }
    setPickError(null);
    uploads.start(files);
  }

  function remove(url: string) {
    onChange(valueRef.current.filter((u) => u !== url));
    const imageId = imageIdFromUrl(url);
    if (mode === 'create' && imageId) {
      // Best effort: an image already used elsewhere answers 409 and stays; the sweep removes the rest.
      void apiCall('DELETE /api/uploads/:id', { params: { id: imageId } }).catch(() => {});
    }
  }

  // The form's error (e.g. 'at least one image') is out of date once an upload is on its way.
  const shownError = pickError ?? (uploads.items.length > 0 ? undefined : error);
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 block text-sm font-semibold text-slate-800">Images</legend>
      <p id={hintId} className="text-sm text-slate-600">
        {isRequired ? 'At least one photo is required. ' : null}
        The first image will be the cover (max {maxImages})
      </p>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        Choose images
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept="image/*"
          multiple
          aria-describedby={shownError ? `${hintId} ${errorId}` : hintId}
          aria-invalid={shownError ? true : undefined}
          className="block min-h-11 w-full max-w-sm rounded-lg border border-slate-500 bg-white p-2 text-sm file:mr-3 file:min-h-9 file:rounded-md file:border-0 file:bg-slate-200 file:px-3 file:font-semibold"
          onChange={(event) => startUploads(Array.from(event.target.files ?? []))}
        />
      </div>
      {shownError ? (
        <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
          {shownError}
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
        <ul className="mt-3 space-y-2" aria-label="Uploaded images">
          {value.map((url, index) => (
            <li
              key={url}
              className="flex items-center justify-between gap-3 rounded-lg border border-slate-300 bg-white p-2"
            >
              <img
                src={imageVariantUrl(url, 320)}
                alt={`Listing image ${index + 1} of ${value.length}${index === 0 ? ' (cover)' : ''}`}
                className="h-20 w-16 rounded object-cover"
                width={64}
                height={80}
              />
              {index === 0 ? <span className="text-sm text-slate-600">Cover</span> : null}
              <button
                type="button"
                className={`${BUTTON} border border-red-700 text-red-700 hover:bg-red-50`}
                onClick={() => remove(url)}
              >
                Delete<span className="sr-only"> image {index + 1}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
