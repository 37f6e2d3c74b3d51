import { useSearchParams } from 'react-router';
import { buttonClassName } from '../../components/ui/button-styles';
import { usePublicConfig } from '../../lib/public-config';
import { ssoStartHref } from './api/sso';
import { safeRedirectPath } from './safe-redirect';

/**
 * "Sign in with <University>", leading the sign-in and sign-up pages when the campus has single
 * sign-on (GET /api/config `sso`); nothing otherwise. A plain link: the provider's page comes next.
 */
export function SsoSignIn({ showProviderSignOut = false }: { showProviderSignOut?: boolean }) {
  const config = usePublicConfig();
  const [searchParams] = useSearchParams();
  const sso = config?.sso;
  if (!sso) return null;
  const returnTo = safeRedirectPath(searchParams.get('redirectTo'));
  return (
    <div className="mb-5 space-y-3">
      <a className={buttonClassName('primary', 'w-full')} href={ssoStartHref(returnTo)}>
        Sign in with {sso.name}
      </a>
      {showProviderSignOut ? (
        <p className="text-center text-sm text-slate-700">
          On a shared computer?{' '}
          <a className="link inline-flex min-h-11 items-center" href="/api/sso/logout">
            Sign out of {sso.name} too
          </a>
        </p>
      ) : null}
      {config.passwordSignUp || showProviderSignOut ? (
        <p className="text-center text-sm text-slate-600" aria-hidden="true">
          or
        </p>
      ) : null}
    </div>
  );
}
