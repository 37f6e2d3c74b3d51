import type { Page } from '@playwright/test';

/** What the init script keeps on `window.cameraLog`. */
interface CameraLog {
  /** getUserMedia calls, that is camera starts. */
  starts: number;
  /** Every stream getUserMedia opened, recorded before the page receives it. */
  streams: MediaStream[];
  /** While true, an opened stream is handed to the page only when `release()` is called. */
  isHeld: boolean;
  waiting: (() => void)[];
  release(): void;
}

/**
 * Records every camera stream the page opens (Chromium's fake camera), so a test can count camera
 * starts and the tracks still live. `holdCamera` makes the camera slow to start: the stream exists
 * (and films) but reaches the page only at `releaseCamera`, as on a phone asking for permission.
 */
export async function recordCamera(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: CameraLog = {
      starts: 0,
      streams: [],
      isHeld: false,
      waiting: [],
      release() {
        log.isHeld = false;
        for (const resume of log.waiting.splice(0)) resume();
      },
    };
    Object.assign(window, { cameraLog: log });
    const media = navigator.mediaDevices;
    if (!media) return;
    const getUserMedia = media.getUserMedia.bind(media);
    media.getUserMedia = async (constraints) => {
      log.starts += 1;
      const stream = await getUserMedia(constraints);
      log.streams.push(stream);
      if (log.isHeld) await new Promise<void>((resume) => log.waiting.push(resume));
      return stream;
    };
  });
}

type Window = { cameraLog: CameraLog };

/** How many times the page has started the camera. */
export const cameraStarts = (page: Page) =>
  page.evaluate(() => (window as unknown as Window).cameraLog.starts);

/** Camera tracks not yet stopped (readyState 'live'), across every stream the page opened. */
export const liveCameraTracks = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as Window).cameraLog.streams
        .flatMap((stream) => stream.getTracks())
        .filter((track) => track.readyState === 'live').length,
  );

/** Streams opened but not yet handed to the page (see `holdCamera`). */
export const heldCameraStreams = (page: Page) =>
  page.evaluate(() => (window as unknown as Window).cameraLog.waiting.length);

export const holdCamera = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as Window).cameraLog.isHeld = true;
  });

export const releaseCamera = (page: Page) =>
  page.evaluate(() => (window as unknown as Window).cameraLog.release());
