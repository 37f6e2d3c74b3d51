import { signInSchema, type SignInInput } from '@campus-books/common/account.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { SubmitButton } from '../../components/ui/button';
import { ErrorBlock } from '../../components/ui/error-block';
import { TextField } from '../../components/ui/form-field';
import { fieldsOf } from '../../lib/form-fields';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { AuthCard } from './auth-card';
import { ChallengeStep, needsChallenge } from './challenge-step';
import { useSignIn } from './api/sign-in';
import { ResendVerification } from './resend-verification';
import { safeRedirectPath } from './safe-redirect';
import { SsoSignIn } from './sso-sign-in';

/** What another page may hand to sign-in through router state (e.g. sign-up's "check your e-mail"). */
export interface SignInNotice {
  notice?: string;
}

export default function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const { setUser } = useSession();
  const signIn = useSignIn();
  const notice = (location.state as SignInNotice | null)?.notice;
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(signInSchema), defaultValues: { email: '', password: '' } });
  const field = fieldsOf(register, errors);

  const onSubmit = (input: SignInInput & { altcha?: string }) =>
    signIn.mutate(input, {
      onSuccess: (user) => {
        setUser(user);
        void navigate(safeRedirectPath(searchParams.get('redirectTo')), { replace: true });
      },
    });

  const isUnverified = signIn.error instanceof ApiError && signIn.error.status === 403;

  return (
    <AuthCard title="Sign In" subtitle="Welcome Back!">
      {notice ? (
        <p role="status" className="mb-5 rounded-md bg-blue-50 p-3 text-sm text-blue-900">
          {notice}
        </p>
      ) : null}
      <SsoSignIn showProviderSignOut />
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
        <TextField label="Email address" type="email" autoComplete="email" {...field('email')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          {...field('password')}
        />
        <SubmitButton isPending={signIn.isPending}>Sign In</SubmitButton>
      </form>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm">
        <Link className="link" to={paths.forgotPassword}>
          Forgot Password?
        </Link>
        <p className="text-slate-700">
          Don&apos;t have an account?{' '}
          <Link className="link" to={paths.signUp}>
            Sign up
          </Link>
        </p>
      </div>
      {signIn.isError ? (
        <div className="mt-5 space-y-3">
          <ErrorBlock message={signIn.error.message} />
          {needsChallenge(signIn.error) && signIn.variables ? (
            <ChallengeStep
              attempt={signIn.submittedAt}
              onSolved={(altcha) => onSubmit({ ...signIn.variables!, altcha })}
            />
          ) : null}
          {isUnverified && signIn.variables ? (
            <ResendVerification email={signIn.variables.email} />
          ) : null}
        </div>
      ) : null}
    </AuthCard>
  );
}
