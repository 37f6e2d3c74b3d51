import { APP_HYDRATED_EVENT } from '@campus-books/common/server-rendering';
import { useEffect } from 'react';

let isSent = false;

/**
 * Tells the page's entry script (main.tsx, lib/early-input.ts) that the app has taken a
 * server-rendered page over, once: the taps and typing it held meanwhile go to the page now.
 * Rendered beside the page, inside its Suspense boundary, which React hydrates after the layout
 * around it: its effect runs once the page itself is hydrated. Renders nothing.
 */
export function HydratedSignal() {
  useEffect(() => {
    if (isSent) return;
    isSent = true;
    window.dispatchEvent(new Event(APP_HYDRATED_EVENT));
  }, []);
  return null;
}
