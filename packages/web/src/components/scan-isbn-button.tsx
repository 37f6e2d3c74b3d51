import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { IsbnDetector } from '../lib/barcode-scanner';
import { CAMERA_MESSAGES, readIsbn, startIsbnCamera } from './isbn-camera';
import { Button } from './ui/button';

async function loadDetector(): Promise<IsbnDetector> {
  const { createIsbnDetector } = await import('../lib/barcode-scanner');
  return createIsbnDetector();
}

/**
 * "Scan ISBN": the phone's rear camera reads the EAN-13 barcode on the back cover. Without a camera
 * (or permission), a photo of the barcode does; the ISBN text field beside it always works.
 *
 * The camera runs only while the scanner is open and on screen: one camera start per opening, and
 * every way out stops it (Stop scanning, Escape, an ISBN read, leaving the page, the panel folded
 * away by a parent); while the page is hidden, the camera is released.
 */
export function ScanIsbnButton({ onIsbn }: { onIsbn(isbn13: string): void }) {
  const [isOpen, setIsOpen] = useState(false);
  const [status, setStatus] = useState('');
  const [hasCamera, setHasCamera] = useState(true);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const detectorRef = useRef<Promise<IsbnDetector> | null>(null);
  // The parent passes a new function on every render (each keystroke in the form): read the latest
  // one when an ISBN is found, so that it never restarts the camera.
  const onIsbnRef = useRef(onIsbn);
  useEffect(() => {
    onIsbnRef.current = onIsbn;
  });
  /** Counts openings and closings: a photo read that finishes after its scanner closed is dropped. */
  const openingRef = useRef(0);

  const detector = useCallback(
    () =>
      (detectorRef.current ??= loadDetector().catch((error: unknown) => {
        detectorRef.current = null; // a later attempt loads it again
        throw error;
      })),
    [],
  );

  useEffect(() => {
    if (!isOpen) return;
    const opening = openingRef;
    const video = videoRef.current;
    const panel = panelRef.current;
    if (!video || !panel) return;
    let isUnavailable = false;
    const start = () =>
      startIsbnCamera(video, detector, {
        onStatus: setStatus,
        onUnavailable(text) {
          isUnavailable = true;
          setHasCamera(false);
          setStatus(text);
        },
        onIsbn(isbn) {
          setIsOpen(false);
          onIsbnRef.current(isbn);
        },
      });
    let stop = start();
    // Stops the camera at once (the page may be frozen before React renders again), then closes.
    const close = () => {
      stop();
      setIsOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      close();
      buttonRef.current?.focus();
    };
    // Another app or tab in front (the phone's camera app taking the photo below, too): the camera
    // is released meanwhile, and starts again when the student is back.
    let isPaused = false;
    const onVisibilityChange = () => {
      if (document.visibilityState === 'hidden') {
        stop();
        isPaused = true;
      } else if (isPaused && !isUnavailable) {
        isPaused = false;
        setStatus(CAMERA_MESSAGES.starting);
        stop = start();
      }
    };
    // A parent hid the panel (display: none, as the search filters folding away on a phone).
    const observer = new ResizeObserver(() => {
      if (panel.getClientRects().length === 0) close();
    });
    observer.observe(panel);
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('visibilitychange', onVisibilityChange);
    window.addEventListener('pagehide', close);
    return () => {
      stop();
      opening.current += 1;
      observer.disconnect();
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('visibilitychange', onVisibilityChange);
      window.removeEventListener('pagehide', close);
    };
  }, [isOpen, detector]);

  async function readPhoto(file: File | undefined) {
    if (!file) return;
    const opening = openingRef.current;
    setStatus('Reading the photo…');
    let isbn: string | null = null;
    try {
      const bitmap = await createImageBitmap(file);
      try {
        isbn = await readIsbn(await detector(), bitmap);
      } finally {
        bitmap.close();
      }
    } catch {
      // Same advice as a photo without a barcode.
    }
    if (opening !== openingRef.current) return;
    if (isbn) {
      setIsOpen(false);
      onIsbnRef.current(isbn);
      return;
    }
    setStatus(
      "We couldn't read an ISBN barcode in that photo: try again closer, or type the ISBN.",
    );
  }

  return (
    <div>
      <Button
        ref={buttonRef}
        type="button"
        variant="secondary"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => {
          setHasCamera(true);
          setStatus(CAMERA_MESSAGES.starting);
          setIsOpen((open) => !open);
        }}
      >
        {isOpen ? 'Stop scanning' : 'Scan ISBN'}
      </Button>
      {isOpen ? (
        <div
          ref={panelRef}
          id={panelId}
          className="mt-3 space-y-2 rounded-lg border border-slate-300 p-3"
        >
          {hasCamera ? (
            <video
              ref={videoRef}
              muted
              playsInline
              className="aspect-video w-full rounded bg-slate-900 object-cover"
              aria-label="Camera view of the barcode"
            />
          ) : null}
          <p role="status" className="text-sm text-slate-700">
            {status}
          </p>
          <label className="block text-sm font-semibold text-slate-800">
            Take a photo of the barcode
            <input
              type="file"
              accept="image/*"
              capture="environment"
              className="mt-1 block w-full text-sm"
              onChange={(e) => void readPhoto(e.target.files?.[0])}
            />
          </label>
        </div>
      ) : null}
    </div>
  );
}
