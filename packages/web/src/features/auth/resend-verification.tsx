import { emailOnlySchema, type EmailOnlyInput } from '@campus-books/common/account.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { useResendVerification } from './api/resend-verification';
import { RequestError } from '../../components/ui/request-error';

const SENT_FALLBACK =
  'If this account is waiting for verification, a new link is on its way. Check your school email.';

/**
 * Sends a fresh verification link. Given `email` (sign-in already has it) it is a single button;
 * otherwise it asks for the address first.
 */
export function ResendVerification({ email }: { email?: string }) {
  const resend = useResendVerification();
  const form = useForm({
    resolver: zodResolver(emailOnlySchema),
    defaultValues: { email: email ?? '' },
    values: email === undefined ? undefined : { email },
  });

  const onSubmit = (input: EmailOnlyInput) => resend.mutate(input);

  if (resend.isSuccess) {
    return (
      <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-900">
        {resend.data.message || SENT_FALLBACK}
      </p>
    );
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="space-y-3">
      {email === undefined ? (
        <TextField
          label="Email address"
          type="email"
          autoComplete="email"
          error={form.formState.errors.email?.message}
          {...form.register('email')}
        />
      ) : form.formState.errors.email ? (
        <p className="text-sm text-red-700">{form.formState.errors.email.message}</p>
      ) : null}
      <Button
        type="submit"
        variant="secondary"
        isLoading={resend.isPending}
        loadingText="Sending..."
      >
        Resend verification e-mail
      </Button>
      <RequestError error={resend.error} />
    </form>
  );
}
