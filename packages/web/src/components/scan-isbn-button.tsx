import { toIsbn13 } from '@campus-books/common/isbn';
import { useEffect, useRef, useState } from 'react';
import type { IsbnDetector } from '../lib/barcode-scanner';
import { Button } from './ui/button';

const SCAN_INTERVAL_MS = 250;

async function loadDetector(): Promise<IsbnDetector> {
  const { createIsbnDetector } = await import('../lib/barcode-scanner');
  return createIsbnDetector();
}

/** The first ISBN among the barcodes a detector read (an EAN-13 starting 978 or 979). */
async function readIsbn(detector: IsbnDetector, source: ImageBitmapSource): Promise<string | null> {
  const codes = await detector.detect(source);
  for (const code of codes) {
    const isbn = toIsbn13(code.rawValue);
    if (isbn) return isbn;
  }
  return null;
}

/**
 * "Scan ISBN": the phone's rear camera reads the EAN-13 barcode on the back cover. Without a camera
 * (or permission), a photo of the barcode does; the ISBN text field beside it always works.
 */
export function ScanIsbnButton({ onIsbn }: { onIsbn(isbn13: string): void }) {
  const [isOpen, setIsOpen] = useState(false);
  const [status, setStatus] = useState('');
  const [hasCamera, setHasCamera] = useState(true);
  const videoRef = useRef<HTMLVideoElement>(null);
  const detectorRef = useRef<Promise<IsbnDetector> | null>(null);

  const detector = () => (detectorRef.current ??= loadDetector());

  useEffect(() => {
    if (!isOpen) return;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isCancelled = false;
    const finish = (isbn: string) => {
      isCancelled = true;
      setIsOpen(false);
      onIsbn(isbn);
    };
    async function start() {
      setStatus('Starting the camera…');
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' } },
          audio: false,
        });
      } catch {
        setHasCamera(false);
        setStatus('No camera here (or no permission): take a photo of the barcode instead.');
        return;
      }
      if (isCancelled || !videoRef.current) return;
      videoRef.current.srcObject = stream;
      await videoRef.current.play().catch(() => {});
      setStatus('Point the camera at the barcode on the back cover.');
      const reader = await detector();
      const tick = async () => {
        if (isCancelled || !videoRef.current) return;
        const isbn =
          videoRef.current.readyState >= 2
            ? await readIsbn(reader, videoRef.current).catch(() => null)
            : null;
        if (isbn) finish(isbn);
        else if (!isCancelled) timer = setTimeout(() => void tick(), SCAN_INTERVAL_MS);
      };
      void tick();
    }
    void start();
    return () => {
      isCancelled = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [isOpen, onIsbn]);

  async function readPhoto(file: File | undefined) {
    if (!file) return;
    setStatus('Reading the photo…');
    try {
      const bitmap = await createImageBitmap(file);
      const isbn = await readIsbn(await detector(), bitmap);
      bitmap.close();
      if (isbn) {
        setIsOpen(false);
        onIsbn(isbn);
        return;
      }
    } catch {
      // Fall through to the same advice.
    }
    setStatus(
      "We couldn't read an ISBN barcode in that photo: try again closer, or type the ISBN.",
    );
  }

  return (
    <div>
      <Button
        type="button"
        variant="secondary"
        onClick={() => {
          setHasCamera(true);
          setIsOpen((open) => !open);
        }}
      >
        {isOpen ? 'Stop scanning' : 'Scan ISBN'}
      </Button>
      {isOpen ? (
        <div className="mt-3 space-y-2 rounded-lg border border-slate-300 p-3">
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
