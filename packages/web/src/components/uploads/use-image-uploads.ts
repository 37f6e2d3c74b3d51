import { useCallback, useEffect, useRef, useState } from 'react';
import type { Upload } from 'tus-js-client';
import { MAX_IMAGE_BYTES } from '@campus-books/common/constants';
import { MESSAGES } from '@campus-books/common/messages';
import { prepareImageForUpload } from './downscale-image';
import { createImageUpload } from './upload-image';

/** The spec's upload task states, plus `preparing` (downscaling) and `refused`. */
export type UploadState = 'preparing' | 'running' | 'paused' | 'error' | 'refused';

export interface UploadItem {
  key: string;
  name: string;
  percent: number;
  state: UploadState;
  message?: string;
}

/** Uploads in progress for one picker: start, pause, resume, cancel; finished ones leave the list. */
/** `onUploaded` gets each finished image's URL and its position in the order the files were picked. */
export function useImageUploads(onUploaded: (url: string, pickOrder: number) => void) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const uploads = useRef(new Map<string, Upload>());
  /** The picks still wanted: a pick cancelled (or its page left) while it was being prepared never starts. */
  const wanted = useRef(new Set<string>());
  const picked = useRef(0);
  const onUploadedRef = useRef(onUploaded);
  useEffect(() => {
    onUploadedRef.current = onUploaded;
  });

  const update = useCallback((key: string, patch: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  }, []);
  const remove = useCallback((key: string) => {
    wanted.current.delete(key);
    uploads.current.delete(key);
    setItems((list) => list.filter((item) => item.key !== key));
  }, []);

  const startOne = useCallback(
    async (file: File, key: string, pickOrder: number) => {
      if (file.type !== '' && !file.type.startsWith('image/')) {
        update(key, { state: 'refused', message: MESSAGES.imageType });
        return;
      }
      const blob = await prepareImageForUpload(file);
      if (!wanted.current.has(key)) return;
      if (blob.size > MAX_IMAGE_BYTES) {
        update(key, { state: 'refused', message: MESSAGES.imageTooLarge });
        return;
      }
      const upload = createImageUpload(blob, file.name, {
        onProgress: (percent) => update(key, { percent }),
        onSuccess: (url) => {
          remove(key);
          onUploadedRef.current(url, pickOrder);
        },
        onError: (message, canResume) =>
          update(key, { state: canResume ? 'error' : 'refused', message }),
      });
      uploads.current.set(key, upload);
      update(key, { state: 'running' });
      upload.start();
    },
    [remove, update],
  );

  const start = useCallback(
    (files: File[]) => {
      const added = files.map((file) => ({
        key: crypto.randomUUID(),
        name: file.name,
        percent: 0,
        state: 'preparing' as const,
      }));
      setItems((list) => [...list, ...added]);
      added.forEach((item, i) => {
        wanted.current.add(item.key);
        picked.current += 1;
        void startOne(files[i]!, item.key, picked.current);
      });
    },
    [startOne],
  );

  const pause = useCallback(
    (key: string) => {
      void uploads.current.get(key)?.abort();
      update(key, { state: 'paused' });
    },
    [update],
  );
  const resume = useCallback(
    (key: string) => {
      uploads.current.get(key)?.start();
      update(key, { state: 'running', message: undefined });
    },
    [update],
  );
  /** Stops the upload and deletes what the server received (tus termination). */
  const cancel = useCallback(
    (key: string) => {
      void uploads.current
        .get(key)
        ?.abort(true)
        .catch(() => {});
      remove(key);
    },
    [remove],
  );

  // Leaving the page cancels what is still uploading, so nothing half-sent stays on the server, and
  // what is still being prepared never starts.
  useEffect(() => {
    const current = uploads.current;
    const picks = wanted.current;
    return () => {
      picks.clear();
      for (const upload of current.values()) void upload.abort(true).catch(() => {});
    };
  }, []);

  const isBusy = items.some((i) => i.state === 'preparing' || i.state === 'running');
  const pending = items.filter((i) => i.state !== 'refused').length;
  return { items, isBusy, pending, start, pause, resume, cancel, dismiss: remove };
}
