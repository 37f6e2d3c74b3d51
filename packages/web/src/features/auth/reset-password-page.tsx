import { RESET_REDIRECT_DELAY_MS } from '@campus-books/common/constants';
import {
  PASSWORD_HINT,
  resetPasswordSchema,
  type ResetPasswordInput,
} from '@campus-books/common/account.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { SubmitButton } from '../../components/ui/button';
import { ErrorBlock } from '../../components/ui/error-block';
import { TextField } from '../../components/ui/form-field';
import { fieldsOf } from '../../lib/form-fields';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { AuthCard } from './auth-card';
import { useResetPassword } from './api/reset-password';

export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(resetPasswordSchema), defaultValues: { password: '' } });
  const field = fieldsOf(register, errors);

  const isDone = reset.isSuccess;
  useEffect(() => {
    if (!isDone) return;
    const timer = window.setTimeout(
      () => navigate(paths.signIn, { replace: true }),
      RESET_REDIRECT_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [isDone, navigate]);

  const onSubmit = (input: ResetPasswordInput) => reset.mutate({ ...input, token });
  const failure =
    reset.error instanceof ApiError && reset.error.status !== 0
      ? reset.error.message
      : 'Something went wrong.';

  return (
    <AuthCard title="Reset Password" subtitle="Choose a new password for your account.">
      {reset.isSuccess ? (
        <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-900">
          {reset.data.message || 'Your password has been reset.'} Taking you to sign in…
        </p>
      ) : (
        <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            hint={PASSWORD_HINT}
            {...field('password')}
          />
          <SubmitButton isPending={reset.isPending}>Reset Password</SubmitButton>
        </form>
      )}
      {reset.isError ? (
        <div className="mt-5">
          <ErrorBlock message={failure} />
        </div>
      ) : null}
      <p className="mt-5 text-center text-sm">
        <Link className="link inline-flex min-h-11 items-center" to={paths.forgotPassword}>
          Request a new link
        </Link>
      </p>
    </AuthCard>
  );
}
