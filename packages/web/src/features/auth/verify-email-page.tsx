import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { ButtonLink } from '../../components/ui/button-link';
import { ErrorBlock } from '../../components/ui/error-block';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { fetchSessionUser, useSession } from '../../lib/session';
import { AuthCard } from './auth-card';
import { useVerifyEmail } from './api/verify-email';
import { ResendVerification } from './resend-verification';

const VERIFIED_FALLBACK = 'Your email address is verified. You can sign in now.';
const ALREADY_VERIFIED = 'This email address is already verified — sign in.';

export default function VerifyEmailPage() {
  const { token = '' } = useParams();
  const { user, setUser } = useSession();
  const verify = useVerifyEmail();
  const { mutate } = verify;
  // The token is single-use: StrictMode's second effect run must not spend it twice.
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    mutate(token);
  }, [token, mutate]);

  // A signed-in user who confirmed a new address sees it in the profile without signing in again.
  const isVerified = verify.isSuccess;
  const isSignedIn = user !== null;
  useEffect(() => {
    if (!isVerified || !isSignedIn) return;
    fetchSessionUser()
      .then(setUser)
      .catch(() => undefined);
  }, [isVerified, isSignedIn, setUser]);

  return (
    <AuthCard title="Verify your email">
      {!token ? (
        <ErrorBlock message="This verification link is incomplete." />
      ) : verify.isSuccess && verify.data.alreadyVerified ? (
        <div className="space-y-4">
          <p role="status" className="rounded-md bg-blue-50 p-3 text-blue-900">
            {ALREADY_VERIFIED} This link was used before; you do not need a new one.
          </p>
          <ButtonLink to={isSignedIn ? paths.profile : paths.signIn} className="w-full">
            {isSignedIn ? 'Go to your profile' : 'Sign In'}
          </ButtonLink>
        </div>
      ) : verify.isSuccess ? (
        <div className="space-y-4">
          <p role="status" className="rounded-md bg-green-50 p-3 text-green-900">
            {verify.data.message || VERIFIED_FALLBACK}
          </p>
          <ButtonLink to={isSignedIn ? paths.profile : paths.signIn} className="w-full">
            {isSignedIn ? 'Go to your profile' : 'Sign In'}
          </ButtonLink>
        </div>
      ) : verify.isError ? (
        <div className="space-y-5">
          <ErrorBlock message={verify.error.message} />
          <p className="text-sm text-slate-700">
            Links expire and work only once. Enter your school email to get a new one.
          </p>
          <ResendVerification />
        </div>
      ) : (
        <Loading />
      )}
    </AuthCard>
  );
}
