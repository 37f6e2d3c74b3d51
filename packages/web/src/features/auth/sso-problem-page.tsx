import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components/ui/button-link';
import { paths } from '../../config/paths';
import { usePublicConfig } from '../../lib/public-config';
import { AuthCard } from './auth-card';
import { ssoStartHref } from './api/sso';

/** Each refusal's heading (what happened, in plain words) and its explanation. */
const REASONS: Record<string, { title: string; explain: (name: string) => string }> = {
  'not-admitted': {
    title: 'Not admitted',
    explain: (name) =>
      `${name} signed you in, but this marketplace is open only to the campus members it admits (for example, current students). If you think you should be admitted, ask your campus IT office.`,
  },
  'outside-domain': {
    title: 'Not a campus e-mail address',
    explain: (name) =>
      `${name} gave an e-mail address outside the campus's domain, so we cannot create an account with it.`,
  },
  'unverified-email': {
    title: 'E-mail address not confirmed',
    explain: (name) =>
      `${name} did not confirm your e-mail address, so we cannot create an account with it.`,
  },
  'no-email': {
    title: 'No e-mail address received',
    explain: (name) =>
      `${name} did not give us your e-mail address. Ask your campus IT office to release it to this marketplace.`,
  },
  suspended: { title: 'Account suspended', explain: () => 'This account is suspended.' },
  unavailable: {
    title: 'Campus sign-in unavailable',
    explain: (name) => `${name}'s sign-in cannot be reached right now. Please try again shortly.`,
  },
};
const FAILED = {
  title: 'Sign-in did not work',
  explain: (name: string) =>
    `Signing in with ${name} did not work (the sign-in expired or could not be checked). Please try again.`,
};

/** Why a sign-on was refused (the callback's `reason`); a generic failure for anything else. */
export default function SsoProblemPage() {
  const [searchParams] = useSearchParams();
  const name = usePublicConfig()?.sso?.name ?? 'Your campus';
  const reason = searchParams.get('reason') ?? 'failed';
  const { title, explain } = REASONS[reason] ?? FAILED;
  return (
    <AuthCard title={title}>
      <p className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">{explain(name)}</p>
      <div className="mt-5 grid gap-3">
        {reason === 'not-admitted' || reason === 'suspended' ? null : (
          <a
            className="link inline-flex min-h-11 items-center justify-center"
            href={ssoStartHref('/')}
          >
            Try signing in with {name} again
          </a>
        )}
        <ButtonLink variant="secondary" to={paths.home}>
          Back to the home page
        </ButtonLink>
      </div>
    </AuthCard>
  );
}
