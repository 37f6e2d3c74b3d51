import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/**
 * A new page starts at the top, and keyboard and screen-reader users start at its content rather
 * than on a link that no longer exists. Back/forward keeps the browser's own scroll restoration.
 */
export function ScrollToTop() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const isFirstRender = useRef(true);

  useEffect(() => {
    if (isFirstRender.current) {
      isFirstRender.current = false;
      return;
    }
    if (navigationType === 'POP') return;
    window.scrollTo(0, 0);
    const main = document.getElementById('main');
    // A page that focused one of its own fields (autoFocus) keeps that focus.
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  }, [pathname, navigationType]);
  return null;
}
