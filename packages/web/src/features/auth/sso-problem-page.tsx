import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components/ui/button-link';
import { ErrorBlock } from '../../components/ui/error-block';
import { paths } from '../../config/paths';
import { usePublicConfig } from '../../lib/public-config';
import { AuthCard } from './auth-card';
import { ssoStartHref } from './api/sso';

const REASONS: Record<string, (name: string) => string> = {
  'not-admitted': (name) =>
    `${name} signed you in, but this marketplace is open only to the campus members it admits (for example, current students). If you think you should be admitted, ask your campus IT office.`,
  'outside-domain': (name) =>
    `${name} gave an e-mail address outside the campus's domain, so we cannot create an account with it.`,
  'unverified-email': (name) =>
    `${name} did not confirm your e-mail address, so we cannot create an account with it.`,
  'no-email': (name) =>
    `${name} did not give us your e-mail address. Ask your campus IT office to release it to this marketplace.`,
  suspended: () => 'This account is suspended.',
  unavailable: (name) => `${name}'s sign-in cannot be reached right now. Please try again shortly.`,
};

/** Why a sign-on was refused (the callback's `reason`); a generic failure for anything else. */
export default function SsoProblemPage() {
  const [searchParams] = useSearchParams();
  const name = usePublicConfig()?.sso?.name ?? 'Your campus';
  const reason = searchParams.get('reason') ?? 'failed';
  const explain = REASONS[reason];
  const message = explain
    ? explain(name)
    : `Signing in with ${name} did not work (the sign-in expired or could not be checked). Please try again.`;
  const title = reason === 'not-admitted' ? 'Not admitted' : 'Sign-in did not work';
  return (
    <AuthCard title={title}>
      <ErrorBlock message={message} />
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
