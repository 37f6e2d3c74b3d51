import { newAccountGroupmeLinkSchema } from '@campus-books/common/account.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { SubmitButton } from '../../components/ui/button';
import { ErrorBlock } from '../../components/ui/error-block';
import { TextField } from '../../components/ui/form-field';
import { Loading } from '../../components/ui/spinner';
import { fieldsOf } from '../../lib/form-fields';
import { useAccountRules } from '../../lib/public-config';
import { useSession } from '../../lib/session';
import { AuthCard } from './auth-card';
import { GroupMeLinkField } from './groupme-link-field';
import { ssoStartHref, useFinishSignOn, usePendingSignOn } from './api/sso';
import { safeRedirectPath } from './safe-redirect';

const nameField = (label: string) => z.string().trim().min(1, `${label} is required`).max(50);

/**
 * A first sign-on's last step: the account is made from what the campus's sign-on gave; this asks
 * only for what it did not (the GroupMe link; the names if missing), then goes where the student was going.
 */
export default function SsoFinishPage() {
  const pending = usePendingSignOn();
  if (pending.isPending) return <Loading />;
  if (pending.isError) {
    return (
      <AuthCard title="Finish signing in">
        <ErrorBlock message={pending.error.message} />
        <a className="link mt-4 inline-flex min-h-11 items-center" href={ssoStartHref('/')}>
          Sign in again
        </a>
      </AuthCard>
    );
  }
  return <FinishForm {...pending.data} />;
}

function FinishForm(props: { name: string; email: string; firstName: string; lastName: string }) {
  const navigate = useNavigate();
  const { setUser } = useSession();
  const rules = useAccountRules();
  const finish = useFinishSignOn();
  const needsNames = !props.firstName || !props.lastName;
  const schema = useMemo(
    () =>
      z.object({
        groupmelink: newAccountGroupmeLinkSchema(rules),
        firstName: needsNames ? nameField('First name') : z.string().optional(),
        lastName: needsNames ? nameField('Last name') : z.string().optional(),
      }),
    [rules, needsNames],
  );
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(schema),
    defaultValues: { groupmelink: '', firstName: props.firstName, lastName: props.lastName },
  });
  const field = fieldsOf(register, errors);
  const onSubmit = (input: z.infer<typeof schema>) =>
    finish.mutate(needsNames ? input : { groupmelink: input.groupmelink }, {
      onSuccess: (answer) => {
        setUser(answer.user);
        void navigate(safeRedirectPath(answer.returnTo), { replace: true });
      },
    });

  return (
    <AuthCard title="Finish signing in" subtitle={`Signed in with ${props.name}`}>
      <p className="mb-4 text-sm text-slate-700">
        Your account will use <strong className="text-slate-900">{props.email}</strong>
        {needsNames ? '.' : `, and buyers will see you as ${props.firstName} ${props.lastName}.`}
      </p>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
        {needsNames ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="First name" autoComplete="given-name" {...field('firstName')} />
            <TextField label="Last name" autoComplete="family-name" {...field('lastName')} />
          </div>
        ) : null}
        <GroupMeLinkField rules={rules} {...field('groupmelink')} />
        <SubmitButton isPending={finish.isPending}>Create my account</SubmitButton>
      </form>
      {finish.isError ? (
        <div className="mt-5">
          <ErrorBlock message={finish.error.message} />
        </div>
      ) : null}
    </AuthCard>
  );
}
