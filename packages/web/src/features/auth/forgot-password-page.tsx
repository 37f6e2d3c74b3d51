import { emailOnlySchema, type EmailOnlyInput } from '@campus-books/common/account.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { SubmitButton } from '../../components/ui/button';
import { ErrorBlock } from '../../components/ui/error-block';
import { TextField } from '../../components/ui/form-field';
import { fieldsOf } from '../../lib/form-fields';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { AuthCard } from './auth-card';
import { useForgotPassword } from './api/forgot-password';

export default function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(emailOnlySchema), defaultValues: { email: '' } });
  const field = fieldsOf(register, errors);

  const onSubmit = (input: EmailOnlyInput) => forgot.mutate(input);
  const failure =
    forgot.error instanceof ApiError && forgot.error.status !== 0
      ? forgot.error.message
      : 'Something went wrong';

  return (
    <AuthCard title="Forgot Password" subtitle="We will email you a link to choose a new password.">
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
        <TextField label="Email address" type="email" autoComplete="email" {...field('email')} />
        <SubmitButton isPending={forgot.isPending} loadingText="Sending...">
          Send Password
        </SubmitButton>
      </form>
      {forgot.isSuccess ? (
        <p role="status" className="mt-5 rounded-md bg-green-50 p-3 text-sm text-green-900">
          Password has been sent to your email
        </p>
      ) : null}
      {forgot.isError ? (
        <div className="mt-5">
          <ErrorBlock message={failure} />
        </div>
      ) : null}
      <p className="mt-5 text-center text-sm">
        <Link className="link inline-flex min-h-11 items-center" to={paths.signIn}>
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
