// The page's entry script, kept small: the styles, the service worker, and the app's code
// (app/start.tsx), loaded at once for the app shell and after the first paint for a server-rendered
// page (docs/decisions/012-server-rendering.md).
import {
  APP_HYDRATED_EVENT,
  PAGE_MODULES_ELEMENT_ID,
  SSR_STATE_ELEMENT_ID,
} from '@campus-books/common/server-rendering';
import './index.css';
import { holdEarlyInput } from './lib/early-input';

// The service worker (src/sw.ts) keeps the app and the listings seen for offline use; it is
// registered once the page has loaded, so it never competes with the first paint.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}

/** The addresses of the code a server-rendered page hydrates with (the server lists them). */
function pageModules(): string[] {
  const text = document.getElementById(PAGE_MODULES_ELEMENT_ID)?.textContent;
  try {
    const list: unknown = text ? JSON.parse(text) : [];
    return Array.isArray(list) ? list.filter((href) => typeof href === 'string') : [];
  } catch {
    return [];
  }
}

/** How many of the page's modules are asked for in one task (see startApp). */
const PRELOADS_PER_TASK = 2;

function startApp(onFailure?: () => void): void {
  // The app's chunks and the page's own, side by side rather than one import after another, a few
  // to a task: starting a module's download takes the main thread 0.1 to 7 ms (measured in
  // Chromium), and a dozen of them in one task held a phone's main thread for up to 30 ms.
  const hrefs = pageModules();
  const next = () => {
    for (const href of hrefs.splice(0, PRELOADS_PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    if (hrefs.length > 0) {
      setTimeout(next, 0);
      return;
    }
    // React's code (a chunk of its own, vite.config.ts) is run in a task before the app's: the two
    // in one task held the main thread for 10–15 ms of CPU time, each alone for up to 10 ms.
    // Without its code (offline, and not kept by the service worker) the page stays as the server
    // rendered it: readable, its links working.
    setTimeout(() => {
      import('react-dom/client')
        .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
        .then(() => import('./app/start'))
        .catch(() => onFailure?.());
    }, 0);
  };
  next();
}

/** Resolves after the browser has painted the next frame. */
const nextPaint = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/**
 * Resolves once the browser reports the page's first contentful paint (as shown on the screen,
 * which can be a frame or more after the main thread painted it); at once where that is not reported.
 */
function firstContentfulPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) return resolve();
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint', buffered: true });
  });
}

/** Resolves once the page has loaded and shown its text and the photos it fetched at once. */
async function firstScreenPainted(): Promise<void> {
  if (document.readyState !== 'complete') {
    await new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
  }
  const firstScreenPhotos = [...document.images].filter((image) => image.loading !== 'lazy');
  // A photo that failed to load is not waited for (decode() rejects).
  await Promise.all(firstScreenPhotos.map((image) => image.decode().catch(() => undefined)));
  await firstContentfulPaint();
  // The photos decoded last are on the screen a frame or two after they are painted.
  await nextPaint();
  await nextPaint();
}

if (document.getElementById(SSR_STATE_ELEMENT_ID)) {
  // A server-rendered page is readable, its links and search boxes working, before any script
  // runs: its code is fetched once that first screen, photos included, is on the screen, so on a
  // slow phone network it never competes with the page's own HTML, styles and photos for the
  // connection. Never later than MAX_WAIT_MS, whatever a photo does; at once if the student taps or
  // types first, which is held and given to the app once it has taken the page over.
  const MAX_WAIT_MS = 3_000;
  let started = false;
  const startOnce = () => {
    if (started) return;
    started = true;
    startApp(() => earlyInput.giveUp());
  };
  const earlyInput = holdEarlyInput(APP_HYDRATED_EVENT, startOnce);
  void firstScreenPainted().then(startOnce);
  setTimeout(startOnce, MAX_WAIT_MS);
} else {
  startApp();
}
