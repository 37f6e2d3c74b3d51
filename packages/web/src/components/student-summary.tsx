import { Link } from 'react-router';
import { usePublicProfile } from '../api/ratings-api';
import { paths } from '../config/paths';

/**
 * One line about another student: their name linking to their profile, completed exchanges and the
 * share of positive ratings (from three ratings up). For signed-in, verified students.
 */
export function StudentSummary({ userId, label }: { userId: string; label?: string }) {
  const profile = usePublicProfile(userId);
  if (!profile.data) return null;
  const { username, completedExchanges, positivePercent, ratingCount } = profile.data;
  const facts = [
    `${completedExchanges} ${completedExchanges === 1 ? 'exchange' : 'exchanges'}`,
    positivePercent === null
      ? ratingCount === 0
        ? 'no ratings yet'
        : `${ratingCount} ${ratingCount === 1 ? 'rating' : 'ratings'}`
      : `${positivePercent}% positive`,
  ];
  return (
    <p className="text-sm text-slate-800" data-testid="student-summary">
      {label ? `${label}: ` : null}
      <Link
        to={paths.publicProfile(userId)}
        className="inline-flex min-h-11 items-center font-semibold text-brand-900 underline"
      >
        {username}
      </Link>{' '}
      · {facts.join(' · ')}
    </p>
  );
}
