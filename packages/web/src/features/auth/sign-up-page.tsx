import {
  deriveUsername,
  PASSWORD_HINT,
  schoolEmailLabel,
  signUpSchema,
  type SignUpInput,
} from '@campus-books/common/account.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { SubmitButton } from '../../components/ui/button';
import { ErrorBlock } from '../../components/ui/error-block';
import { TextField } from '../../components/ui/form-field';
import { fieldsOf } from '../../lib/form-fields';
import { paths } from '../../config/paths';
import { useCampus } from '../../lib/campus';
import { useAccountRules, usePublicConfig } from '../../lib/public-config';
import { AuthCard } from './auth-card';
import { GroupMeLinkField } from './groupme-link-field';
import { ChallengeStep, needsChallenge } from './challenge-step';
import { useSignUp } from './api/sign-up';
import { PrivacyNote } from './privacy-note';
import { SsoSignIn } from './sso-sign-in';
import type { SignInNotice } from './sign-in-page';

const CHECK_INBOX =
  'Account created! Check your school email for the verification link, then sign in.';

export default function SignUpPage() {
  const navigate = useNavigate();
  const rules = useAccountRules();
  const signUp = useSignUp();
  const config = usePublicConfig();
  const { productName } = useCampus();
  const schema = useMemo(() => signUpSchema(rules), [rules]);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(schema),
    defaultValues: { firstName: '', lastName: '', email: '', password: '', groupmelink: '' },
  });
  const field = fieldsOf(register, errors);
  const [firstName = '', lastName = ''] = useWatch({ control, name: ['firstName', 'lastName'] });
  const username = deriveUsername(firstName, lastName);

  const send = (body: SignUpInput & { altcha?: string }) =>
    signUp.mutate(body, {
      onSuccess: (answer) => {
        const state: SignInNotice = { notice: answer.message || CHECK_INBOX };
        void navigate(paths.signIn, { state });
      },
    });
  const onSubmit = (input: SignUpInput) =>
    send({ ...input, username: deriveUsername(input.firstName, input.lastName) });

  return (
    <AuthCard title={`Welcome to ${productName}`} documentTitle="Sign Up">
      <SsoSignIn />
      {config?.passwordSignUp === false ? null : (
        <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="First name" autoComplete="given-name" {...field('firstName')} />
            <TextField label="Last name" autoComplete="family-name" {...field('lastName')} />
          </div>
          <p className="text-sm text-slate-700">
            Buyers will see you as{' '}
            <strong className="text-slate-900">{username || 'your first and last name'}</strong>
          </p>
          <TextField
            label={schoolEmailLabel(rules.schoolEmailDomain)}
            type="email"
            autoComplete="email"
            {...field('email')}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            hint={PASSWORD_HINT}
            {...field('password')}
          />
          <GroupMeLinkField rules={rules} {...field('groupmelink')} />
          <SubmitButton isPending={signUp.isPending}>Sign Up</SubmitButton>
        </form>
      )}
      {signUp.isError ? (
        <div className="mt-5 space-y-3">
          <ErrorBlock message={signUp.error.message} />
          {needsChallenge(signUp.error) && signUp.variables ? (
            <ChallengeStep
              attempt={signUp.submittedAt}
              onSolved={(altcha) => send({ ...signUp.variables!, altcha })}
            />
          ) : null}
        </div>
      ) : null}
      <PrivacyNote />
      <p className="mt-5 text-center text-sm">
        <Link className="link inline-flex min-h-11 items-center" to={paths.signIn}>
          Have an account? Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
