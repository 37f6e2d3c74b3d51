import { lazy, Suspense } from 'react';
import { ApiError } from '../../lib/api-client';

// Its own chunk: the widget (and its workers) load only when the server asks for a check.
const ChallengeWidget = lazy(() => import('./challenge-widget'));

/** The server answered `challengeRequired: true` (many attempts from the same network). */
export function needsChallenge(error: unknown): boolean {
  return error instanceof ApiError && error.challengeRequired;
}

/** A fresh check per refused request (`attempt`); `onSolved` sends the request again with it. */
export function ChallengeStep({
  attempt,
  onSolved,
}: {
  attempt: number;
  onSolved: (payload: string) => void;
}) {
  return (
    <Suspense fallback={<p className="text-sm text-slate-700">Loading a short check…</p>}>
      <ChallengeWidget key={attempt} onSolved={onSolved} />
    </Suspense>
  );
}
