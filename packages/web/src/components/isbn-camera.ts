import { toIsbn13 } from '@campus-books/common/isbn';
import type { IsbnDetector } from '../lib/barcode-scanner';

const SCAN_INTERVAL_MS = 250;
/** Frames in a row the reader may fail on before the camera is given up (a broken reader). */
const MAX_FAILED_READS = 3;

export const CAMERA_MESSAGES = {
  starting: 'Starting the camera…',
  scanning: 'Point the camera at the barcode on the back cover.',
  noCamera: 'No camera here (or no permission): take a photo of the barcode instead.',
  cameraLost: 'The camera stopped: take a photo of the barcode, or type the ISBN.',
  noReader: "The barcode reader couldn't start: type the ISBN instead.",
} as const;

/** The first ISBN among the barcodes a detector read (an EAN-13 starting 978 or 979). */
export async function readIsbn(
  detector: IsbnDetector,
  source: ImageBitmapSource,
): Promise<string | null> {
  const codes = await detector.detect(source);
  for (const code of codes) {
    const isbn = toIsbn13(code.rawValue);
    if (isbn) return isbn;
  }
  return null;
}

export interface IsbnCameraHandlers {
  onStatus(text: string): void;
  /** The camera can't be used (none, refused, lost, or no reader); it is already stopped. */
  onUnavailable(text: string): void;
  /** An ISBN was read; the camera is already stopped. */
  onIsbn(isbn13: string): void;
}

const stopTracks = (stream: MediaStream) => stream.getTracks().forEach((track) => track.stop());

/**
 * Opens the rear camera into `video` (say CAMERA_MESSAGES.starting meanwhile) and reads barcodes
 * until an ISBN. Returns `stop`, which
 * releases everything at once and for good, whenever it is called: every track is stopped (also
 * those of a stream that arrives after `stop`, as while the phone asks for permission), the next
 * read is cancelled, and no handler is called afterwards.
 */
export function startIsbnCamera(
  video: HTMLVideoElement,
  loadDetector: () => Promise<IsbnDetector>,
  handlers: IsbnCameraHandlers,
): () => void {
  let isStopped = false;
  let stream: MediaStream | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const stop = () => {
    isStopped = true;
    clearTimeout(timer);
    if (stream) stopTracks(stream);
    stream = null;
    video.srcObject = null;
  };
  const giveUp = (text: string) => {
    if (isStopped) return;
    stop();
    handlers.onUnavailable(text);
  };

  async function run() {
    let opened: MediaStream;
    try {
      opened = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: 'environment' } },
        audio: false,
      });
    } catch {
      giveUp(CAMERA_MESSAGES.noCamera);
      return;
    }
    // Closed while the camera was starting: release the late stream at once.
    if (isStopped) {
      stopTracks(opened);
      return;
    }
    stream = opened;
    // The system took the camera away (another app, a revoked permission).
    for (const track of opened.getVideoTracks()) {
      track.addEventListener('ended', () => giveUp(CAMERA_MESSAGES.cameraLost), { once: true });
    }
    video.srcObject = opened;
    await video.play().catch(() => {});
    let reader: IsbnDetector;
    try {
      reader = await loadDetector();
    } catch {
      giveUp(CAMERA_MESSAGES.noReader);
      return;
    }
    if (isStopped) return;
    handlers.onStatus(CAMERA_MESSAGES.scanning);

    let failedReads = 0;
    const tick = async () => {
      let isbn: string | null = null;
      if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
        try {
          isbn = await readIsbn(reader, video);
          failedReads = 0;
        } catch {
          failedReads += 1;
        }
      }
      if (isStopped) return;
      if (failedReads >= MAX_FAILED_READS) {
        giveUp(CAMERA_MESSAGES.noReader);
      } else if (isbn) {
        stop();
        handlers.onIsbn(isbn);
      } else {
        timer = setTimeout(() => void tick(), SCAN_INTERVAL_MS);
      }
    };
    void tick();
  }

  void run();
  return stop;
}
