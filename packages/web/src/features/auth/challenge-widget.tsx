// The external build: no inline styles and no workers from data: URLs, so it runs under our CSP.
import 'altcha/external';
import 'altcha/altcha.css';
import type {} from 'altcha/types/global';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { useEffect, useLayoutEffect, useRef } from 'react';

// The server's challenges use PBKDF2 (features/auth/challenge.ts); the worker is a file of our own.
for (const hash of ['SHA-256', 'SHA-384', 'SHA-512']) {
  $altcha.algorithms.set(`PBKDF2/${hash}`, () => new Pbkdf2Worker());
}

/**
 * The proof-of-work check (ALTCHA, served by our own API) the server asks for when many sign-ins or
 * sign-ups come from the same network. Loaded with React.lazy only when asked for, so it weighs
 * nothing on a normal first load. Solving starts at once; `onSolved` gets the payload to send.
 */
export default function ChallengeWidget({ onSolved }: { onSolved: (payload: string) => void }) {
  const widget = useRef<HTMLElementTagNameMap['altcha-widget']>(null);
  const solved = useRef(onSolved);
  useEffect(() => {
    solved.current = onSolved;
  }, [onSolved]);

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const onVerified = (event: Event) => {
      const payload = (event as CustomEvent<{ payload?: string }>).detail?.payload;
      if (payload) solved.current(payload);
    };
    element.addEventListener('verified', onVerified);
    return () => element.removeEventListener('verified', onVerified);
  }, []);

  // Leaving the check (another page, a new attempt) stops its solving workers at once: removed from
  // the page, the widget itself only stops listening, and its workers would solve on for seconds.
  // This runs just before React removes the element, and looks once it has: StrictMode's rehearsal
  // leaves it in place, and the widget tears itself down in a later microtask.
  useLayoutEffect(() => {
    const element = widget.current;
    return () => {
      queueMicrotask(() => {
        if (element && !element.isConnected) element.reset?.();
      });
    };
  }, []);

  return (
    <div className="space-y-2" data-testid="challenge">
      <p className="text-sm text-slate-700">
        Many people are signing in from your network. Your browser is doing a short check to show
        you are not a robot; your request is sent again once it is done.
      </p>
      <altcha-widget ref={widget} challenge="/api/auth/challenge" auto="onload" />
    </div>
  );
}
